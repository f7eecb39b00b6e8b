"""The end of a match in categories: games won by each Victory condition."""

from __future__ import annotations

from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.breakdown import breakdown
from tests.mercenaries.build import position


def test_games_won_by_their_victory_condition():
    state = position(best_of=3)
    for event in [ev.GameWon(number=1, winner=1, reason="deck_out"),
                  ev.GameWon(number=2, winner=0, reason="both_fell_roll", tiebreak_rolls=((5, 2),)),
                  ev.GameWon(number=3, winner=1, reason="hp")]:
        state = GAME.evolve(state, event)
        assert breakdown(state) is None  # the match is not won until MatchWon
    state = GAME.evolve(state, ev.MatchWon(winner=1))
    assert {line.category: line.points for line in breakdown(state)} == {
        "hp": (0, 1), "deck_out": (0, 1), "both_fell": (1, 0)}
