"""The reference client in French: a Taverna match played in a browser whose language is French
shows no English (tests/web/languages.py says how that is told), and switching language draws the
page again without reloading it, its API calls and its stream then asking for the new language."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.web.languages import english_in, english_on_page
from tests.web.table import create_match, finished, first_move, register, settle

HAPPENED = "Ce qui s\u2019est passé"  # the log's title in French
MOVES = 8  # a few steps of the match: the people, the deeds, the first turns


@pytest.fixture
def french(browser, server):
    """A page of a browser whose language is French (navigator.languages and Accept-Language)."""
    context = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    yield page
    context.close()
    assert errors == [], f"JavaScript errors in the page: {errors}"


def proper_names(server: str) -> list[str]:
    """The games' titles as the server names them in French; the seats here are "Joueur N"."""
    games = httpx.get(server + "/v1/games", headers={"Accept-Language": "fr"}).json()
    return [game["name"] for game in games]


def assert_french(page, names: list[str], where: str) -> None:
    leaks = [f"{piece!r} in {text!r}" for piece, text in english_on_page(page, names)]
    assert not leaks, f"English on the page ({where}): " + "; ".join(leaks[:8])


def test_the_rule_tells_english_from_french_and_names():
    assert english_in(["En attente de Joueur 2", "Passer", "table libre"], []) == []
    assert english_in(["Waiting for Joueur 2", "une free table"], []) == [
        ("Waiting for", "Waiting for Joueur 2"),
        ("free table", "une free table"),
    ]
    assert english_in(["Pass"], []) == [("Pass", "Pass")]  # the word alone, not inside "Passer"
    assert english_in(["Seats: Ann"], ["Seats"]) == []  # a player's name is no English


def test_a_taverna_match_in_french_shows_no_english(french, server):
    page, names = french, proper_names(server)
    page.wait_for_selector("#create-match")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert_french(page, names, "the lobby")
    links = create_match(page, "taverna", seats=2, bots=[1])
    assert_french(page, names, "the links")
    page.goto(server + "/" + links[0])
    settle(page)
    page.click("#rules summary")  # the rules in short, open
    assert page.locator("#rules li").count() > 0
    assert_french(page, names, "the table")
    for step in range(MOVES):
        if finished(page):
            break
        page.locator("#table .actionable").first.click()  # a menu (several moves, or a confirmation) opens
        assert_french(page, names, f"step {step}, a move chosen")
        menu = page.locator(".menu .menu-item")
        if menu.count():
            menu.first.click()
        settle(page)
        assert_french(page, names, f"step {step}, played")
    assert page.locator("#log li").count() > 0  # the narration was checked with the rest
    page.click(".replay-link")
    page.wait_for_selector("#replay-table[data-frame]")
    page.click("#last")
    assert_french(page, names, "the replay")
    page.goto(server + "/#/leaderboard/taverna")
    page.wait_for_selector("#leaderboard")
    assert_french(page, names, "a leaderboard")
    page.goto(server + "/#/")
    page.wait_for_function("document.querySelector('.recent .status')?.textContent.includes('version')")
    assert_french(page, names, "the lobby with the match listed")  # its date, its status


def test_switching_language_redraws_without_a_reload(page, server):
    page.wait_for_selector("#create-match")
    assert page.inner_text("#create h2") == "New match"
    links = create_match(page, "taverna", seats=2, bots=[1])
    page.goto(server + "/" + links[0])
    settle(page)
    page.evaluate("window.marker = 'same page'")
    asked: list[tuple[str, str | None]] = []  # (url, Accept-Language) of each API call from now on
    page.on("request", lambda call: "/v1/" in call.url and asked.append((call.url, call.headers["accept-language"])))
    page.select_option("#language", "fr")
    page.wait_for_function(f"document.querySelector('#log h3')?.textContent === {HAPPENED!r}")
    settle(page)
    assert page.evaluate("window.marker") == "same page"  # no reload
    assert page.inner_text("#log h3") == HAPPENED
    assert page.evaluate("localStorage.getItem('tavern.language')") == "fr"
    streams = [language for url, language in asked if url.endswith("/stream")]
    assert streams and set(streams) == {"fr"}, asked  # the stream reconnected, asking for French
    assert {language for _, language in asked} == {"fr"}
    first_move(page)  # and the table still plays
    settle(page)
    page.reload()  # the choice is remembered
    page.wait_for_selector("#table[data-version] .table")
    assert page.inner_text("#log h3") == HAPPENED
    page.select_option("#language", "en")
    page.wait_for_function("document.querySelector('#log h3')?.textContent === 'What happened'")
    assert page.evaluate("document.documentElement.lang") == "en"


def test_a_registered_players_switch_is_saved_as_their_setting(page, server):
    """The server prefers a registered player's setting to Accept-Language: a switch saves it."""
    page.wait_for_selector("#player-name")
    register(page, "Ann")  # in this English page: registered with "en"
    token = json.loads(page.evaluate("localStorage.getItem('tavern.player')"))["token"]

    def language(asked: str) -> str:  # the language of the player's texts, whatever a call asks for
        answer = httpx.get(
            f"{server}/v1/games/taverna/content", headers={"Authorization": f"Bearer {token}", "Accept-Language": asked}
        )
        return answer.headers["content-language"]

    assert language("fr") == "en"
    page.select_option("#language", "fr")
    page.wait_for_function("document.querySelector('#host h2')?.textContent === 'Organiser une partie en ligne'")
    assert language("en") == "fr"
