"""Two browsers meet in the lobby (each only with its own name), see each other come and go, play
with the clocks shown, and one concedes; neither browser ever holds the other's seat token."""

from __future__ import annotations

import json
import re

from tests.web.table import mercenaries_move


def register(page, name: str) -> None:
    page.fill("#player-name", name)
    page.click("#register")
    page.wait_for_selector("#playing-as")


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
