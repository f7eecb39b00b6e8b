"""The notice a projector publishes after writing views: the views themselves ride along, so a
gateway pushes them to its streams without reading them back from Redis. One notice carries
every match a drain step wrote, so a gateway reads one message per step, not one per match."""

from __future__ import annotations

import msgspec


class Written(msgspec.Struct, frozen=True, array_like=True):
    match_id: str
    version: int
    appended_at: float  # when the newest event was appended: the projection lag is now minus this
    views: dict[str, msgspec.Raw]  # storage field (``s:{seat}``, ``spectator``) -> view envelope JSON


encode = msgspec.json.Encoder().encode
decode = msgspec.json.Decoder(list[Written]).decode
