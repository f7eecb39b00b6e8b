"""What happened. Shuffles and deals name their cards, so the fold never draws."""

from __future__ import annotations

import msgspec

from domain.heros_tavern.content import Tokens
from domain.kernel import Event


class ScoreRow(msgspec.Struct, frozen=True, omit_defaults=True):
    """One line of a scoring pad: heroes per category and staff card kind, and their sum.
    JSON leaves out the categories that scored zero."""

    entertainment: int = 0
    food: int = 0
    ale: int = 0
    lodging: int = 0
    market: int = 0
    jester: int = 0
    cook: int = 0
    bartender: int = 0
    maid: int = 0
    shopkeeper: int = 0
    total: int = 0


class Shuffled(Event, frozen=True):
    """Cards shuffled face down under the draw pile: the box at the start, the discards later."""

    cards: tuple[str, ...] | None  # the new order, top first; None as a seat sees it
    count: int


class Dealt(Event, frozen=True):
    round: int
    hands: tuple[tuple[str, ...] | None, ...]  # per seat; a seat sees only its own


class CardPicked(Event, frozen=True):
    seat: int
    card: str | None  # None to everyone but the picker until the reveal


class PicksRevealed(Event, frozen=True):
    """Every face-down pick turned up, then the hands passed left."""

    cards: tuple[str, ...]  # per seat


class TavernsScored(Event, frozen=True):
    round: int
    final: bool
    rows: tuple[ScoreRow, ...]  # per seat


class ResourcesAwarded(Event, frozen=True):
    round: int
    final: bool
    awards: tuple[Tokens, ...]  # per seat


class CardBought(Event, frozen=True):
    seat: int
    card: str
    cost: Tokens


class PurchasesFinished(Event, frozen=True):
    seat: int
    automatic: bool  # True when the seat could afford nothing more (RULINGS.md)


class CardsDiscarded(Event, frozen=True):
    round: int
    cards: tuple[str, ...]


class MatchEnded(Event, frozen=True):
    totals: tuple[int, ...]
    unspent: tuple[int, ...]
    winners: tuple[int, ...]


HtEvent = (
    Shuffled | Dealt | CardPicked | PicksRevealed | TavernsScored | ResourcesAwarded | CardBought
    | PurchasesFinished | CardsDiscarded | MatchEnded
)
