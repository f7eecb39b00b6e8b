"""Profiles, the leaderboard and watching, in Chromium: two people play a rated public match; a
stranger watches it from the lobby's list of matches being played (the spectator's table: no
seat's hidden things, no move); once it is over the leaderboard lists both (no stray "null"),
each name opens the player's profile (ratings, the match with its standing and a replay link
that opens the replay), as the names in the match's results do; axe-core finds nothing serious
or critical on the profile and the leaderboard at a desktop's and a phone's widths. Commands with
a yes-or-no field are said in words, in English and French."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import httpx
import msgspec
import pytest

from domain.games import game_ids, get_game
from tests.web.table import host_online, mercenaries_move, register
from tests.web.test_pages_accessible import assert_accessible as assert_accessible_at_both_widths
from tests.web.test_readable import PHONE, assert_accessible


def strings(node) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        return set().union(*map(strings, node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*map(strings, node)) if node else set()
    return set()


def seat_token(page) -> str:
    return parse_qs(urlsplit(page.url).fragment.split("?", 1)[1])["token"][0]


def view(server: str, match_id: str, token: str) -> dict:
    return httpx.get(f"{server}/v1/matches/{match_id}/view", headers={"authorization": f"Bearer {token}"}).json()


def test_watch_a_live_match_then_find_the_players_on_the_leaderboard_and_their_profiles(browser, page, server):
    register(page, "Ottilie")
    host_online(page, "mercenaries", seats=2, clock=0)
    match_id = urlsplit(page.url).fragment.split("/")[2].split("?")[0]
    others = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        ben, dee = (other.new_page() for other in others)
        ben.goto(server + "/")
        register(ben, "Bram")
        ben.locator("li.open-match", has_text="Ottilie").first.locator("button.join").click()
        for seen in (page, ben):
            seen.wait_for_selector("#table[data-status=active]", state="attached")

        # a stranger, not even registered, watches from the lobby
        dee.goto(server + "/")
        live = dee.locator(f"li.live-match[data-match='{match_id}']")
        live.wait_for()
        assert "Ottilie" in live.inner_text() and "Bram" in live.inner_text()
        assert_accessible_at_both_widths(dee)  # the lobby as a stranger sees it: the name form, the live list
        live.locator("a.watch").click()
        dee.wait_for_selector("#table[data-status=active]", state="attached")
        watching = seat_token(dee)
        spectator = view(server, match_id, watching)
        assert spectator["seat"] is None and spectator["legal"] == []
        mover = page if page.locator("#status.your-move").count() else ben
        mercenaries_move(mover)
        dee.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {spectator['version']}")
        assert dee.locator(".actionable, #concede").count() == 0  # nothing to play
        spectator = view(server, match_id, watching)
        hidden = set()
        for seat_page in (page, ben):
            hidden |= strings(view(server, match_id, seat_token(seat_page))["view"]) - strings(spectator["view"])
        shown = set(dee.evaluate("[...document.querySelectorAll('[data-card]')].map((el) => el.dataset.card)"))
        assert hidden and not shown & hidden  # the seats' own cards are there, and never on the spectator's table

        ben.once("dialog", lambda dialog: dialog.accept())
        ben.click("#concede")
        page.wait_for_selector("#table[data-status=finished]", state="attached")
        # the names in the results lead to the players' profiles
        result = page.locator("#result .standings a.profile-link").first
        assert result.inner_text() == "Ottilie — wins: the others conceded"
        assert page.locator("#players a.profile-link").all_inner_texts() == ["Ottilie", "Bram"]
        assert_accessible(page)  # the names as links keep their contrast
        # the match is over: no longer listed as being played (taken off just after its last views are
        # written, so a lobby loaded at once may still list it: loaded again until it does not). Other
        # tests' matches may be listed still: the server is the session's
        ours = dee.locator(f"#live-matches li.live-match[data-match='{match_id}']")
        for _ in range(50):
            dee.goto(server + "/")
            dee.locator("#live-matches li.none, #live-matches li.live-match").first.wait_for()
            if not ours.count():
                break
            dee.wait_for_timeout(200)
        assert ours.count() == 0, "an ended match still listed as being played"
    finally:
        for other in others:
            other.close()

    page.goto(server + "/#/leaderboard/mercenaries")
    page.locator("#leaderboard tbody tr").nth(1).wait_for()
    assert "null" not in page.locator("#app").inner_text()
    assert_accessible(page)
    page.locator("#leaderboard a.player-link", has_text="Ottilie").click()
    page.wait_for_selector("#profile-matches")
    assert page.locator("#profile-name").inner_text() == "Ottilie"
    assert page.locator("#profile-ratings tr[data-game=mercenaries]").count() == 1
    row = page.locator(f"#profile-matches tr.played[data-match='{match_id}']")
    assert "won (1 of 2), by a concession" in row.inner_text() and "Mercenaries" in row.inner_text()
    assert_accessible(page)
    profile = page.url
    row.locator("a.replay-link").click()
    page.wait_for_selector("#replay-table[data-frame]")

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        small = phone.new_page()
        small.goto(profile)
        small.wait_for_selector("#profile-matches")
        assert_accessible(small)
        assert small.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), "the profile scrolls sideways"
        small.goto(server + "/#/leaderboard/mercenaries")
        small.locator("#leaderboard tbody tr").first.wait_for()
        assert_accessible(small)
        small.locator("#leaderboard a.player-link", has_text="Bram").click()
        small.wait_for_selector("#profile-matches")
        assert "2 of 2" in small.locator(f"#profile-matches tr.played[data-match='{match_id}']").inner_text()
    finally:
        phone.close()


def flagged_commands() -> list[dict]:
    """One command of each type of each game that has a yes-or-no field, with the flag set and not."""
    out = []
    for game in game_ids():
        for kind in get_game(game).command_type.__args__:
            flags = [f.name for f in msgspec.structs.fields(kind) if f.type is bool]
            if not flags:
                continue
            base = {"type": kind.__struct_config__.tag}
            base |= {f.name: "" if f.type is str else 0 for f in msgspec.structs.fields(kind) if f.name not in flags
                     and f.required}
            out += [base | dict.fromkeys(flags, value) for value in (True, False)]
    return out


@pytest.mark.parametrize("language", ["en", "fr"])
def test_commands_with_a_yes_or_no_field_are_said_in_words(page, language):
    commands = flagged_commands()
    assert {c["type"] for c in commands} >= {"SetAutoPass", "Pass", "AnswerOffer", "PlayCard"}
    page.wait_for_selector("#create-match")
    labels = page.evaluate("""async ([commands, language]) => {
      const i18n = await import('./i18n.js');
      await i18n.load(language);
      const ui = await import('./ui.js');
      return commands.map((c) => ui.commandLabel(c));
    }""", [commands, language])
    raw = {"true", "false", "yes", "no", "oui", "non"}
    for command, label in zip(commands, labels, strict=True):
        words = set(label.replace("(", " ").replace(")", " ").replace(":", " ").lower().split())
        assert not words & raw and "Set Auto" not in label, (json.dumps(command), label)
    pairs = dict(zip(map(json.dumps, commands), labels, strict=True))
    assert len(set(pairs.values())) == len(pairs), pairs  # the flag set or not: two different moves
