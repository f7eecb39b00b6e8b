"""Every page of the reference client besides the tables (those are test_readable's), as a player
reaches it, with no serious or critical axe-core finding: the lobby with an open match listed,
a host's waiting table, the links page, the replay, a leaderboard and an invite opened by someone
not yet registered; each at a desktop's and a phone's widths."""

from __future__ import annotations

from tests.web.table import create_match, register, settle
from tests.web.test_readable import PHONE
from tests.web.test_readable import assert_accessible as assert_at_one_width

DESKTOP = {"width": 1280, "height": 900}


def assert_accessible(page) -> None:
    """At a desktop's width and at a phone's."""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        assert_at_one_width(page)
    page.set_viewport_size(DESKTOP)


def test_the_lobby_links_replay_leaderboard_and_invite_pages_are_accessible(page, browser, server):
    links = create_match(page, "mercenaries", seats=2, bots=[1])
    assert_accessible(page)  # the links page
    page.goto(server + "/" + links[0])
    settle(page)
    page.click(".replay-link")
    page.wait_for_selector("#replay-table[data-frame]")
    assert_accessible(page)
    page.goto(server + "/#/leaderboard/mercenaries")
    page.wait_for_selector("#leaderboard")
    assert_accessible(page)

    page.goto(server + "/#/")
    register(page, "Dee")
    page.select_option("#online-game", "taverna")
    page.check("#online-private")
    page.click("#host-match")
    page.wait_for_selector("#table[data-status=waiting]", state="attached")
    assert_accessible(page)  # the host's waiting table, its invite link shown
    invite = page.input_value("#invite-link")
    page.goto(server + "/#/")
    register_again = page.locator("#host-match")
    register_again.wait_for()
    page.select_option("#online-game", "heros-tavern")
    page.click("#host-match")  # a public one this time: listed in the lobby
    page.wait_for_selector("#table[data-status=waiting]", state="attached")
    page.goto(server + "/#/")
    page.locator("li.open-match").first.wait_for()
    assert_accessible(page)

    stranger = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        other = stranger.new_page()
        other.goto(invite)
        other.wait_for_selector("#player-form")
        assert_accessible(other)
    finally:
        stranger.close()
