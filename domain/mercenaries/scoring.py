"""The result of a match: the seat that won the majority of its games."""

from __future__ import annotations

from domain.kernel import Result, Standing
from domain.mercenaries.state import State


def result(state: State) -> Result | None:
    if state.match_winner < 0:
        return None
    standings = tuple(
        Standing(seat=seat, rank=1 if seat == state.match_winner else 2, score=wins)
        for seat, wins in enumerate(state.wins)
    )
    games = [{"game": r.number, "winner": r.winner, "reason": r.reason} for r in state.records]
    return Result(winners=(state.match_winner,), standings=standings, details={"games": games})
