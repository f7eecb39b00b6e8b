"""Tavern Masters events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.tavern_masters import events as ev
from projections.i18n import N_
from projections.narration.names import Names, listing

ZONES = {
    "hand": N_("hand"),
    "packet": N_("draft packet"),
    "tavern": N_("Tavern"),
    "discard": N_("discard pile"),
    "removed": N_("box (out of the game)"),
}
ENDINGS = {
    "most_gold": N_("most Gold"),
    "round_cap": N_("the last round"),
    "shared_after_ties": N_("a shared win after ties"),
    "all_win": N_("the table won together"),
    "all_lose": N_("the table lost together"),
    "challenge": N_("the challenge"),
    "tie": N_("a tie"),
}


def _zone(n: Names, zone: str) -> str:
    return n._(ZONES[zone]) if zone in ZONES else zone


def _dealt(e: ev.Dealt, n: Names) -> str:
    params = {"seat": n.seat(e.seat), "deck": n.term(e.deck), "zone": _zone(n, e.to)}
    if e.cards:
        return n._("{seat} was dealt {cards} from the {deck} to their {zone}.", cards=n.cards(e.cards), **params)
    return n.n_(
        "{seat} was dealt {count} card from the {deck} to their {zone}.",
        "{seat} was dealt {count} cards from the {deck} to their {zone}.",
        e.count,
        **params,
    )


def _moved(e: ev.CardMoved, n: Names) -> str:
    return n._(
        "{card} went from {owner}'s {src} to {dest_owner}'s {dest}.",
        card=n.card(e.card),
        owner=n.seat(e.owner),
        src=_zone(n, e.src),
        dest_owner=n.seat(e.dest_owner),
        dest=_zone(n, e.dest),
    )


def _offer(e: ev.Offer, n: Names) -> str:
    by, to = n.seat(e.by), n.seat(e.to)
    hand = n._("a card from their hand")
    give = [n.card(c, hand) for c in e.give_hand] + [n.card(c) for c in e.give_tavern]
    take = [n.card(c, hand) for c in e.take_hand] + [n.card(c) for c in e.take_tavern]
    sides = [
        n._("{by} gives {cards}", by=by, cards=listing(n.t, give)) if give else "",
        n._("{to} gives {cards}", to=to, cards=listing(n.t, take)) if take else "",
    ]
    if e.gold > 0:
        sides.append(n._("{gold} Gold from {by}", gold=e.gold, by=by))
    elif e.gold < 0:
        sides.append(n._("{gold} Gold from {to}", gold=-e.gold, to=to))
    return n._("{by} offered {to} a trade: {sides}.", by=by, to=to, sides="; ".join(x for x in sides if x))


def _card_added(e: ev.OfferCardAdded, n: Names) -> str:
    card = n.card(e.card)
    params = {"by": n.seat(e.by), "to": n.seat(e.to), "card": card}
    if e.owner == e.by:
        if e.zone == "hand":
            return n._("{by} put {card} from their hand in the offer to {to}.", **params)
        return n._("{by} put {card} from their Tavern in the offer to {to}.", **params)
    if e.zone == "hand":
        return n._("{by} asked {to} for {card} from their hand.", **params)
    return n._("{by} asked {to} for {card} from their Tavern.", **params)


def _gold_set(e: ev.OfferGoldSet, n: Names) -> str:
    if e.gold > 0:
        return n._("The offer includes {gold} Gold from its writer.", gold=e.gold)
    return n._("The offer asks for {gold} Gold.", gold=-e.gold)


def _income(e: ev.IncomeCounted, n: Names) -> str:
    gains = ", ".join(n._("{seat} +{gold} Gold", seat=n.seat(s), gold=g) for s, g in enumerate(e.gains))
    return n._("The Till: {gains}.", gains=gains)


def _deed(e: ev.DeedDeclared, n: Names) -> str:
    params = {"seat": n.seat(e.seat), "card": n.card(e.card)}
    text = n._("{seat} used the Dirty Deed of {card}", **params) if e.ability else n._("{seat} played {card}", **params)
    if e.target >= 0:
        text += " " + n._("against {target}", target=n.seat(e.target))
    if e.target_card:
        text += " " + n._("(aiming at {card})", card=n.card(e.target_card))
    return text + "."


def _ended(e: ev.MatchEnded, n: Names) -> str:
    if e.reason == "all_lose":
        return n._("The match is over: the table lost together.")
    if e.reason == "all_win":
        return n._("The match is over: the table won together.")
    why = n._(ENDINGS[e.reason]) if e.reason in ENDINGS else e.reason
    return n._("The match is over ({why}): {winners} won.", why=why, winners=n.seats(e.winners))


def _played(e: ev.CardPlayed, n: Names) -> str:
    params = {"seat": n.seat(e.seat), "card": n.card(e.card)}
    if e.paid:
        return n._("{seat} played {card} to their Tavern for {gold} Gold.", gold=e.paid, **params)
    return n._("{seat} played {card} to their Tavern for free.", **params)


def _gold_changed(e: ev.GoldChanged, n: Names) -> str:
    if e.amount >= 0:
        return n._("{seat} gained {gold} Gold.", seat=n.seat(e.seat), gold=e.amount)
    return n._("{seat} lost {gold} Gold.", seat=n.seat(e.seat), gold=-e.amount)


SENTENCES = {
    ev.MatchSetUp: lambda e, n: n._("The decks were shuffled; {server} serves first.", server=n.seat(e.server)),
    ev.Dealt: _dealt,
    ev.Reshuffled: lambda e, n: n.n_(
        "The {deck} ran short: {count} discarded card reshuffled.",
        "The {deck} ran short: {count} discarded cards reshuffled.",
        e.count,
        deck=n.term(e.deck),
    ),
    ev.Picked: lambda e, n: n._("{seat} drafted {card}.", seat=n.seat(e.seat), card=n.card(e.card)),
    ev.DraftStep: lambda e, n: n._("The draft packets passed to the left.") if e.passed else n._("The draft went on."),
    ev.MulliganChosen: lambda e, n: (
        n._("{seat} took a mulligan.", seat=n.seat(e.seat))
        if e.take
        else n._("{seat} kept their hand.", seat=n.seat(e.seat))
    ),
    ev.CardMoved: _moved,
    ev.RoundBegan: lambda e, n: n._("Round {round} began; {server} serves.", round=e.round, server=n.seat(e.server)),
    ev.PhaseBegan: lambda e, n: n._("{phase} began.", phase=n.term(e.phase)),
    ev.CardPlayed: _played,
    ev.SeatDone: lambda e, n: n._("{seat} is done.", seat=n.seat(e.seat)),
    ev.OfferOpened: lambda e, n: n._("{by} began writing a trade offer to {to}.", by=n.seat(e.by), to=n.seat(e.to)),
    ev.OfferCardAdded: _card_added,
    ev.OfferGoldSet: _gold_set,
    ev.Offer: _offer,
    ev.OfferWithdrawn: lambda e, n: n._("A trade offer was withdrawn."),
    ev.OfferAnswered: lambda e, n: (
        n._("The trade offer was accepted.") if e.accepted else n._("The trade offer was refused.")
    ),
    ev.GoldChanged: _gold_changed,
    ev.IncomeCounted: _income,
    ev.TurnBegan: lambda e, n: n._("{seat}'s Dirty Deeds turn.", seat=n.seat(e.seat)),
    ev.DeedDeclared: _deed,
    ev.DeedAnswered: lambda e, n: (
        n._("{seat} cancelled the deed with {card}.", seat=n.seat(e.seat), card=n.card(e.cancel))
        if e.cancel
        else n._("{seat} let the deed happen.", seat=n.seat(e.seat))
    ),
    ev.TieRound: lambda e, n: n._("Tied for most Gold: extra round {count}.", count=e.count),
    ev.MatchEnded: _ended,
}
