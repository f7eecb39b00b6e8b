"""What happened. Card movements are one generic event; deck orders and hand cards are redacted
in views.py."""

from __future__ import annotations

from typing import Any

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


class OfferOpened(Event, frozen=True):
    """Seat ``by`` began writing trade offer ``id`` to seat ``to``."""

    id: int
    by: int
    to: int


class OfferCardAdded(Event, frozen=True):
    """A card put in offer ``offer`` (from ``by`` to ``to``): ``owner``'s card, in its ``zone`` (hand or
    tavern) when added; given if ``owner`` is ``by``, asked for if it is ``to``."""

    offer: int
    by: int
    to: int
    card: str
    owner: int
    zone: str


class OfferGoldSet(Event, frozen=True):
    """The Gold of offer ``offer``: ``gold`` > 0 its writer pays it, < 0 the other seat does."""

    offer: int
    gold: int


class Offer(Event, frozen=True):
    """Offer ``id`` sent from ``by`` to ``to``, now open for the answer (also kept in the state). Cards
    by whose and where they were when put in: ``by`` gives ``give_hand`` and ``give_tavern``, ``to``
    gives ``take_hand`` and ``take_tavern``; ``gold`` > 0 ``by`` pays it, < 0 ``to`` does. A card
    from a hand shows as "" to the seats outside the trade."""

    id: int
    by: int
    to: int
    give_hand: tuple[str, ...] = ()
    give_tavern: tuple[str, ...] = ()
    take_hand: tuple[str, ...] = ()
    take_tavern: tuple[str, ...] = ()
    gold: int = 0


class OfferWithdrawn(Event, frozen=True):
    offer: int


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
    | CardPlayed | SeatDone | OfferOpened | OfferCardAdded | OfferGoldSet | Offer | OfferWithdrawn | OfferAnswered
    | GoldChanged | IncomeCounted | TurnBegan | DeedDeclared
    | DeedAnswered | TieRound | MatchEnded
)


def offer_from_rules_1(event: dict[str, Any]) -> dict[str, Any]:
    """Rules version 1 offers named one card of each side (``give`` from a hand, ``take`` from a
    Tavern) and ``gold`` paid by whoever received a card and gave none; version 2 lists the cards by
    zone and signs the Gold (> 0: the writer pays)."""
    give, take, gold = event.pop("give"), event.pop("take"), event.pop("gold")
    return {**event, "give_hand": [give] if give else [], "take_tavern": [take] if take else [],
            "gold": gold if take and not give else -gold}
