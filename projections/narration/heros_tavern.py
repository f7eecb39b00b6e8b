"""Hero's Tavern events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.heros_tavern import events as ev
from projections.content.heros_tavern import tokens_text
from projections.narration.names import Names


def _dealt(e: ev.Dealt, n: Names) -> str:
    seen = "; ".join(f"{n.seat(s)} got {n.cards(hand)}" for s, hand in enumerate(e.hands) if hand is not None)
    return f"Round {e.round}: a hand was dealt to each player." + (f" {seen}." if seen else "")


def _scored(e: ev.TavernsScored, n: Names) -> str:
    what = "Final scoring" if e.final else f"Round {e.round} scoring"
    return f"{what}: " + ", ".join(f"{n.seat(s)} {row.total} heroes" for s, row in enumerate(e.rows)) + "."


def _awarded(e: ev.ResourcesAwarded, n: Names) -> str:
    got = [f"{n.seat(s)} {tokens_text(t)}" for s, t in enumerate(e.awards) if t.count]
    return "Resources: " + ("; ".join(got) if got else "nobody earned any tokens") + "."


def _ended(e: ev.MatchEnded, n: Names) -> str:
    totals = ", ".join(f"{n.seat(s)} {t} heroes" for s, t in enumerate(e.totals))
    return f"The match is over ({totals}). {n.seats(e.winners)} won."


SENTENCES = {
    ev.Shuffled: lambda e, n: f"{e.count} cards were shuffled into the draw pile.",
    ev.Dealt: _dealt,
    ev.CardPicked: lambda e, n: f"{n.seat(e.seat)} picked {n.card(e.card)} face down.",
    ev.PicksRevealed: lambda e, n: "Picks revealed: "
    + ", ".join(f"{n.seat(s)} {n.card(c)}" for s, c in enumerate(e.cards)) + "; the hands passed on.",
    ev.TavernsScored: _scored,
    ev.ResourcesAwarded: _awarded,
    ev.CardBought: lambda e, n: f"{n.seat(e.seat)} bought {n.card(e.card)} for {tokens_text(e.cost)}.",
    ev.PurchasesFinished: lambda e, n: f"{n.seat(e.seat)} "
    + ("could afford nothing more." if e.automatic else "finished buying."),
    ev.CardsDiscarded: lambda e, n: f"Round {e.round}: {len(e.cards)} unbought cards were discarded.",
    ev.MatchEnded: _ended,
}
