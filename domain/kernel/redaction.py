"""Event redaction as an allow-list: a game names, for each of its event types, what that event
shows to a seat; an event of a type it does not name is shown to nobody. So a new event type is
secret until its game says otherwise, never public by omission."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.kernel.game import Event, Seat

# What an event of one type shows to a seat: it takes an event of the type it is listed under (``Any``
# because a mapping cannot tie each value's parameter to its key; ``AllowList`` looks it up by type).
Shown = Callable[[Any, Seat | None], Event | None]


def to_everyone(event: Event, seat: Seat | None) -> Event:
    """For events with nothing hidden in them: everyone sees all of it."""
    return event


def to_nobody(event: Event, seat: Seat | None) -> None:
    """For events no seat may see while the match runs (a deck's new order)."""
    return None


class AllowList:
    """A game's ``event_view``: ``AllowList({Dealt: own_hand_only, Scored: to_everyone, ...})``."""

    __slots__ = ("shown",)

    def __init__(self, shown: Mapping[type[Event], Shown]) -> None:
        self.shown = dict(shown)

    def __call__(self, event: Event, seat: Seat | None) -> Event | None:
        show = self.shown.get(type(event))
        return None if show is None else show(event, seat)
