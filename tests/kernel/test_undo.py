"""Undo over every game (domain/kernel/undo.py, wired in domain/kernel/online.py), in memory: a random
match of each game in which every command is offered back to its seat at once."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from domain.games import game_ids, get_game, make_bot, online_game
from domain.kernel import RulesError, Table
from domain.kernel.online import Concede, Conceded
from domain.kernel.undo import TRAIL, Undo, Undone, undo_for

SEATS = {"heros-tavern": 3, "tavern-masters": 2, "taverna": 2, "mercenaries": 2}


def position(state: Any) -> Any:
    """The match's state without the fold's trail of past states (which an undo empties)."""
    return msgspec.structs.replace(state, trail=())


def refused(t: Table, seat: int, command: Any) -> str:
    before, version = t.state, t.version
    with pytest.raises(RulesError) as refusal:
        t.submit(seat, command)
    assert t.state is before and t.version == version  # nothing appended
    return refusal.value.code


@pytest.mark.parametrize("game_id", game_ids())
def test_each_command_is_taken_back_exactly_where_its_game_allows(game_id):
    game = online_game(game_id)
    t = Table(game, game.setup(SEATS[game_id]), f"undo-{game_id}")
    bots = [make_bot(get_game(game_id), "random", t.setup.options) for _ in range(SEATS[game_id])]
    taken_back: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    for _ in range(400):
        if t.finished:
            break
        seat = t.actors()[0]
        command = bots[seat].choose(game.view(t.state, seat), game.legal(t.state, seat), t.rng(f"bot:{seat}"))
        before = t.state
        events = t.submit(seat, command)
        try:
            assert t.submit(seat, Undo(events=len(events))) == [Undone(seat=seat, events=len(events))]
        except RulesError as refusal:
            assert refusal.code in ("undo_not_allowed", "match_finished")
            kept[type(command).__name__] += 1
            continue
        assert position(t.state) == position(before) and game.view(t.state, seat) == game.view(before, seat)
        assert game.legal(t.state, seat) == game.legal(before, seat)
        assert refused(t, seat, Undo(events=1)) == "undo_not_allowed"  # an undo is not taken back
        again = t.submit(seat, command)  # the same move again: nothing was drawn, so the same events
        assert again == events
        taken_back[type(command).__name__] += 1
    assert taken_back and kept, (taken_back, kept)  # each game has moves of both kinds


def test_an_undo_of_more_events_than_the_trail_keeps_or_of_none_is_refused():
    game = online_game("taverna")
    t = Table(game, game.setup(2), "s")
    assert refused(t, 0, Undo(events=TRAIL + 1)) == "undo_not_allowed"
    assert refused(t, 0, Undo(events=0)) == "undo_not_allowed"



def test_only_the_seat_whose_move_ends_the_log_has_something_to_undo():
    assert undo_for((1, 3), 1) == Undo(events=3)
    for last, seat in (((1, 3), 0), (None, 1)):
        with pytest.raises(RulesError) as refusal:
            undo_for(last, seat)
        assert refusal.value.code == "nothing_to_undo"


def test_conceding_is_not_taken_back():
    game = online_game("taverna")
    t = Table(game, game.setup(3), "s")
    assert t.submit(2, Concede()) == [Conceded(seat=2)]
    assert refused(t, 2, Undo(events=1)) == "undo_not_allowed"
