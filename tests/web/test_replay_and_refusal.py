"""The replay's scrubber, and a refused command's reason shown to the player."""

from __future__ import annotations

import json

from tests.web.table import create_match, settle, version


def test_a_finished_match_replays_from_the_first_frame_to_the_last(page, shots):
    links = create_match(page, "heros-tavern", seats=3, bots=[0, 1, 2])  # the bots play it out alone
    streams: list[dict] = []

    def drop_the_first_stream(route):
        streams.append(route.request.headers)
        if len(streams) == 1:
            route.abort()  # the network drops the first connection
        else:
            route.continue_()

    page.route("**/stream", drop_the_first_stream)
    page.goto(page.url.split("#")[0] + links["spectator"])
    # a spectator sends nothing: every update it sees came over the stream, reconnected by itself
    page.wait_for_selector("#table[data-status=finished]", timeout=60_000)
    assert len(streams) >= 2 and int(streams[1]["last-event-id"]) >= 1
    final = version(page)
    page.click(".replay-link")
    page.wait_for_selector("#replay-table[data-frame='0']")
    frame = lambda: int(page.get_attribute("#replay-table", "data-frame"))  # noqa: E731
    assert page.get_attribute("#replay-table", "data-version") == "0"
    assert "before the first event" in page.inner_text("#frame-label").lower()
    page.click("#next")
    assert frame() == 1
    label = page.inner_text("#frame-label")  # the narrated event
    assert "shuffled" in label or "dealt" in label
    page.click("#next")
    page.click("#prev")
    assert frame() == 1
    page.click("#last")
    assert int(page.get_attribute("#replay-table", "data-version")) == final
    assert page.locator("#replay-table .round.now").count() == 0  # the last frame: the match is over
    page.click("#first")
    assert frame() == 0
    page.fill("#scrub", str(final // 2))  # the slider
    assert frame() == final // 2
    # whole matches replay from any seat's chair once finished: seat 1's hand shows in the draft
    page.select_option("#replay-seat", "1")
    page.wait_for_selector("#replay-table[data-frame='0']")
    page.fill("#scrub", "2")
    assert page.locator("#replay-table .own-hand .card").count() == 7
    page.keyboard.press("ArrowRight")
    assert frame() == 3
    page.fill("#scrub", str(final - 40))
    page.screenshot(path=str(shots / "replay.png"), full_page=True)


def test_a_refused_command_shows_the_rule_it_broke(context, server):
    """Two tabs of the same seat race. The UI only offers legal moves, so the refusal is made
    honestly: tab B's live stream is held back (a stalled network), so it still shows the hand
    from before tab A's pick when its player clicks the same card; the service answers 422 and
    tab B must show that answer's code and message."""
    tab_a = context.new_page()
    tab_a.goto(server + "/")
    links = create_match(tab_a, "heros-tavern", seats=3, bots=[1, 2])
    tab_b = context.new_page()
    tab_b.route("**/stream", lambda route: None)  # never answered: tab B hears nothing new
    tab_b.goto(server + "/" + links[0])
    settle(tab_b)
    tab_a.goto(server + "/" + links[0])
    settle(tab_a)
    card = tab_a.locator(".own-hand .card.actionable").first.get_attribute("data-card")
    tab_a.click(f".own-hand .card[data-card='{card}']")
    tab_a.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {version(tab_b)}")
    with tab_b.expect_response("**/commands") as answer:
        tab_b.click(f".own-hand .card[data-card='{card}']")
    assert answer.value.status == 422
    refusal = json.loads(answer.value.body())["error"]
    box = tab_b.locator("#error")
    box.wait_for()
    assert box.get_attribute("data-code") == refusal["code"]
    assert "Refused" in box.inner_text()
    assert refusal["message"] in box.inner_text()
    assert tab_a.locator("#error").is_hidden()  # tab A's pick was accepted
    # refused on a stale table, tab B fetched a fresh view (its stream is still held back)
    tab_b.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) >= {version(tab_a)}")
