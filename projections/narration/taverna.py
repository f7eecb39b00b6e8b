"""Taverna events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.taverna import events as ev
from projections.narration.names import Names, amount, listing

MOMENTS = {"placement": "a customer's placement", "dignitary": "a dignitary's activation"}


def _tavern(n: Names, tavern: str) -> str:
    """A tavern's name (both board sides name a tavern id alike)."""
    return n.card(tavern)


def _gained(e: ev.Gained, n: Names) -> str:
    parts = [f"{'+' if v > 0 else ''}{v} {word}" for v, word in
             ((e.coins, "coins"), (e.points, "points"), (e.privileges, "privileges")) if v]
    return f"{n.seat(e.seat)}: {', '.join(parts) or 'nothing'} ({e.reason})."


def _placed(e: ev.CustomerPlaced, n: Names) -> str:
    text = f"{n.seat(e.seat)} seated {n.term(e.people)} at {_tavern(n, e.tavern)}, table {e.table + 1}"
    if e.replaced:
        text += f", sending away the {n.term(e.replaced)} there"
    return text + (" (Influence)." if e.influence else ".")


def _deed(e: ev.DeedBought, n: Names) -> str:
    text = (f"{n.seat(e.seat)} bought a deed of {_tavern(n, e.tavern)} for {e.price} coins "
            f"({amount(e.points, 'point')})")
    if e.previous >= 0:
        text += f"; {n.seat(e.previous)} got {e.refund} coins back"
    return text + "."


def _activated(e: ev.DignitaryActivated, n: Names) -> str:
    how = "by discarding privileges" if e.via == "privileges" else "from the tavern"
    cost = f" for {e.cost} coins" if e.cost else ""
    return f"{n.seat(e.seat)} activated the {n.card(e.dignitary)} {how}{cost}, moving it to {_tavern(n, e.tavern)}."


def _responders(e: ev.Responders, n: Names) -> str:
    if not e.seats:
        return "No more instant spells: play goes on."
    return f"{n.seats(e.seats)} may answer {MOMENTS.get(e.moment, e.moment)} with an instant spell."


WINDOWS = {"picked": "the card just picked", "placed": "the customer just placed", "ending": "the turn's end"}


def _favour_window(e: ev.FavourWindow, n: Names) -> str:
    if not e.seats:
        return "No more royal favours from the other seats: play goes on."
    return f"{n.seats(e.seats)} may use royal favours before {WINDOWS.get(e.moment, e.moment)}."


SENTENCES = {
    ev.Shuffled: lambda e, n: "The spells, customers and royal favours were shuffled.",
    ev.DignitariesPlaced: lambda e, n: "Dignitaries placed: "
    + ", ".join(f"{n.card(d)} at {_tavern(n, t)}" for d, t in e.places.items()) + ".",
    ev.FavoursRevealed: lambda e, n: f"Royal favours revealed at the castle: {n.cards(e.favours)}.",
    ev.CustomersRevealed: lambda e, n: f"New customers available: {n.cards(e.cards)}.",
    ev.SpellDrawn: lambda e, n: f"{n.seat(e.seat)} drew {n.card(e.card, 'a spell')}.",
    ev.CurseDrawn: lambda e, n: f"{n.seat(e.seat)} drew the Curse and lost {amount(e.coins, 'coin')}.",
    ev.PeopleChosen: lambda e, n: f"The {n.term(e.role)}'s people: {n.term(e.people)}"
    + (f" (chosen by {n.seat(e.seat)})." if e.seat >= 0 else "."),
    ev.DeedRoundsBegan: lambda e, n: f"Deed rounds: {n.seats(e.order)} in that order, then back.",
    ev.DeedBought: _deed,
    ev.DeedPassed: lambda e, n: f"{n.seat(e.seat)} could buy no deed and passed.",
    ev.CustomerPicked: lambda e, n: f"{n.seat(e.seat)} picked the {n.card(e.card)} card and took "
    f"{'an' if n.term(e.people)[:1] in 'AEIOU' else 'a'} {n.term(e.people)} tile.",
    ev.CardChanged: lambda e, n: f"{n.seat(e.seat)} used {n.card(e.favour)}: the card now shows "
    f"{listing([n.term(g) for g in e.guilds])} and {n.term(e.people)}.",
    ev.CustomerPlaced: _placed,
    ev.CustomerMoved: lambda e, n: f"{n.seat(e.seat)} moved a customer from {_tavern(n, e.tavern)} to "
    f"{_tavern(n, e.to_tavern)}.",
    ev.LevelGained: lambda e, n: f"{n.seat(e.seat)} rose to level {e.level} on the {n.term(e.people)} track.",
    ev.Gained: _gained,
    ev.PrivilegeClaimed: lambda e, n: f"{n.seat(e.seat)} took the privilege token of {_tavern(n, e.tavern)}.",
    ev.GuildPlaced: lambda e, n: f"{n.seat(e.seat)} placed a {n.term(e.guild)} guild token at {_tavern(n, e.tavern)}.",
    ev.FavourTaken: lambda e, n: f"{n.seat(e.seat)} took the royal favour {n.card(e.favour)}.",
    ev.FavourUsed: lambda e, n: f"{n.seat(e.seat)} used the royal favour {n.card(e.favour)}.",
    ev.DignitaryActivated: _activated,
    ev.DignitaryMoved: lambda e, n: f"{n.seat(e.seat)} moved the {n.card(e.dignitary)} to {_tavern(n, e.tavern)}.",
    ev.SpellCast: lambda e, n: f"{n.seat(e.seat)} cast {n.card(e.card)} for {amount(e.cost, 'coin')}.",
    ev.SpellSold: lambda e, n: f"{n.seat(e.seat)} sold {n.card(e.card, 'a spell')} face down.",
    ev.ExtraSpell: lambda e, n: f"{n.seat(e.seat)} may cast a second spell this turn.",
    ev.Responders: _responders,
    ev.FavourWindow: _favour_window,
    ev.WindowPassed: lambda e, n: f"{n.seat(e.seat)} uses no more royal favours now.",
    ev.Answered: lambda e, n: f"{n.seat(e.seat)} answered the prompt: "
    + (f"cast {n.card(e.cast.card)}." if e.cast is not None else "no instant spell."),  # its seat alone reads it
    ev.AutoPassSet: lambda e, n: f"{n.seat(e.seat)} turned always-pass {'on' if e.on else 'off'}.",  # likewise
    ev.TurnEnded: lambda e, n: f"{n.seat(e.seat)} ended their turn.",
    ev.Exchanged: lambda e, n: f"{n.seat(e.seat)} exchanged {amount(e.spells, 'spell')} for coins and "
    f"{amount(e.privileges, 'privilege')} for points.",
    ev.RoyalOrder: lambda e, n: f"Royal scoring order: {n.seats(e.order)}.",
    ev.ScoringChosen: lambda e, n: f"{n.seat(e.seat)} chose the {n.term(e.option)} scoring: "
    f"{amount(e.points, 'point')}.",
    ev.PeopleScored: lambda e, n: f"{n.seat(e.seat)}'s people tracks scored {sum(e.points)} points.",
    ev.GameOver: lambda e, n: "The match is over ("
    + ", ".join(f"{n.seat(s)} {p}" for s, p in enumerate(e.scores)) + f" points). {n.seats(e.winners)} won.",
}
