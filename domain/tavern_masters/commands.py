"""What a seat can send. An empty string means "no card" and -1 "no seat"."""

from __future__ import annotations

from domain.kernel import Command


class PickCard(Command, frozen=True):
    """Opening draft: keep one card of the packet in front of you."""

    card: str


class Mulligan(Command, frozen=True):
    """Discard a starting hand without a Drink costing 2 Gold or less, and draw as many again."""


class KeepHand(Command, frozen=True):
    """Decline the mulligan."""


class PlayCard(Command, frozen=True):
    """Day: purchase a Goods or hire a Staff from your hand; ``free`` hires by the Staff's condition."""

    card: str
    free: bool = False


class PlayPatron(Command, frozen=True):
    """Night: play a Patron whose Want is in your Tavern."""

    card: str


class OpenOffer(Command, frozen=True):
    """Begin writing a trade offer to seat ``to`` (one open offer per ordered pair of seats)."""

    to: int


class AddToOffer(Command, frozen=True):
    """Put a Goods or Staff card in the offer you are writing: one of yours (from your hand or your
    Tavern) that you give, or one of theirs that you ask for (in their Tavern, or in their hand once
    they have shown it to you in an offer)."""

    offer: int
    card: str


class SetOfferGold(Command, frozen=True):
    """The Gold of the offer you are writing, once: ``gold`` > 0 you pay it, < 0 they pay you."""

    offer: int
    gold: int


class MakeOffer(Command, frozen=True):
    """Send the offer you have written: the other seat may now accept or decline it."""

    offer: int


class WithdrawOffer(Command, frozen=True):
    """Take back an offer of yours, written or sent, before it is answered."""

    offer: int


class AnswerOffer(Command, frozen=True):
    offer: int
    accept: bool


class PlayDeed(Command, frozen=True):
    """Dirty Deeds phase: play a Dirty Deeds card (``card`` in hand) or a Patron's Dirty Deed ability
    (``card`` in your Tavern). ``target`` is a seat or -1, ``target_card`` a card of theirs or "",
    ``own_card`` the card of yours a "switch with" deed gives, or ""."""

    card: str
    target: int = -1
    target_card: str = ""
    own_card: str = ""


class AnswerDeed(Command, frozen=True):
    """The target of a deed: cancel it with ``cancel`` (a cancelling card in hand) or "" to let it be."""

    cancel: str = ""


class DiscardCard(Command, frozen=True):
    """End of round: discard down to the hand limit, one card at a time."""

    card: str


class Done(Command, frozen=True):
    """Finished with this phase (Day, Night) or with your Dirty Deeds turn."""


TMCommand = (
    PickCard | Mulligan | KeepHand | PlayCard | PlayPatron | OpenOffer | AddToOffer | SetOfferGold | MakeOffer
    | WithdrawOffer | AnswerOffer | PlayDeed | AnswerDeed | DiscardCard | Done
)
