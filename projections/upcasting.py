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


_DECODERS: dict[tuple[str, int, int], Callable[[bytes], Event]] = {}


def event_decoder(game: Game, recorded: int) -> Callable[[bytes], Event]:
    """bytes of an event written under rules version ``recorded`` -> the current event Struct."""
    key = (game.id, game.rules_version, recorded)
    decode = _DECODERS.get(key)
    if decode is None:
        decode = _DECODERS[key] = _decoder(game, recorded)
    return decode


def _decoder(game: Game, recorded: int) -> Callable[[bytes], Event]:
    if recorded == game.rules_version:
        return msgspec.json.Decoder(game.event_type).decode
    raw = msgspec.json.Decoder(dict[str, Any])

    def decode(data: bytes) -> Event:
        return msgspec.convert(upcast(game, recorded, raw.decode(data)), game.event_type)

    return decode
