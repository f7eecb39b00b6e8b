"""Decoding events recorded under an older rules version: each game's upcasters (``Game.upcasters``,
keyed by the rules version an event was written under and its type) lift the event's JSON object
one version at a time until it is the current version's, then it is decoded as usual."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import Event, Game


class UpcastError(ValueError):
    """An event of an older rules version that no upcaster chain can bring to the current one."""


def upcast(game: Game, recorded: int, event: dict[str, Any]) -> dict[str, Any]:
    """The event's JSON object lifted from rules version ``recorded`` to the game's current one."""
    if recorded > game.rules_version:
        raise UpcastError(f"{game.id} rules version {recorded} is newer than this code's {game.rules_version}")
    for version in range(recorded, game.rules_version):
        lift = game.upcasters.get((version, event.get("type", "")))
        if lift is not None:
            event = lift(dict(event))
    return event


# (id of the game object, recorded version) -> (that game, its decoder): games are not hashable
_DECODERS: dict[tuple[int, int], tuple[Game, Callable[[bytes], Event]]] = {}


def event_decoder(game: Game, recorded: int) -> Callable[[bytes], Event]:
    """bytes of an event written under rules version ``recorded`` -> the current event Struct."""
    key = (id(game), recorded)
    cached = _DECODERS.get(key)
    if cached is None or cached[0] is not game:
        cached = _DECODERS[key] = (game, _decoder(game, recorded))
    return cached[1]


def _decoder(game: Game, recorded: int) -> Callable[[bytes], Event]:
    if recorded == game.rules_version:
        return msgspec.json.Decoder(game.event_type).decode
    raw = msgspec.json.Decoder(dict[str, Any])

    def decode(data: bytes) -> Event:
        return msgspec.convert(upcast(game, recorded, raw.decode(data)), game.event_type)

    return decode
