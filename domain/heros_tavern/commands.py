"""What a seat can send: a face-down pick in the draft, then purchases."""

from __future__ import annotations

from domain.kernel import Command


class PickCard(Command, frozen=True):
    """Place one card of your hand face down (the draft)."""

    card: str


class BuyCard(Command, frozen=True):
    """Pay a card of your tavern's exact cost; it stays in your tavern for good."""

    card: str


class FinishPurchases(Command, frozen=True):
    """Buy nothing more this round."""


HtCommand = PickCard | BuyCard | FinishPurchases
