"""Where the outcome of a command sent with an Idempotency-Key is kept (append.lua keeps an
acceptance with its events; EventStore.remember a refusal)."""

from __future__ import annotations

from dataclasses import dataclass

from services.store import keys


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A seat's key in a match: its own, so that two seats cannot read each other's outcomes."""

    match_id: str
    seat: int
    key: str

    @property
    def name(self) -> str:
        return keys.idempotency(self.match_id, self.seat, self.key)
