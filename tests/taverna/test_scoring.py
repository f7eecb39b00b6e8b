"""The end: the exchange, the royal scoring (order, tie-breaks, each once), the people scoring, the tie rule."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.bots.random_bot import RandomBot
from domain.kernel import play
from domain.taverna import events as ev
from domain.taverna.commands import ChooseScoring, EndTurn, Pass
from domain.taverna.scoring import bracket, royal_points
from domain.taverna.tracks import order_by_track
from tests.taverna.helpers import GAME, SPELL_IDS, act, at_step, game_state, player, refused, tavern

KARL, FRED, ETIENNE = 0, 1, 2


@pytest.mark.parametrize(
    ("option", "counts", "points"),
    [
        ("coins", (0, 5, 6, 8, 9, 12, 15, 18), (3, 3, 6, 6, 9, 12, 15, 15)),
        ("queen", (0, 1, 2, 5), (3, 3, 6, 15)),
        ("archduke", (1, 2, 3, 4, 5), (3, 6, 9, 12, 15)),
        ("archmage", (0, 1, 2, 3, 4, 5), (3, 3, 6, 9, 12, 15)),
    ],
)
def test_brackets(option, counts, points):
    assert tuple(bracket(option, n) for n in counts) == points


def example_end() -> object:
    """The rulebook's end-game example, one command before the end (Etienne ends the last turn).
    Track order: elf, dwarf, orc, human."""
    state = game_state(3)
    state = player(state, KARL, coins=4, cast=tuple(SPELL_IDS[0:3]), hand=tuple(SPELL_IDS[3:5]),
                   used_favours=("ta-rf-01", "ta-rf-02"), levels=(4, 0, 1, 7))
    state = player(state, FRED, coins=10, cast=tuple(SPELL_IDS[5:9]), favours=("ta-rf-03",),
                   used_favours=("ta-rf-04", "ta-rf-05"), privileges=1, levels=(2, 4, 4, 2))
    state = player(state, ETIENNE, coins=18, cast=tuple(SPELL_IDS[9:12]), used_favours=("ta-rf-06",),
                   levels=(2, 4, 3, 5))
    state = replace(state, spell_deck=tuple(SPELL_IDS[12:]))
    for t, deeds in {"t1": (KARL, FRED, -1), "t2": (KARL, FRED, ETIENNE), "t3": (KARL, FRED, ETIENNE),
                     "t4": (FRED, ETIENNE, -1), "t5": (ETIENNE, -1, -1)}.items():
        state = tavern(state, t, deeds=deeds)
    state = replace(state, turns_played=17)
    return at_step(state, "act", seat=ETIENNE, tavern="t5")


def end_example() -> tuple[object, list]:
    """Etienne ends the last turn; Fred, holding an unused royal favour, may still use it (the turn's
    ending window) and passes."""
    state, ended = act(example_end(), ETIENNE, EndTurn())
    assert state.phase == "turns" and state.turn.window == "ending" and state.turn.window_seats == (FRED,)
    assert GAME.legal(state, ETIENNE) == [] and Pass() in GAME.legal(state, FRED)
    state, events = act(state, FRED, Pass())
    return state, ended + events


def test_the_rulebooks_end_game_example():
    state, events = end_example()
    assert ev.Exchanged(seat=KARL, spells=2, privileges=0) in events
    assert state.players[KARL].coins == 6 and state.players[FRED].points == 1
    assert state.phase == "royal" and state.royal_order == (KARL, FRED, ETIENNE)
    assert GAME.legal(state, FRED) == [] and len(GAME.legal(state, KARL)) == 5
    state, _ = act(state, KARL, ChooseScoring(option="king"))
    assert state.players[KARL].levels == (5, 1, 2, 7)  # human already at the top; no bonus (orc 2)
    assert state.players[KARL].points == 5
    assert refused(state, FRED, ChooseScoring(option="king")) == "scoring_taken"
    assert royal_points(state, FRED, "archmage") == 12 and royal_points(state, ETIENNE, "coins") == 15
    state, _ = act(state, FRED, ChooseScoring(option="coins"))  # taken to block Etienne
    assert refused(state, ETIENNE, ChooseScoring(option="coins")) == "scoring_taken"
    assert ChooseScoring(option="coins") not in GAME.legal(state, ETIENNE)
    state, events = act(state, ETIENNE, ChooseScoring(option="archduke"))
    assert ev.PeopleScored(seat=KARL, points=(4, -1, 0, 10)) in events
    assert ev.PeopleScored(seat=FRED, points=(0, 2, 2, 0)) in events
    assert ev.PeopleScored(seat=ETIENNE, points=(0, 2, 1, 4)) in events
    assert state.scores == (18, 14, 19) and state.winners == (ETIENNE,)
    result = GAME.result(state)
    assert result.winners == (ETIENNE,) and [s.rank for s in result.standings] == [2, 3, 1]
    assert all(GAME.legal(state, s) == [] for s in range(3))
    assert refused(state, KARL, ChooseScoring(option="queen")) == "match_over"


def test_royal_order_breaks_ties_on_the_next_tracks_to_the_right():
    state = example_end()
    assert order_by_track(state, "elf", [0, 1, 2]) == [KARL, FRED, ETIENNE]
    tied_on_orcs = player(state, FRED, levels=(2, 4, 3, 2))  # now the human track decides
    assert order_by_track(tied_on_orcs, "elf", [0, 1, 2]) == [KARL, ETIENNE, FRED]


def test_two_seats_choose_twice_king_track_then_queen_track():
    state = replace(game_state(2), king="elf", queen="orc", turns_played=15)
    state = player(state, 0, levels=(1, 0, 3, 0))
    state = player(state, 1, levels=(2, 0, 1, 0))
    state = tavern(state, "t1", deeds=(0, 1, -1))
    state, _ = act(at_step(state, "act", seat=1, tavern="t1"), 1, EndTurn())
    assert state.royal_order == (1, 0)
    for seat, option in [(1, "king"), (0, "coins"), (0, "archmage"), (1, "queen")]:
        assert refused(state, 1 - seat, ChooseScoring(option=option)) == "not_your_turn"
        state, _ = act(state, seat, ChooseScoring(option=option))
    assert state.phase == "over" and state.players[0].scorings == ("coins", "archmage")
    assert state.royal_taken == ("king", "coins", "archmage", "queen")


def test_two_seats_order_the_queens_round_after_the_kings_plus_one():
    """Seat 0 leads the Queen's (orc) track until seat 1 takes the King: +1 on every track ties the orcs,
    and the next track to the right (humans) now puts seat 1 first."""
    state = replace(game_state(2), king="elf", queen="orc", turns_played=15)
    state = player(state, 0, levels=(1, 0, 2, 0))
    state = player(state, 1, levels=(2, 0, 1, 0))
    state, _ = act(at_step(state, "act", seat=1, tavern="t1"), 1, EndTurn())
    state, _ = act(state, 1, ChooseScoring(option="king"))
    state, events = act(state, 0, ChooseScoring(option="coins"))
    assert events[-1] == ev.RoyalOrder(order=(1, 0)) and state.royal_order == (1, 0)


def test_a_tie_is_a_shared_win():
    state = replace(game_state(3), turns_played=17)
    state = tavern(state, "t1", deeds=(0, 1, 2))
    state, _ = act(at_step(state, "act", seat=2, tavern="t1"), 2, EndTurn())
    for option in ("queen", "archmage", "archduke"):  # 3 points each, all at the bottom of every track
        state, _ = act(state, state.royal_order[0], ChooseScoring(option=option))
    assert state.scores == (3 - 12, 3 - 12, 3 - 12) and state.winners == (0, 1, 2)
    assert [s.rank for s in GAME.result(state).standings] == [1, 1, 1]


def test_scoring_errors():
    state, _ = end_example()
    assert refused(state, KARL, ChooseScoring(option="zz")) == "no_such_scoring"
    assert refused(state, FRED, ChooseScoring(option="king")) == "not_your_turn"
    assert refused(game_state(), 0, ChooseScoring(option="king")) == "wrong_phase"


@pytest.mark.parametrize(("seats", "each"), [(2, 8), (3, 6), (4, 6), (5, 6)])
def test_turn_counts(seats, each):
    table = play(GAME, GAME.setup(seats, {}), f"turns-{seats}", [RandomBot() for _ in range(seats)])
    ended = [e.seat for e in table.events if isinstance(e, ev.TurnEnded)]
    assert len(ended) == seats * each and ended == [i % seats for i in range(seats * each)]
    assert all(len(p.customers) == each for p in table.state.players)
    assert GAME.result(table.state) is not None
