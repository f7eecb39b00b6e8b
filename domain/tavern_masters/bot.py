"""The greedy bot: scores each legal command by its plain worth to its own Gold, and takes the best.

It sees only its view and its legal commands (card definitions are public knowledge).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import Command, Rng
from domain.tavern_masters.commands import (
    AnswerDeed,
    AnswerOffer,
    DiscardCard,
    Done,
    KeepHand,
    Mulligan,
    OfferTrade,
    PickCard,
    PlayCard,
    PlayDeed,
    PlayPatron,
)
from domain.tavern_masters.content import card
from domain.tavern_masters.effects import card_income, wants_met
from domain.tavern_masters.terms import any_matches

DEED_WORTH = {
    "steal_gold": 3, "gain_gold": 2, "steal_patron": 3, "discard_patron": 2, "discard_patrons": 2,
    "steal_card": 2, "remove_card": 1, "discard_card": 1, "steal_hand": 1, "discard_hand": 1, "draw_tavern": 1,
    "switch": 0,
}


def card_worth(card_id: str, view: Any) -> float:
    """How much a card in hand is worth keeping: cheap Drinks and Staff first, then Patrons it can seat."""
    defn = card(card_id)
    me = view.players[view.seat]
    if defn.kind == "patron":
        return 3.0 + defn.noble if wants_met(card_id, me.tavern) else 1.0
    if defn.kind == "deed":
        return 2.0
    worth = 4.0 - 0.5 * defn.cost + sum(e.amount for e in defn.effects) + (defn.goods_type == "Drink") * 2
    patrons = [c for c in view.hand if card(c).kind == "patron"]
    return worth + sum(any_matches((card_id,), card(p).wants) for p in patrons)


def score(command: Command, view: Any) -> float:
    me = view.players[view.seat]
    late = view.mode != "competitive" and view.round >= view.rounds
    match command:
        case PickCard():
            return card_worth(command.card, view)
        case Mulligan():
            return 1.0
        case PlayCard():
            defn = card(command.card)
            if command.free:
                return 10.0
            if late or me.gold - defn.cost < 0:
                return -1.0
            return card_worth(command.card, view) - defn.cost + (any_matches(me.tavern, defn.name) * -2)
        case PlayPatron():
            return 5.0 + card_income(command.card, me.tavern)
        case PlayDeed():
            worth = DEED_WORTH.get(_deed_op(command.card), 0)
            if command.target >= 0 and view.mode != "competitive":
                return -1.0  # never harm a team-mate
            return worth + 0.1 * (view.players[command.target].gold if command.target >= 0 else 0)
        case AnswerDeed():
            return 1.0 if command.cancel else 0.0
        case AnswerOffer():
            return -1.0 if command.accept else 0.0
        case OfferTrade():
            return -5.0
        case DiscardCard():
            return -card_worth(command.card, view)
        case KeepHand() | Done():
            return 0.0
    return -10.0


def _deed_op(card_id: str) -> str:
    deed = card(card_id).deed
    return deed.op if deed else ""


class GreedyBot:
    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        best = max(score(c, view) for c in legal)
        top = [c for c in legal if score(c, view) == best]
        return top[rng.below(len(top))]
