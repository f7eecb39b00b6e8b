"""Counting the Till and how the match ends."""

from __future__ import annotations

from domain.kernel import Result, Standing
from domain.tavern_masters.state import State
from domain.tavern_masters.till import till_income

GOAL = 20  # Gold
MAX_TIE_ROUNDS = 3  # ruling: extra rounds on a tie for most Gold, then the tied seats share the win


def incomes(state: State) -> tuple[int, ...]:
    return tuple(till_income(p.tavern) for p in state.players)


def leaders(golds: list[int]) -> tuple[int, ...]:
    top = max(golds)
    return tuple(seat for seat, gold in enumerate(golds) if gold == top)


def competitive_end(state: State) -> tuple[tuple[int, ...], str] | None:
    """Any seat at 20 Gold ends the match, the most Gold winning; a tie for most plays a further round."""
    golds = [p.gold for p in state.players]
    best = leaders(golds)
    if state.tie_rounds == 0 and max(golds) < GOAL:
        if not state.round_cap or state.round < state.round_cap:
            return None
        # a lone seat has nobody to have more Gold than: under 20 it has not won
        return (best if state.seats > 1 else ()), "round_cap"
    if len(best) == 1:
        return best, "most_gold"
    if state.tie_rounds >= MAX_TIE_ROUNDS:
        return best, "shared_after_ties"
    return (), "tie"


def challenge_end(state: State) -> tuple[tuple[int, ...], str] | None:
    """Co-operative: after the chosen rounds everyone wins if every seat has 20 Gold, else all lose.
    Solo: after the chosen rounds, a seat with 20 Gold wins."""
    if state.round < state.rounds:
        return None
    rich = tuple(seat for seat, p in enumerate(state.players) if p.gold >= GOAL)
    if state.mode == "cooperative":
        return (tuple(range(state.seats)), "all_win") if len(rich) == state.seats else ((), "all_lose")
    return rich, "challenge"


def end_of_round(state: State) -> tuple[tuple[int, ...], str] | None:
    """After the Till: (winners, reason), ((), "tie") for an extra round, or None to play on."""
    return competitive_end(state) if state.mode == "competitive" else challenge_end(state)


def result(state: State) -> Result | None:
    if state.winners is None:
        return None
    golds = [p.gold for p in state.players]
    ranks = {gold: 1 + sum(g > gold for g in golds) for gold in golds}
    standings = tuple(Standing(seat=s, rank=ranks[g], score=g) for s, g in enumerate(golds))
    details = {"reason": state.end_reason, "round": state.round}
    return Result(winners=state.winners, standings=standings, details=details)
