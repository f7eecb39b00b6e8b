"""Each game's encoding: how a seat's view becomes features, and what each action index sends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from environments.actions import Catalogue, LegalSlots
from environments.encoding import Features


@dataclass(frozen=True)
class Encoding:
    actions: Catalogue | LegalSlots
    # (features, the seat's view, its seat, the seats at the table): the view's features; every call adds
    # the same features with the same sizes, padded to the game's most seats (one policy, any table)
    encode: Callable[[Features, Any, int, int], None]
