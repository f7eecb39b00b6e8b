"""Every registered game's table renders in the browser (its own, or the generic panels), and the
generic table alone can play a whole match. With TAVERN_SCREENSHOTS=1 the pictures of each table
go to docs/screenshots/ (how the committed ones were taken)."""

from __future__ import annotations

import pytest

from domain.games import game_ids, get_game
from tests.web.table import create_match, finished, first_move, mercenaries_move, play_to_the_end, settle


def advance(page, game: str) -> None:
    """A few moves in, so the table has something on it: Hero's Tavern to its first purchases,
    Mercenaries a couple of turns in, any other game a handful of moves."""
    steps = {"heros-tavern": 7, "mercenaries": 12}.get(game, 5)
    for _ in range(steps):
        settle(page)
        if finished(page):
            return
        if game == "mercenaries":
            mercenaries_move(page)
        else:
            first_move(page)
    settle(page)


@pytest.mark.parametrize("game", game_ids())
def test_each_game_has_a_table_a_player_can_act_on(page, server, shots, game):
    rules = get_game(game)
    seats = max(rules.min_seats, min(3, rules.max_seats))
    links = create_match(page, game, seats=seats, bots=list(range(1, seats)))
    if game == "heros-tavern":
        page.screenshot(path=str(shots / "lobby-links.png"))
        page.goto(server + "/#/")
        page.wait_for_selector(".recent .status:not(:empty)")
        page.screenshot(path=str(shots / "lobby.png"))
    page.goto(server + "/" + links[0])
    settle(page)
    assert page.locator("#table .table, #table .generic-table").count() == 1
    assert page.locator("#table .actionable").count() >= 1
    advance(page, game)
    page.screenshot(path=str(shots / f"{game}.png"), full_page=True)
    page.goto(server + "/" + links["spectator"])
    page.wait_for_selector("#table[data-game]")
    assert page.locator("#table .actionable").count() == 0  # a spectator acts on nothing
    assert page.locator(".own-hand").count() == 0  # and sees no hand face up


def test_the_generic_table_plays_a_whole_match(page, server, shots):
    """The fallback for a game without its own table yet: the view as panels, legal moves clickable."""
    links = create_match(page, "heros-tavern", seats=3, bots=[1, 2])
    page.goto(server + "/" + links[0] + "&table=generic")
    settle(page)
    assert page.locator("#table .generic-table").count() == 1
    page.screenshot(path=str(shots / "generic-table.png"), full_page=True)
    play_to_the_end(page, first_move, limit=200)
    assert page.locator("#result .standings li").count() == 3


def test_a_table_that_cannot_draw_a_view_falls_back_to_the_generic_one(context, server):
    """A game's table written against an older view must not leave its player stuck."""
    page = context.new_page()
    broken = "export function render(view) { return view.no_such_field.length; }"
    page.route("**/tables/mercenaries.js", lambda route: route.fulfill(body=broken, content_type="text/javascript"))
    page.goto(server + "/")
    links = create_match(page, "mercenaries", seats=2, bots=[1])
    with page.expect_console_message(lambda message: message.text.startswith("table failed")):
        page.goto(server + "/" + links[0])
        settle(page)
    assert page.locator("#table .generic-table").count() == 1
    assert "could not draw" in page.inner_text("#table")


def test_a_match_joined_by_its_link_is_listed_in_that_browsers_lobby(page, browser, server):
    links = create_match(page, "mercenaries", seats=2, bots=[1])
    match_id = links[0].split("/")[2].split("?")[0]
    elsewhere = browser.new_context()  # another player's browser: it only has the link
    try:
        joiner = elsewhere.new_page()
        joiner.goto(server + "/" + links[0])
        settle(joiner)
        joiner.goto(server + "/#/")
        listed = joiner.locator(f".recent[data-match='{match_id}']")
        listed.locator(".status", has_text="active").wait_for()
        assert "Tavernkeepers and Mercenaries" in listed.inner_text()
    finally:
        elsewhere.close()
