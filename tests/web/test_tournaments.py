"""The tournament pages of the reference client: a person creates a tournament from the list,
registers, a second player registers through the API, the host starts it and plays its table from
the page; the pages are accessible, and all French in a French browser (but for names)."""

from __future__ import annotations

import httpx

from tests.web.table import register
from tests.web.test_languages import assert_french, french, proper_names  # noqa: F401 (french: a fixture)
from tests.web.test_readable import assert_accessible


def test_a_tournament_is_created_joined_started_and_its_table_played_from_the_pages(page, server):
    register(page, "Ann")
    page.click("#tournaments-link")
    page.wait_for_selector("#tournament-form")
    assert_accessible(page)  # the list, empty, with the creation form
    page.select_option("#tournament-game", "mercenaries")
    page.fill("#tournament-rounds", "1")
    page.click("#create-tournament")
    page.click("#register-tournament")
    page.wait_for_selector("#withdraw-tournament")
    tournament_id = page.evaluate("location.hash").split("/")[-1]
    ben = httpx.post(server + "/v1/players", json={"name": "Ben"}).json()
    registered = httpx.post(
        f"{server}/v1/tournaments/{tournament_id}/register", headers={"Authorization": f"Bearer {ben['token']}"}
    )
    assert registered.status_code == 200, registered.text
    page.reload()
    page.wait_for_selector("#standings tr >> text=Ben")
    page.click("#start-tournament")
    page.wait_for_selector("button.join")
    assert page.locator("section.panel h2").first.inner_text() == "Round 1"
    table = page.locator("section.panel li").first.inner_text()  # seated by rating, then id: either way round
    assert table.startswith(("Ann \u2013 Ben", "Ben \u2013 Ann")) and "Play my table" in table
    assert_accessible(page)  # standings and a round
    page.click("button.join")
    page.wait_for_selector("#table", state="attached")  # its seat kept for Ann, the match waits for Ben
    page.goto(server + "/#/tournaments")
    page.wait_for_selector("#tournaments li >> text=Mercenaries")


def test_the_tournament_pages_are_french_in_a_french_browser(french, server):  # noqa: F811 (the fixture)
    names = [*proper_names(server), "Ann", "Ben", "BOT"]
    host = httpx.post(server + "/v1/players", json={"name": "Ann"}).json()
    made = httpx.post(
        server + "/v1/tournaments", json={"game": "taverna", "rounds": 2, "name": "Ann"},
        headers={"Authorization": f"Bearer {host['token']}"},
    ).json()  # fmt: skip
    french.goto(server + "/#/tournaments")
    french.wait_for_selector("#tournaments li")
    assert_french(french, names, "the tournaments")
    french.goto(f"{server}/#/tournament/{made['tournament_id']}")
    french.wait_for_selector("#standings")
    assert_french(french, names, "a tournament")
