"""Hero's Tavern events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.heros_tavern import events as ev
from projections.content.heros_tavern import tokens_text
from projections.narration.names import Names


def _dealt(e: ev.Dealt, n: Names) -> str:
    head = n._("Round {round}: a hand was dealt to each player.", round=e.round)
    seen = "; ".join(
        n._("{seat} got {cards}", seat=n.seat(s), cards=n.cards(hand))
        for s, hand in enumerate(e.hands)
        if hand is not None
    )
    return f"{head} {seen}." if seen else head


def _heroes(n: Names, seat: int, count: int) -> str:
    return n.n_("{seat} {count} hero", "{seat} {count} heroes", count, seat=n.seat(seat))


def _scored(e: ev.TavernsScored, n: Names) -> str:
    rows = ", ".join(_heroes(n, s, row.total) for s, row in enumerate(e.rows))
    if e.final:
        return n._("Final scoring: {rows}.", rows=rows)
    return n._("Round {round} scoring: {rows}.", round=e.round, rows=rows)


def _awarded(e: ev.ResourcesAwarded, n: Names) -> str:
    got = [f"{n.seat(s)} {tokens_text(n.t, t)}" for s, t in enumerate(e.awards) if t.count]
    return n._("Resources: {got}.", got="; ".join(got) if got else n._("nobody earned any tokens"))


def _ended(e: ev.MatchEnded, n: Names) -> str:
    totals = ", ".join(_heroes(n, s, t) for s, t in enumerate(e.totals))
    return n._("The match is over ({totals}). {winners} won.", totals=totals, winners=n.seats(e.winners))


SENTENCES = {
    ev.Shuffled: lambda e, n: n._("{count} cards were shuffled into the draw pile.", count=e.count),
    ev.Dealt: _dealt,
    ev.CardPicked: lambda e, n: n._("{seat} picked {card} face down.", seat=n.seat(e.seat), card=n.card(e.card)),
    ev.PicksRevealed: lambda e, n: n._(
        "Picks revealed: {picks}; the hands passed on.",
        picks=", ".join(f"{n.seat(s)} {n.card(c)}" for s, c in enumerate(e.cards)),
    ),
    ev.TavernsScored: _scored,
    ev.ResourcesAwarded: _awarded,
    ev.CardBought: lambda e, n: n._(
        "{seat} bought {card} for {cost}.", seat=n.seat(e.seat), card=n.card(e.card), cost=tokens_text(n.t, e.cost)
    ),
    ev.PurchasesFinished: lambda e, n: (
        n._("{seat} could afford nothing more.", seat=n.seat(e.seat))
        if e.automatic
        else n._("{seat} finished buying.", seat=n.seat(e.seat))
    ),
    ev.CardsDiscarded: lambda e, n: n._(
        "Round {round}: {count} unbought cards were discarded.", round=e.round, count=len(e.cards)
    ),
    ev.MatchEnded: _ended,
}
