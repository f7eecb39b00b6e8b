"""Two browsers meet in the lobby (each only with its own name), see each other come and go, play
with the clocks shown, and one concedes; neither browser ever holds the other's seat token."""

from __future__ import annotations

import json
import re

import httpx

from tests.web.table import mercenaries_move, register
from tests.web.test_readable import assert_accessible


def seat_tokens(page) -> set[str]:
    saved = json.loads(page.evaluate("localStorage.getItem('tavern.matches')") or "[]")
    return {seat["token"] for match in saved for seat in match["seats"]}


def test_two_browsers_meet_in_the_lobby_play_with_clocks_and_one_concedes(browser, page, server):
    register(page, "Ann")
    page.select_option("#online-game", "mercenaries")
    page.fill("#online-seats", "2")
    page.fill("#online-bots", "0")
    page.fill("#online-clock", "300")
    page.click("#host-match")
    page.wait_for_selector("#table[data-status=waiting]", state="attached")
    assert page.locator("#start").is_visible()  # the host may start with bots

    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        ben = other.new_page()
        errors: list[str] = []
        ben.on("pageerror", lambda error: errors.append(str(error)))
        ben.goto(server + "/")
        register(ben, "Ben")
        row = ben.locator("li.open-match", has_text="Ann").first
        row.wait_for()
        row.locator("button.join").click()
        for seen in (page, ben):
            seen.wait_for_selector("#table[data-status=active]", state="attached")
            names = seen.locator("#players .player .name").all_inner_texts()
            assert names == ["Ann", "Ben"]
            seen.wait_for_selector("#players .clock")
            assert re.fullmatch(r"\d+:\d\d", seen.locator("#players .clock").first.inner_text())
        # each sees the other connected; Ben steps out to the lobby (his stream closes) and back
        both = "[...document.querySelectorAll('#players .presence')].map(e => e.title).join() === '%s'"
        for seen in (page, ben):
            seen.wait_for_function(both % "connected,connected")
        at_table = ben.url
        ben.goto(server + "/#/")
        page.wait_for_function(both % "connected,away")
        ben.goto(at_table)
        ben.wait_for_selector("#table[data-status=active]", state="attached")
        page.wait_for_function(both % "connected,connected")
        # whoever's move it is makes one, with the clock shown
        mover = page if page.locator("#status.your-move").count() else ben
        before = int(mover.get_attribute("#table", "data-version"))
        mercenaries_move(mover)
        mover.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {before}")
        ben.click("#concede")
        for seen in (page, ben):
            seen.wait_for_selector("#table[data-status=finished]", state="attached")
            assert "Ann wins" in seen.locator("#result h2").inner_text()
        assert page.locator("#rematch").is_visible()
        assert not seat_tokens(ben) & seat_tokens(page) and seat_tokens(ben) and seat_tokens(page)
        assert not any(token in page.content() for token in seat_tokens(ben))
        assert errors == []
    finally:
        other.close()


def test_a_person_challenges_a_bot_from_the_lobby_and_sees_it_flagged(page, server):
    """The bot's side is played by the test through the API (the example bot's own test runs it
    as a process): it hears the challenge on its event stream, accepts, and concedes."""
    bot = httpx.post(server + "/v1/players", json={"name": "Lobby Bot", "bot": True}).json()
    register(page, "Cat")
    row = page.locator("li.bot", has_text="Lobby Bot")
    row.wait_for()
    assert row.locator(".badge.bot").inner_text() == "BOT"
    assert_accessible(page)  # the lobby with its bots listed
    row.locator("select.bot-game").select_option("mercenaries")
    row.locator("button.challenge").click()
    headers = {"Authorization": f"Bearer {bot['token']}"}
    with httpx.stream("GET", server + "/v1/events", headers=headers, timeout=15) as events:
        lines = events.iter_lines()
        data = next(line for line in lines if line.startswith("data: "))
    asked = json.loads(data.removeprefix("data: "))["challenge"]
    assert asked["game"] == "mercenaries" and asked["challenger_name"] == "Cat" and asked["rated"]
    accepted = httpx.post(f"{server}/v1/challenges/{asked['challenge_id']}/accept", headers=headers).json()
    page.wait_for_selector("#table[data-status=active]", state="attached")
    assert page.locator("#players .player .name").all_inner_texts() == ["Cat", "Lobby Bot"]
    conceded = httpx.post(
        f"{server}/v1/matches/{accepted['match_id']}/commands", json={"type": "Concede"},
        headers={"Authorization": f"Bearer {accepted['token']}"},
    )  # fmt: skip
    assert conceded.status_code == 200, conceded.text
    page.wait_for_selector("#table[data-status=finished]", state="attached")
    page.goto(server + "/#/leaderboard/mercenaries")
    flagged = page.locator("#leaderboard tr", has_text="Lobby Bot")
    flagged.wait_for()  # the projector counts the rated match a moment after it finished
    assert flagged.locator(".badge.bot").inner_text() == "BOT"


def test_the_lobby_s_notification_choices_are_the_player_s_and_its_service_worker_registers(context, page, server):
    register(page, "Nia")
    page.wait_for_selector("#notify input.notify-kind[data-kind=turn]")
    assert_accessible(page)  # the lobby with its notifications panel
    page.uncheck("#notify input.notify-kind[data-kind=turn]")
    player = json.loads(page.evaluate("localStorage.getItem('tavern.player')"))
    url = f"{server}/v1/players/{player['id']}/notifications"
    headers = {"authorization": f"Bearer {player['token']}"}
    for _ in range(100):  # the PATCH leaves on the change
        chosen = httpx.get(url, headers=headers).json()
        if not chosen["turn"]:
            break
        page.wait_for_timeout(50)
    assert chosen == {"turn": False, "ended": True, "time_low": True, "webhook": True, "push": True}
    page.reload()
    page.wait_for_selector("#notify input.notify-kind[data-kind=ended]:checked")
    assert not page.is_checked("#notify input.notify-kind[data-kind=turn]")  # read back from the service
    # the button asks for the permission and registers sw.js (no push service is reachable from
    # here: the subscription itself is the Web Push test's, tests/service/online/test_notifications.py)
    context.grant_permissions(["notifications"], origin=server)
    page.click("#notify-me")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith("/sw.js")
