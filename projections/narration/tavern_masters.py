"""Tavern Masters events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.tavern_masters import events as ev
from projections.narration.names import Names, amount, listing

ZONES = {"hand": "hand", "packet": "draft packet", "tavern": "Tavern", "discard": "discard pile",
         "removed": "box (out of the game)"}
ENDINGS = {"most_gold": "most Gold", "round_cap": "the last round", "shared_after_ties": "a shared win after ties",
           "all_win": "the table won together", "all_lose": "the table lost together", "challenge": "the challenge",
           "tie": "a tie"}


def _gold(count: int) -> str:
    return f"{count} Gold"


def _dealt(e: ev.Dealt, n: Names) -> str:
    what = n.cards(e.cards) if e.cards else amount(e.count, "card")
    return f"{n.seat(e.seat)} was dealt {what} from the {n.term(e.deck)} to their {ZONES.get(e.to, e.to)}."


def _moved(e: ev.CardMoved, n: Names) -> str:
    src = f"{n.seat(e.owner)}'s {ZONES.get(e.src, e.src)}"
    dest = f"{n.seat(e.dest_owner)}'s {ZONES.get(e.dest, e.dest)}"
    return f"{n.card(e.card)} went from {src} to {dest}."


def _trade_gold(gold: int, by: str, to: str) -> str:
    return f"{_gold(gold)} from {by}" if gold > 0 else f"{_gold(-gold)} from {to}" if gold < 0 else ""


def _offer(e: ev.Offer, n: Names) -> str:
    by, to = n.seat(e.by), n.seat(e.to)
    hand = "a card from their hand"
    give = [n.card(c, hand) for c in e.give_hand] + [n.card(c) for c in e.give_tavern]
    take = [n.card(c, hand) for c in e.take_hand] + [n.card(c) for c in e.take_tavern]
    gold = _trade_gold(e.gold, by, to)
    sides = [f"{by} gives {listing(give)}" if give else "", f"{to} gives {listing(take)}" if take else "", gold]
    return f"{by} offered {to} a trade: " + "; ".join(x for x in sides if x) + "."


def _card_added(e: ev.OfferCardAdded, n: Names) -> str:
    whose = "their hand" if e.zone == "hand" else "their Tavern"
    card = n.card(e.card, "a card")
    if e.owner == e.by:
        return f"{n.seat(e.by)} put {card} from {whose} in the offer to {n.seat(e.to)}."
    return f"{n.seat(e.by)} asked {n.seat(e.to)} for {card} from {whose}."


def _gold_set(e: ev.OfferGoldSet, n: Names) -> str:
    if e.gold > 0:
        return f"The offer includes {_gold(e.gold)} from its writer."
    return f"The offer asks for {_gold(-e.gold)}."


def _income(e: ev.IncomeCounted, n: Names) -> str:
    return "The Till: " + ", ".join(f"{n.seat(s)} +{g} Gold" for s, g in enumerate(e.gains)) + "."


def _deed(e: ev.DeedDeclared, n: Names) -> str:
    how = "used the Dirty Deed of" if e.ability else "played"
    target = f" against {n.seat(e.target)}" if e.target >= 0 else ""
    aim = f" (aiming at {n.card(e.target_card)})" if e.target_card else ""
    return f"{n.seat(e.seat)} {how} {n.card(e.card)}{target}{aim}."


def _ended(e: ev.MatchEnded, n: Names) -> str:
    if e.reason == "all_lose":
        return "The match is over: the table lost together."
    if e.reason == "all_win":
        return "The match is over: the table won together."
    return f"The match is over ({ENDINGS.get(e.reason, e.reason)}): {n.seats(e.winners)} won."


SENTENCES = {
    ev.MatchSetUp: lambda e, n: f"The decks were shuffled; {n.seat(e.server)} serves first.",
    ev.Dealt: _dealt,
    ev.Reshuffled: lambda e, n: f"The {n.term(e.deck)} ran short: {amount(e.count, 'discarded card')} reshuffled.",
    ev.Picked: lambda e, n: f"{n.seat(e.seat)} drafted {n.card(e.card)}.",
    ev.DraftStep: lambda e, n: "The draft packets passed to the left." if e.passed else "The draft went on.",
    ev.MulliganChosen: lambda e, n: f"{n.seat(e.seat)} " + ("took a mulligan." if e.take else "kept their hand."),
    ev.CardMoved: _moved,
    ev.RoundBegan: lambda e, n: f"Round {e.round} began; {n.seat(e.server)} serves.",
    ev.PhaseBegan: lambda e, n: f"{n.term(e.phase)} began.",
    ev.CardPlayed: lambda e, n: f"{n.seat(e.seat)} played {n.card(e.card)} to their Tavern"
    + (f" for {_gold(e.paid)}." if e.paid else " for free."),
    ev.SeatDone: lambda e, n: f"{n.seat(e.seat)} is done.",
    ev.OfferOpened: lambda e, n: f"{n.seat(e.by)} began writing a trade offer to {n.seat(e.to)}.",
    ev.OfferCardAdded: _card_added,
    ev.OfferGoldSet: _gold_set,
    ev.Offer: _offer,
    ev.OfferWithdrawn: lambda e, n: "A trade offer was withdrawn.",
    ev.OfferAnswered: lambda e, n: "The trade offer was " + ("accepted." if e.accepted else "refused."),
    ev.GoldChanged: lambda e, n: f"{n.seat(e.seat)} " + (f"gained {_gold(e.amount)}." if e.amount >= 0
                                                        else f"lost {_gold(-e.amount)}."),
    ev.IncomeCounted: _income,
    ev.TurnBegan: lambda e, n: f"{n.seat(e.seat)}'s Dirty Deeds turn.",
    ev.DeedDeclared: _deed,
    ev.DeedAnswered: lambda e, n: f"{n.seat(e.seat)} " + (f"cancelled the deed with {n.card(e.cancel)}."
                                                         if e.cancel else "let the deed happen."),
    ev.TieRound: lambda e, n: f"Tied for most Gold: extra round {e.count}.",
    ev.MatchEnded: _ended,
}
