"""The greedy bot: scores each legal command by its expected worth in Gold, and takes the best.

A Goods or Staff card is worth the share of the Patron deck it lets into the Tavern (its Wants),
times the Patrons dealt each Night and the rounds left, plus its own income, less its price. It sees
only its view and its legal commands (the card list itself is public knowledge).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from domain.kernel import Command, Rng
from domain.tavern_masters import commands as cmd
from domain.tavern_masters.content import card, deck_cards
from domain.tavern_masters.effects import TARGETS, stays, wants_met
from domain.tavern_masters.till import card_income, till_income

PATRONS_A_NIGHT = 3
DEED_WORTH = {
    "steal_gold": 3, "gain_gold": 2, "steal_patron": 3, "discard_patron": 2, "discard_patrons": 2,
    "steal_card": 2, "remove_card": 1, "discard_card": 1, "steal_hand": 1, "discard_hand": 1, "draw_tavern": 1,
    "switch": 0,
}


@cache
def patron_sample(dirty_deeds: bool, card_list: int) -> tuple[str, ...]:
    """One instance of each Patron kind, weighted by copies, to measure how many a Tavern can seat."""
    return deck_cards("patron", dirty_deeds, card_list)


@cache
def patron_kinds(dirty_deeds: bool, card_list: int) -> tuple[tuple[str, int], ...]:
    """The Patron deck as (an instance of each kind, copies of that kind): what a Patron asks of a
    Tavern and earns there depends on its kind only, so a measure over the deck takes each kind once."""
    kinds: dict[str, list[str]] = {}
    for c in patron_sample(dirty_deeds, card_list):
        kinds.setdefault(card(c).id, []).append(c)
    return tuple((copies[-1], len(copies)) for copies in kinds.values())


@lru_cache(maxsize=4096)  # asked of the same few Taverns for every card of every move a playout makes
def coverage(tavern: tuple[str, ...], dirty_deeds: bool, card_list: int) -> float:
    """The share of the Patron deck this Tavern could seat."""
    seated = sum(copies for p, copies in patron_kinds(dirty_deeds, card_list) if wants_met(p, tavern))
    return seated / len(patron_sample(dirty_deeds, card_list))


def rounds_left(view: Any) -> int:
    if view.mode == "competitive":
        return 4
    return max(0, view.rounds - view.round)


@lru_cache(maxsize=4096)  # as coverage: the same cards in the same few Taverns, over and over
def _own_income(card_id: str, tavern: tuple[str, ...], seated: tuple[str, ...], dirty_deeds: bool,
                card_list: int) -> float:
    """A card's own income at a Till in this Tavern: with the Patrons in hand it can seat, plus what a
    Night's deal is expected to add to it (an income for every Patron grows with the Patrons)."""
    now = card_income(card_id, seated)
    more = sum(copies * (card_income(card_id, (*seated, p)) - now)
               for p, copies in patron_kinds(dirty_deeds, card_list) if wants_met(p, tavern))
    return now + PATRONS_A_NIGHT * more / len(patron_sample(dirty_deeds, card_list))


def card_gain(card_id: str, view: Any) -> float:
    """The Gold a Goods or Staff card should bring over the rounds left, before its price: Patrons
    from the deck it lets in, Patrons in hand it lets in, its own income, Patrons it keeps."""
    nights = rounds_left(view) + (1 if view.phase in ("day", "draft", "mulligan") else 0)
    patrons = tuple(c for c in view.hand if card(c).kind == "patron")
    return _card_gain(card_id, view.players[view.seat].tavern, patrons, nights, view.dirty_deeds, view.card_list)


@lru_cache(maxsize=65536)  # the search's playouts ask it of the same hands and Taverns deal after deal
def _card_gain(card_id: str, tavern: tuple[str, ...], patrons_in_hand: tuple[str, ...], nights: int,
               dirty_deeds: bool, card_list: int) -> float:
    more = (*tavern, card_id)
    seats = coverage(more, dirty_deeds, card_list) - coverage(tavern, dirty_deeds, card_list)
    seated = (*more, *(c for c in patrons_in_hand if wants_met(c, more)))
    own = _own_income(card_id, more, seated, dirty_deeds, card_list)
    waiting = [c for c in patrons_in_hand if not wants_met(c, tavern)]
    let_in = sum(wants_met(c, more) for c in waiting) if nights else 0
    patrons = [c for c in (*tavern, *patrons_in_hand) if card(c).kind == "patron"]
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
        case cmd.OpenOffer() | cmd.SetOfferGold() | cmd.MakeOffer() | cmd.WithdrawOffer() | cmd.AddToOffer():
            return gift_worth(command, view)
        case cmd.DiscardCard():
            return -hand_worth(command.card, view)
    return 0.0  # Done, KeepHand


GOAL = 20


def final_golds(view: Any) -> list[int]:
    """Each seat's Gold after this round's Till, counting only what is in the Taverns now."""
    return [p.gold + till_income(p.tavern) for p in view.players]


def expected_gold(view: Any, seat: int) -> int:
    """A seat's Gold after this round's Till, with the Gold of the open offers (written or sent)."""
    coming = sum(o.gold for o in (*view.drafts, *view.offers) if o.to == seat)
    going = sum(o.gold for o in (*view.drafts, *view.offers) if o.by == seat)
    return final_golds(view)[seat] + coming - going


def gift(view: Any, to: int) -> int:
    """Co-operative play, last Night: the Gold this seat, sure of 20, can give a team-mate short of 20."""
    if view.mode != "cooperative" or view.phase != "night" or view.round < view.rounds:
        return 0
    return max(0, min(expected_gold(view, view.seat) - GOAL, GOAL - expected_gold(view, to)))


def gift_worth(command: Any, view: Any) -> float:
    """Write and send Gold gifts to team-mates who would miss 20 (after playing its own Patrons);
    withdraw an offer that no longer helps; never trade otherwise."""
    if isinstance(command, cmd.OpenOffer):
        return 4.0 if gift(view, command.to) > 0 else -5.0
    draft = next((d for d in view.drafts if d.id == getattr(command, "offer", -1)), None)
    if isinstance(command, cmd.SetOfferGold) and draft is not None:
        return 4.0 if 0 < command.gold == gift(view, draft.to) else -5.0
    if isinstance(command, cmd.MakeOffer) and draft is not None:
        return 4.0 if draft.gold > 0 and not (draft.take_hand or draft.take_tavern) else -5.0
    if isinstance(command, cmd.WithdrawOffer):
        return -1.0 if draft is not None else -2.0  # a draft that no longer helps goes; a sent gift stands
    return -5.0


def answer_worth(command: cmd.AnswerOffer, view: Any) -> float:
    """Decline in competitive play; in co-operative play take what a team-mate gives for nothing."""
    if not command.accept:
        return 0.0
    offer = next(o for o in view.offers if o.id == command.offer)
    gift_to_me = offer.gold >= 0 and not (offer.take_hand or offer.take_tavern)
    return 1.0 if view.mode == "cooperative" and gift_to_me else -1.0


class GreedyBot:
    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        scores = [score(c, view) for c in legal]
        best = max(scores)
        top = [c for c, s in zip(legal, scores, strict=True) if s == best]
        return top[rng.below(len(top))]
