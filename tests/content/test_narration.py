"""The narrator: every event type of every game has a sentence, and over many random matches no
sentence to a seat names a card that seat may not see (as tests/conformance checks the views)."""

from __future__ import annotations

import re
import typing

import msgspec
import pytest

from domain.bots.random_bot import RandomBot
from domain.games import game_ids, get_game, online_game
from domain.kernel import Table, bot_turn
from domain.kernel.online import SYSTEM_EVENTS, Abandoned, Conceded, SeatTimedOut, StreakEnded, TakenOver, VacationTaken
from projections.content import content_of
from projections.content.mercenaries import card_name
from projections.narration import narrate, sentences
from projections.narration.names import Names
from projections.narration.online import SENTENCES as online_sentences
from tests.conformance.cases import CASES
from tests.conformance.harness import strings_in

MATCHES_PER_CASE = {"tavern-masters": 1}  # its many cases already cover it; 3 random matches for the others
INTERNAL_ID = re.compile(r"\b(?:ht|ta|mc)-[a-z0-9-]+\b|\b[a-z]+(?:-[a-z]+)*-\d+\b")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_event_type_has_a_sentence(game_id):
    game = get_game(game_id)
    union = set(typing.get_args(game.event_type))
    assert union and set(sentences(game_id)) == union


def card_names(game_id: str) -> dict[str, str]:
    """The name a sentence gives each card (a Mercenaries card by rank and suit)."""
    cards = [ident for item in content_of(game_id).items if item.category == "card" for ident in item.ids]
    if game_id == "mercenaries":
        return {ident: card_name(ident) for ident in cards}
    return {ident: Names(game_id).card(ident) for ident in cards}


def check_sentence(text: str, shown_ids: set[str], hidden: set[str], names: dict[str, str], what: str) -> None:
    assert text and (text[0].isupper() or text[0].isdigit()) and text.endswith("."), f"{what}: {text!r}"
    assert not INTERNAL_ID.search(text), f"{what} shows an internal id: {text!r}"
    visible = {names[i] for i in shown_ids if i in names}
    # a name the event itself spells out (Taverna's "spell Bardic Fame" reason) is shown by the event
    visible |= {name for name in set(names.values()) if any(name in s for s in shown_ids)}
    rest = text
    for name in sorted(visible, key=len, reverse=True):  # a visible "Orc or Human customer" is no "Human customer"
        rest = rest.replace(name, "")
    for card in hidden:
        name = names.get(card)
        if name and name not in visible:
            assert not re.search(rf"\b{re.escape(name)}\b", rest), f"{what} names hidden {card} ({name}): {text!r}"


def strings(value) -> set[str]:
    return set(strings_in(msgspec.to_builtins(value)))


def sentences_seen(case, leak: bool = False):
    """Every (sentence, the event as shown, what the seat may not know, who) of random matches;
    ``leak``: narrate the whole event instead of the seat's view of it (the check must catch it)."""
    game = get_game(case.game)
    setup = game.setup(case.seats, case.options)
    for m in range(MATCHES_PER_CASE.get(case.game, 3)):
        table = Table(game, setup, f"narrate-{m}")
        bots = [RandomBot() for _ in range(case.seats)]
        state, seen = game.initial(setup), 0
        while True:
            for event in table.events[seen:]:
                state = game.evolve(state, event)
                for seat in [*range(case.seats), None]:
                    shown = game.event_view(event, seat)
                    text = narrate(game, event, seat, whole=leak)
                    if shown is None and not leak:
                        assert text == ""
                    elif shown is not None:
                        yield text, strings(shown), game.hidden(state, seat), f"{type(event).__name__} to seat {seat}"
            seen = len(table.events)
            if table.finished:
                return
            table.submit(*bot_turn(table, bots))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.game}-{c.seats}-{c.options}")
def test_no_sentence_names_a_hidden_card(case):
    names = card_names(case.game)
    for text, shown, hidden, what in sentences_seen(case):
        check_sentence(text, shown, hidden, names, what)


def test_the_check_catches_a_narrator_that_reads_the_whole_event():
    case = CASES[0]
    names = card_names(case.game)
    caught = 0
    for text, shown, hidden, what in sentences_seen(case, leak=True):
        try:
            check_sentence(text, shown, hidden, names, what)
        except AssertionError:
            caught += 1
    assert caught


def test_online_plays_events_have_sentences_that_name_the_player():
    """Issue 32: "Conceded.", "Taken over." named nobody, and every line said "Player 1"."""
    game = online_game("mercenaries")
    assert set(online_sentences) == set(SYSTEM_EVENTS)
    players = ["Ann", None]  # seat 1: no registered player
    said = {type(event).__name__: narrate(game, event, None, players) for event in (
        Conceded(seat=0), TakenOver(seat=1, reason="left"), TakenOver(seat=0, reason="timeouts"),
        SeatTimedOut(seat=0, streak=2), StreakEnded(seat=1), Abandoned(), VacationTaken(seat=0, day=2))}
    assert said["Conceded"] == "Ann conceded."
    assert said["TakenOver"] == "Ann ran out of time too often: a bot plays the seat from now on."
    assert said["SeatTimedOut"] == "Ann ran out of time: a bot chose the move (2 times in a row)."
    assert said["StreakEnded"] == "Player 2 is back and played the move themselves."
    assert narrate(game, TakenOver(seat=1, reason="left"), 1, players) == (
        "Player 2 left the table: a bot plays the seat from now on.")
    assert narrate(game, Conceded(seat=0), 1, players, language="fr") == "Ann a abandonné la partie."
    assert said["Abandoned"] == "The match was abandoned: nobody played it any more."
    assert said["VacationTaken"] == (
        "Ann ran out of time and took a vacation day: one more day for this move (2 days taken).")
