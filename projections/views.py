"""The view envelopes of API.md: what each seat (and a spectator) sees of a state, with its legal
commands and the result. Pure: the worker writes these, the gateway serves them as they are."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Command, Game, Result, Seat

SPECTATOR_FIELD = "spectator"


class ViewEnvelope(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    version: int
    seat: Seat | None
    status: str  # "waiting" | "active" | "finished"
    view: Any
    legal: list[Command]
    result: Result | None


def status(game: Game, state: Any, version: int) -> str:
    if version == 0:
        return "waiting"  # nothing dealt yet
    return "finished" if game.result(state) is not None else "active"


def envelope(game: Game, match_id: str, state: Any, version: int, seat: Seat | None) -> ViewEnvelope:
    result = game.result(state)
    legal = game.legal(state, seat) if seat is not None and result is None else []
    return ViewEnvelope(
        match_id, game.id, version, seat, status(game, state, version), game.view(state, seat), legal, result
    )


def field(seat: Seat | None) -> str:
    """The name a seat's view is stored under."""
    return SPECTATOR_FIELD if seat is None else f"s:{seat}"


def all_views(game: Game, match_id: str, state: Any, version: int, seats: int) -> dict[str, bytes]:
    """Every seat's envelope and the spectator's, JSON-encoded, by storage field."""
    encode = msgspec.json.encode
    views = {field(seat): encode(envelope(game, match_id, state, version, seat)) for seat in range(seats)}
    views[field(None)] = encode(envelope(game, match_id, state, version, None))
    return views
