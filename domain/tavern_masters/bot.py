"""The greedy bot: scores each legal command by its expected worth in Gold, and takes the best.

A Goods or Staff card is worth the share of the Patron deck it lets into the Tavern (its Wants),
times the Patrons dealt each Night and the rounds left, plus its own income, less its price. It sees
only its view and its legal commands (the card list itself is public knowledge).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from domain.kernel import Command, Rng
from domain.tavern_masters import commands as cmd
from domain.tavern_masters.content import card, deck_cards
from domain.tavern_masters.effects import TARGETS, card_income, stays, till_income, wants_met

PATRONS_A_NIGHT = 3
DEED_WORTH = {
    "steal_gold": 3, "gain_gold": 2, "steal_patron": 3, "discard_patron": 2, "discard_patrons": 2,
    "steal_card": 2, "remove_card": 1, "discard_card": 1, "steal_hand": 1, "discard_hand": 1, "draw_tavern": 1,
    "switch": 0,
}


@cache
def patron_sample(dirty_deeds: bool) -> tuple[str, ...]:
    """One instance of each Patron kind, weighted by copies, to measure how many a Tavern can seat."""
    return deck_cards("patron", dirty_deeds)


def coverage(tavern: tuple[str, ...], dirty_deeds: bool) -> float:
    """The share of the Patron deck this Tavern could seat."""
    sample = patron_sample(dirty_deeds)
    return sum(wants_met(p, tavern) for p in sample) / len(sample)


def rounds_left(view: Any) -> int:
    if view.mode == "competitive":
        return 4
    return max(0, view.rounds - view.round)


def card_gain(card_id: str, view: Any) -> float:
    """The Gold a Goods or Staff card should bring over the rounds left, before its price: Patrons
    from the deck it lets in, Patrons in hand it lets in, its own income, Patrons it keeps."""
    me = view.players[view.seat]
    tavern = me.tavern
    more = (*tavern, card_id)
    nights = rounds_left(view) + (1 if view.phase in ("day", "draft", "mulligan") else 0)
    seats = coverage(more, view.dirty_deeds) - coverage(tavern, view.dirty_deeds)
    own = card_income(card_id, more)
    waiting = [c for c in view.hand if card(c).kind == "patron" and not wants_met(c, tavern)]
    let_in = sum(wants_met(c, more) for c in waiting) if nights else 0
    patrons = [c for c in (*tavern, *view.hand) if card(c).kind == "patron"]
    kept = sum(1 for c in patrons if not stays(c, (*tavern, c)) and stays(c, (*more, c)))
    return (seats * PATRONS_A_NIGHT + own) * nights + 1.5 * let_in + kept * min(nights, 2)


def hand_worth(card_id: str, view: Any) -> float:
    defn = card(card_id)
    me = view.players[view.seat]
    if defn.kind == "patron":
        return 2.0 + defn.noble if wants_met(card_id, me.tavern) else 0.5
    if defn.kind == "deed":
        aimed = defn.deed is not None and TARGETS[defn.deed.op] != "none"
        return 0.0 if aimed and view.mode != "competitive" else 1.5  # no one to aim at
    return card_gain(card_id, view) - defn.cost


def score(command: Command, view: Any) -> float:
    me = view.players[view.seat]
    match command:
        case cmd.PickCard():
            return hand_worth(command.card, view)
        case cmd.Mulligan():
            return 1.0
        case cmd.PlayCard():
            price = 0 if command.free else card(command.card).cost
            return card_gain(command.card, view) - price + 0.01 * command.free
        case cmd.PlayPatron():
            return 5.0 + card_income(command.card, (*me.tavern, command.card))
        case cmd.PlayDeed():
            if command.target >= 0 and view.mode != "competitive":
                return -1.0  # never harm a team-mate
            worth = DEED_WORTH.get(card(command.card).deed.op, 0)  # type: ignore[union-attr]
            return worth + 0.1 * (view.players[command.target].gold if command.target >= 0 else 0)
        case cmd.AnswerDeed():
            return 1.0 if command.cancel else 0.0
        case cmd.AnswerOffer():
            return answer_worth(command, view)
        case cmd.OfferTrade():
            return team_transfer(command, view)
        case cmd.DiscardCard():
            return -hand_worth(command.card, view)
    return 0.0  # Done, KeepHand


GOAL = 20


def final_golds(view: Any) -> list[int]:
    """Each seat's Gold after this round's Till, counting only what is in the Taverns now."""
    return [p.gold + till_income(p.tavern) for p in view.players]


def team_transfer(command: cmd.OfferTrade, view: Any) -> float:
    """Co-operative play, last Night: a seat sure of 20 Gold buys a card from a team-mate short of 20,
    so that both end with 20 (a trade is the only way Gold moves between seats)."""
    buying = command.take and not command.give
    if view.mode != "cooperative" or view.phase != "night" or view.round < view.rounds or not buying:
        return -5.0
    final = final_golds(view)
    mine, theirs = final[view.seat], final[command.to]
    if theirs >= GOAL or mine - command.gold < GOAL:
        return -5.0
    return 3.0 + min(command.gold, GOAL - theirs) - 0.1 * command.gold


def answer_worth(command: cmd.AnswerOffer, view: Any) -> float:
    """Decline in competitive play; in co-operative play take the Gold a team-mate offers."""
    if not command.accept:
        return 0.0
    offer = next(o for o in view.offers if o.id == command.offer)
    paid = offer.take and not offer.give  # the offer buys a card of mine
    return 1.0 if view.mode == "cooperative" and paid else -1.0


class GreedyBot:
    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        scores = [score(c, view) for c in legal]
        best = max(scores)
        top = [c for c, s in zip(legal, scores, strict=True) if s == best]
        return top[rng.below(len(top))]
