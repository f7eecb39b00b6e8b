"""The search bot of Hero's Tavern: determinized Monte Carlo (domain/kernel/search.py) over the
cards a seat cannot see, sampled from its view, with the greedy bot playing on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.heros_tavern.bot import GreedyBot, worth
from domain.heros_tavern.content import BOX, DECK, Tokens
from domain.heros_tavern.state import DRAFT, OVER, PURCHASE, ROUNDS, State
from domain.heros_tavern.views import HtView
from domain.kernel import Game, Rng, Seat
from domain.kernel.search import Search, margin


def sample(seen: HtView, rng: Rng, options: Mapping[str, Any]) -> State:
    """A state this view could come from: the cards it does not show (the other hands and the
    draw pile) dealt at random from those it has not seen, in the counts it shows; played by the
    match's options."""
    seats = len(seen.seats)
    hand = tuple(card.id for card in seen.hand)
    taverns = tuple(tuple(t.card.id for t in s.tavern) for s in seen.seats)
    shown = {*hand, *seen.discard, *(card for tavern in taverns for card in tavern)}
    unseen = rng.shuffle(sorted(set(DECK) - shown))
    hands, picks = [], []
    for s in seen.seats:
        if s.seat == seen.seat:
            hands.append(hand)
            picks.append(seen.my_pick.id if seen.my_pick else None)
            continue
        dealt, unseen = tuple(unseen[: s.hand_size]), unseen[s.hand_size :]
        hands.append(dealt)
        picks.append(rng.choice(dealt) if s.picked and dealt else None)
    awarded = Tokens(BOX, BOX, BOX) - seen.supply if seen.supply is not None else Tokens()
    return State(
        seats=seats, options=dict(options),
        round=seen.round, phase=seen.phase, picks_made=max(seen.pick_number - 1, 0),
        draw=tuple(unseen[: seen.deck_size]), discard=seen.discard, hands=tuple(hands), picks=tuple(picks),
        taverns=taverns,
        purchased=tuple(tuple(t.card.id for t in s.tavern if t.tokens is not None) for s in seen.seats),
        tokens=tuple(s.tokens for s in seen.seats), awarded=awarded,
        finished=tuple(seen.phase == PURCHASE and not s.purchasing for s in seen.seats),
        pads=tuple(s.pad for s in seen.seats), totals=tuple(s.score for s in seen.seats) if seen.winners else (),
        winners=seen.winners,
    )


def scores(state: State) -> list[float]:
    """Each seat's expected final total: its pad, what its tavern scores in the scorings left (with
    the tokens it brings, as the greedy bot counts them) and its unspent tokens."""
    if state.phase == OVER:
        return list(state.totals)
    left = ROUNDS + 1 - state.round + (state.phase == DRAFT)  # this round's scoring is still to come in the draft
    kinds = [Counter(DECK[c].kind for c in tavern) for tavern in state.taverns]
    out = []
    for seat in range(state.seats):
        rivals = [k["entertainment"] for other, k in enumerate(kinds) if other != seat]
        pad = sum(row.total for row in state.pads[seat])
        out.append(pad + left * worth(kinds[seat], rivals) + state.tokens[seat].count)
    return out


def _worth(state: State, seat: Seat) -> float:
    return margin(scores(state), seat)


def search_bot(game: Game, options: Mapping[str, Any]) -> Search:
    return Search(game, sample, _worth, seats=lambda state: state.seats, policy=GreedyBot, options=options,
                  budget=400, horizon=40, caution=0.0)  # the best mean: caution measured weaker here

