"""The greedy bot: takes the card that raises its tavern's worth most, and buys a card when the
heroes it will bring in the scorings still to come outweigh the tokens it costs (in the last round
counted exactly: one scoring left, a token worth one hero)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.heros_tavern.commands import BuyCard, FinishPurchases, HtCommand, PickCard
from domain.heros_tavern.content import Card
from domain.heros_tavern.scoring import entertainment, resources, score_row
from domain.heros_tavern.state import ROUNDS
from domain.heros_tavern.views import HtView, SeatView
from domain.kernel import Rng

TOKEN_WORTH = 3.5  # a token buys a card that scores again every round left, and is a hero at the end
PARTIAL_WORTH = 3  # a food or ale card still waiting for its set


def worth(kinds: Counter[str], rival_shows: Sequence[int]) -> float:
    """What a tavern is worth in one scoring, counting the sets it is on the way to."""
    shows = entertainment([kinds["entertainment"], *rival_shows])[0]
    row = score_row(kinds, shows)
    unpaired = (kinds["light_ale"] + kinds["dark_ale"]) % 2
    partial = PARTIAL_WORTH * ((kinds["food"] % 3) + unpaired)
    return row.total + TOKEN_WORTH * resources(kinds).count + partial


def final_worth(kinds: Counter[str], rival_shows: Sequence[int]) -> int:
    """What a tavern brings at the last scoring: its row and the tokens it awards, one hero each;
    sets still unfinished then are worth nothing, as their rows say."""
    shows = entertainment([kinds["entertainment"], *rival_shows])[0]
    return score_row(kinds, shows).total + resources(kinds).count


def kinds_in(seat: SeatView, purchased_only: bool) -> Counter[str]:
    return Counter(t.card.kind for t in seat.tavern if t.tokens is not None or not purchased_only)


def gain(kinds: Counter[str], card: Card, rivals: Sequence[int]) -> float:
    more = kinds.copy()
    more[card.kind] += 1
    return worth(more, rivals) - worth(kinds, rivals)


class GreedyBot:
    def choose(self, view: HtView, legal: Sequence[HtCommand], rng: Rng) -> HtCommand:
        me = view.seats[view.seat or 0]
        cards = {c.id: c for c in view.hand} | {t.card.id: t.card for t in me.tavern}  # what legal names
        others = [s for s in view.seats if s.seat != me.seat]
        picks = [c for c in legal if isinstance(c, PickCard)]
        if picks:
            kinds = kinds_in(me, purchased_only=False)
            rivals = [kinds_in(s, purchased_only=False)["entertainment"] for s in others]
            return max(picks, key=lambda c: gain(kinds, cards[c.card], rivals))
        buys = [c for c in legal if isinstance(c, BuyCard)]
        kinds = kinds_in(me, purchased_only=True)
        rivals = [kinds_in(s, purchased_only=True)["entertainment"] for s in others]
        scorings = ROUNDS - view.round + 1  # later rounds and the final scoring
        best, value = None, 0.0
        for command in buys:
            card = cards[command.card]
            if view.round == ROUNDS:  # only the final scoring is left: count it exactly
                more = kinds.copy()
                more[card.kind] += 1
                net: float = final_worth(more, rivals) - final_worth(kinds, rivals) - card.cost.count
            else:
                net = scorings * gain(kinds, card, rivals) - card.cost.count
            if net > value:
                best, value = command, net
        return best or FinishPurchases()
