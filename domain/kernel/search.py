"""Determinized Monte Carlo search: a bot that looks ahead from what its seat may know.

For each move it could make, the bot asks "how does the match go on if I do this?" many times
over. Each time it first draws a *determinization*: a full state of the match that the seat's view
could have come from (the game's ``sample(view, rng, options)``, which fills the hidden cards with
cards the seat has not seen, in counts the view gives, under the match's options; it never reads
the true state, which the bot does not have). On that state it plays the move, then lets the
game's fast policy bot play every seat on for a bounded number of commands (any seat that may act,
out-of-turn answers included), and scores where that leads with the game's ``worth(state, seat)``
(for most games the seat's expected final score less its best rival's, ``margin``; exact once the
match is over). All moves are tried on the same determinizations with the same random streams, so
that they are compared on the same deals; the ``lead`` bot's move (the policy's, unless the game
names a stronger bot) is played unless another beats it on those deals by more than the noise.

The work per move is capped by a count of simulated commands, not by a clock: the same view,
legal list and seed always give the same move, which the service's audit relies on (a timed-out
seat's move is decided inside the rules and decided again by the auditor). Each game sizes its
cap from measurements (``tests/bench/bench_search_bot.py``, ``tests/bench/bench_arena.py``) to about
50 ms of one core.

This is flat determinized Monte Carlo (perfect-information Monte Carlo sampling); OpenSpiel's
IS-MCTS grows a tree over the information sets instead, which pays off only with far more
playouts than a move's budget in Python affords.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel.errors import RulesError
from domain.kernel.game import AnyGame, Bot, Command, Seat
from domain.kernel.rng import Rng

# (a seat's view, rng, the match's options) -> a full state that view could come from, under those options
Sample = Callable[[Any, Rng, Mapping[str, Any]], Any]
Worth = Callable[[Any, Seat], float]  # (state, seat) -> what that state is worth to the seat


def margin(scores: Sequence[float], seat: Seat) -> float:
    """The seat's score less the best of its rivals' (its own, alone at the table)."""
    rivals = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - (max(rivals) if rivals else 0.0)


@dataclass(frozen=True, slots=True)
class Search:
    game: AnyGame
    sample: Sample
    worth: Worth
    seats: Callable[[Any], int]  # a state's number of seats
    policy: Callable[[], Bot[Any]]  # the fast bot every seat plays in the playouts
    # the match's options (all filled in): the determinizations are played by the match's own rules
    options: Mapping[str, Any]
    budget: int = 400  # simulated commands per move, over all playouts
    horizon: int = 40  # commands per playout at most, the bot's own move first
    width: int = 6  # moves searched; with more legal moves, those the first estimate ranks best
    caution: float = 1.0  # standard errors by which a move must beat the policy's own to replace it
    # the bot whose move is searched first and kept unless another beats it (a stronger, slower bot
    # than the playouts afford); the policy when None
    lead: Callable[[], Bot[Any]] | None = None

    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        if len(legal) == 1:
            return legal[0]
        seat: Seat = view.seat
        seed = str(rng.below(2**62))  # every stream of this decision comes from the bot's own
        policy = self.policy()
        favourite = (self.lead or self.policy)().choose(view, legal, Rng(seed, 0, "policy"))
        candidates, spent = self._shortlist(view, legal, seat, seed, favourite)
        values: list[list[float]] = [[] for _ in candidates]  # per candidate, per deal
        deal = 0
        while spent < self.budget:
            state = self.sample(view, Rng(seed, deal, "sample"), self.options)
            for index, move in enumerate(candidates):
                value, steps = self._playout(state, seat, move, Rng(seed, deal, "playout"), policy)
                values[index].append(value)
                spent += steps
            deal += 1
        return candidates[_best(values, self.caution)]

    def _shortlist(
        self, view: Any, legal: Sequence[Command], seat: Seat, seed: str, favourite: Command
    ) -> tuple[list[Command], int]:
        """The policy's own move first, then every other legal move, or with too many, the best by
        one step's estimate (a step each, a quarter of the budget at most)."""
        others = [move for move in legal if move != favourite]
        if len(others) >= self.width:
            if len(others) > self.budget // 4:  # a long list (trades, say): a random part of it, within the budget
                others = Rng(seed, 0, "shortlist").shuffle(others)[: self.budget // 4]
            state = self.sample(view, Rng(seed, 0, "sample"), self.options)
            scored = []
            for index, move in enumerate(others):
                after = self._apply(state, move, seat, Rng(seed, 0, "playout"))
                scored.append((after is not None, self.worth(after, seat) if after is not None else 0.0, -index))
            ranked = [others[-key[2]] for key in sorted(scored, reverse=True)][: self.width - 1]
            return [favourite, *ranked], len(others)
        return [favourite, *others], 0

    def _apply(self, state: Any, move: Command, seat: Seat, rng: Rng) -> Any:
        """The state after ``move``, or None if this determinization's rules refuse it."""
        try:
            events = self.game.decide(state, move, seat, rng)
        except RulesError:  # a move legal in the true state may be refused on a sampled one
            return None
        for event in events:
            state = self.game.evolve(state, event)
        return state

    def _playout(self, state: Any, seat: Seat, move: Command, rng: Rng, policy: Bot[Any]) -> tuple[float, int]:
        """Play ``move`` then the policy for every seat; the seat's margin where that ends, and the
        commands it took."""
        game = self.game
        state = self._apply(state, move, seat, rng)
        if state is None:
            return float("-inf"), 1
        steps = 1
        seats = list(range(self.seats(state)))
        while steps < self.horizon and game.result(state) is None:
            # a seat that may act, each alike: the first in a random order (fewer legal lists than all seats')
            actor, moves = next(((s, moves) for s in rng.shuffle(seats) if (moves := game.legal(state, s))), (-1, []))
            if not moves:
                break
            choice = policy.choose(game.view(state, actor), moves, rng)
            after = self._apply(state, choice, actor, rng)
            steps += 1
            if after is None:
                break
            state = after
        return self.worth(state, seat), steps


def _best(values: list[list[float]], caution: float) -> int:
    """The candidate to play: the policy's own (the first) unless another beats it on the same deals
    by more than ``caution`` standard errors of that difference, so that the noise of a few
    playouts does not replace a sound move; then the one that beats it by most."""
    best, lead = 0, 0.0
    for index in range(1, len(values)):
        diffs = [mine - theirs for mine, theirs in zip(values[index], values[0], strict=True)
                 if math.isfinite(mine) and math.isfinite(theirs)]
        if len(diffs) < 1 + (caution > 0) or not all(math.isfinite(v) for v in values[index]):
            continue  # refused on some deal, or too few deals to tell
        mean = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if caution > 0 else 0.0
        if mean > caution * error and mean > lead:
            best, lead = index, mean
    return best
