"""What happened. Card movements are one generic event; deck orders and hand cards are redacted
in views.py."""

from __future__ import annotations

from domain.kernel import Event


class MatchSetUp(Event, frozen=True):
    decks: dict[str, tuple[str, ...]]  # shuffled, top first
    server: int


class Dealt(Event, frozen=True):
    """Cards from the top of a deck to a seat's hand or draft packet."""

    seat: int
    deck: str
    cards: tuple[str, ...]
    count: int
    to: str  # hand | packet


class Reshuffled(Event, frozen=True):
    """A deck ran short: its discard pile, shuffled, goes under it."""

    deck: str
    order: tuple[str, ...]
    count: int


class Picked(Event, frozen=True):
    seat: int
    card: str


class DraftStep(Event, frozen=True):
    passed: bool  # the packets move to the left


class MulliganChosen(Event, frozen=True):
    seat: int
    take: bool


class CardMoved(Event, frozen=True):
    """One card from a zone to a zone: hand, packet, tavern, discard, removed (game box)."""

    card: str
    owner: int
    src: str
    dest_owner: int
    dest: str


class RoundBegan(Event, frozen=True):
    round: int
    server: int


class PhaseBegan(Event, frozen=True):
    phase: str  # draft | mulligan | day | night | deeds | till


class CardPlayed(Event, frozen=True):
    """A Goods purchased, a Staff hired or a Patron played: hand to Tavern."""

    seat: int
    card: str
    paid: int


class SeatDone(Event, frozen=True):
    seat: int


class Offer(Event, frozen=True):
    """An open trade offer from ``by`` to ``to`` (also kept in the state): ``give``, a card from by's
    hand, and/or ``take``, a card in to's Tavern; ``gold`` is paid by the seat receiving the card
    (0 when a card is swapped for a card)."""

    id: int
    by: int
    to: int
    give: str
    take: str
    gold: int


class OfferAnswered(Event, frozen=True):
    offer: int
    accepted: bool


class GoldChanged(Event, frozen=True):
    seat: int
    amount: int


class IncomeCounted(Event, frozen=True):
    gains: tuple[int, ...]


class TurnBegan(Event, frozen=True):
    seat: int


class DeedDeclared(Event, frozen=True):
    """A Dirty Deeds card played (it goes to the discard) or a Patron's ability used; waiting for the
    target's answer when it targets another seat."""

    seat: int
    card: str
    ability: bool
    target: int
    target_card: str
    own_card: str


class DeedAnswered(Event, frozen=True):
    seat: int
    cancel: str


class TieRound(Event, frozen=True):
    """Tied for most Gold at the end: everyone plays one more round."""

    count: int


class MatchEnded(Event, frozen=True):
    winners: tuple[int, ...]
    reason: str


TMEvent = (
    MatchSetUp | Dealt | Reshuffled | Picked | DraftStep | MulliganChosen | CardMoved | RoundBegan | PhaseBegan
    | CardPlayed | SeatDone | Offer | OfferAnswered | GoldChanged | IncomeCounted | TurnBegan | DeedDeclared
    | DeedAnswered | TieRound | MatchEnded
)
