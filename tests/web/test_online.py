"""Two browsers meet in the lobby (each only with its own name), see each other come and go, play
with the clocks shown, and one concedes; neither browser ever holds the other's seat token."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import httpx

from tests.web.table import host_online, mercenaries_move, register
from tests.web.test_readable import assert_accessible


def seat_tokens(page) -> set[str]:
    saved = json.loads(page.evaluate("localStorage.getItem('tavern.matches')") or "[]")
    return {seat["token"] for match in saved for seat in match["seats"]}


def test_two_browsers_meet_in_the_lobby_play_with_clocks_and_one_concedes(browser, page, server):
    register(page, "Ann")
    # a host may cancel its waiting match: it leaves the lobby's list
    host_online(page, "mercenaries", seats=2, clock=0)
    cancelled = urlsplit(page.url).fragment.split("/")[2].split("?")[0]
    assert page.locator("#leave-table").inner_text() == "Cancel the match"
    page.click("#leave-table")
    page.locator("#open-matches li.none, #open-matches li.open-match").first.wait_for()
    assert page.locator(f"#open-matches li[data-match='{cancelled}']").count() == 0
    # each game's own seat range and options: Hero's Tavern seats 3 to 5 (2 was its refused default)
    page.select_option("#online-game", "heros-tavern")
    assert (page.get_attribute("#online-seats", "min"), page.input_value("#online-seats")) == ("3", "3")
    page.select_option("#online-game", "tavern-masters")
    assert page.locator("#online-options select[data-option=dirty_deeds]").count() == 1
    host_online(page, "mercenaries", seats=2, clock=300, options={"best_of": "3"})
    assert page.locator("#start").is_visible()  # the host may start with bots
    assert page.locator("#status").inner_text() == "Waiting for the match to start"  # not for the host's move
    assert page.locator("#leave-table").inner_text() == "Cancel the match"
    # the host's own table in the lobby is one to go back to, never to join again (that voided its link)
    table_url = page.url
    page.goto(server + "/#/")
    own = page.locator("li.open-match", has_text="Ann").first
    own.wait_for()
    assert own.locator("button.join").count() == 0
    own.locator(".back-to-table").click()
    page.wait_for_selector("#table[data-status=waiting]", state="attached")
    assert page.url == table_url and page.locator("#start").is_visible()

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
            seen.wait_for_selector("#players .clock[data-deadline]")
            # the move's time and the bank apart (300 s a move, a bank of 1,200 s)
            shown = seen.locator("#players .clock[data-deadline]").first.inner_text()
            assert re.fullmatch(r"[45]:\d\d bank 20:00", shown), shown
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
        # the turn's sound can be turned off, and stays off in this browser
        assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
        page.click("#sound-toggle")
        assert page.evaluate("localStorage.getItem('tavern.sound')") == "off"
        assert page.locator("#sound-toggle").inner_text() == "Sound off"
        # whoever's move it is makes one, with the clock shown
        mover = page if page.locator("#status.your-move").count() else ben
        before = int(mover.get_attribute("#table", "data-version"))
        mercenaries_move(mover)
        mover.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {before}")
        asked: list[str] = []
        ben.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        ben.click("#concede")  # a second thought: nothing is sent
        ben.wait_for_timeout(300)
        assert asked and "cannot be undone" in asked[0] and "ends now" in asked[0]
        assert ben.get_attribute("#table", "data-status") == "active"
        ben.once("dialog", lambda dialog: dialog.accept())
        ben.click("#concede")
        for seen in (page, ben):
            seen.wait_for_selector("#table[data-status=finished]", state="attached")
            assert "Ann wins" in seen.locator("#result h2").inner_text()
            # a concession is no score of 0 for both, and the one who conceded is no bot
            lines = seen.locator("#result .standings li").all_inner_texts()
            assert lines == ["Ann — wins: the others conceded", "Ben (conceded)"], lines
        assert ben.locator(".who").inner_text() == "You are Ben (conceded)"
        for seen in (page, ben):  # the log names the players, the concession too, never "Player N"
            seen.locator("#log li", has_text="Ben conceded").wait_for()  # the log follows the view
            log = seen.locator("#log li").all_inner_texts()
            assert not any("Player " in line for line in log), log
        assert page.locator("#rematch").is_visible()
        assert not seat_tokens(ben) & seat_tokens(page) and seat_tokens(ben) and seat_tokens(page)
        assert not any(token in page.content() for token in seat_tokens(ben))
        # Ann asks for a rematch: Ben, still at the finished table, is told without asking
        assert ben.locator("#rematch-offer").count() == 0
        page.click("#rematch")
        page.wait_for_selector("#table[data-status=waiting]", state="attached")
        ben.wait_for_selector("#rematch-offer", timeout=10_000)
        assert errors == []
    finally:
        other.close()
    page.goto(server + "/#/leaderboard/mercenaries")  # the rated match counted for both
    page.locator("#leaderboard tbody tr").nth(1).wait_for()
    assert sorted(page.locator("#leaderboard tbody a.player-link").all_inner_texts()) == ["Ann", "Ben"]


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


def test_two_people_press_play_now_and_meet_at_a_table(browser, page, server):
    """Play now (docs/matchmaking.md): each browser asks a ticket for Mercenaries, the server's
    upkeep makes their table, each joins its own seat and the match starts; a third cancels."""
    register(page, "Dora")
    page.select_option("#play-now-game", "mercenaries")
    page.click("#play-now")
    page.wait_for_selector("#play-now-cancel:not([hidden])")
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        eve = other.new_page()
        eve.goto(server + "/")
        register(eve, "Eve")
        eve.select_option("#play-now-game", "mercenaries")
        eve.click("#play-now")
        for seen in (page, eve):
            seen.wait_for_selector("#table[data-status=active]", state="attached")
            assert sorted(seen.locator("#players .player .name").all_inner_texts()) == ["Dora", "Eve"]
        assert not seat_tokens(eve) & seat_tokens(page) and seat_tokens(eve) and seat_tokens(page)
        eve.goto(server + "/#/")
        eve.select_option("#play-now-game", "taverna")
        eve.click("#play-now")
        eve.click("#play-now-cancel")
        eve.wait_for_selector("#play-now-cancel", state="hidden")
        assert eve.locator("#play-now").is_enabled()
        assert eve.locator("#play-now-status").inner_text() == "Search cancelled."
    finally:
        other.close()


def test_a_correspondence_match_hosted_from_the_lobby_is_in_the_players_inbox(page, server):
    """Issue 34: the host form's correspondence clock (days a move, vacation days), and the inbox
    page, live from its stream, linking to the table with the seat's own token."""
    register(page, "Dee")
    page.select_option("#online-game", "mercenaries")
    page.fill("#online-seats", "2")
    page.fill("#online-bots", "1")
    page.select_option("#online-clock-kind", "correspondence")
    page.select_option("#online-days", "3")
    page.fill("#online-vacation", "2")
    page.click("#host-match")
    page.wait_for_selector("#table[data-status=active]", state="attached")
    table = page.url
    page.goto(server + "/#/")
    page.click("#inbox-link")
    entry = page.locator("#inbox-mine li.inbox-entry")  # the bot moves at once: then it is Dee's turn
    entry.wait_for()
    assert re.fullmatch(r"\d+ d \d+ h", entry.locator(".clock .move-time").inner_text())
    assert entry.locator("a").get_attribute("href") == "#" + table.split("#", 1)[1]
    assert page.locator("#inbox-waiting li.none").count() == 1
    assert_accessible(page)
    entry.locator("a").click()
    page.wait_for_selector("#table[data-status=active]", state="attached")
    assert re.fullmatch(r"\d+ d \d+ h", page.locator("#players .clock .move-time").first.inner_text())


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
    page.wait_for_selector("#notify input.notify-kind[data-kind=ended]:checked")  # read: the boxes start off
    assert not page.is_checked("#notify input.notify-kind[data-kind=turn]")  # read back from the service
    # the button asks for the permission and registers sw.js (no push service is reachable from
    # here: the subscription itself is the Web Push test's, tests/service/online/test_notifications.py)
    context.grant_permissions(["notifications"], origin=server)
    page.click("#notify-me")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith("/sw.js")
