"""The view envelopes of API.md: what each seat (and a spectator) sees of a state, with its legal
commands and the result. Pure: the worker writes these, the gateway serves them as they are."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Command, Game, Result, Seat, viewers

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


def envelope(game: Game, match_id: str, state: Any, version: int, seat: Seat | None, view: Any = None) -> ViewEnvelope:
    """The envelope of ``seat``; ``view``, when given, is ``game.view(state, seat)`` built already."""
    result = game.result(state)
    # nothing is legal before the opening deal (a seat-entropy match waits for it at version 0)
    legal = game.legal(state, seat) if seat is not None and result is None and version > 0 else []
    if view is None:
        view = game.view(state, seat)
    return ViewEnvelope(match_id, game.id, version, seat, status(game, state, version), view, legal, result)


def field(seat: Seat | None) -> str:
    """The name a seat's view is stored under."""
    return SPECTATOR_FIELD if seat is None else f"s:{seat}"


def all_views(game: Game, match_id: str, state: Any, version: int, seats: int) -> dict[str, bytes]:
    """Every seat's envelope and the spectator's, JSON-encoded, by storage field."""
    encode = msgspec.json.encode
    return {
        field(seat): encode(envelope(game, match_id, state, version, seat, view))
        for seat, view in zip(viewers(seats), game.all_views(state, seats), strict=True)
    }
