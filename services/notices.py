"""The notice a projector publishes after writing a match's views: the views themselves ride
along, so a gateway pushes them to its streams without reading them back from Redis."""

from __future__ import annotations

import msgspec


class Notice(msgspec.Struct, frozen=True):
    match_id: str
    version: int
    appended_at: float  # when the newest event was appended: the projection lag is now minus this
    views: dict[str, msgspec.Raw]  # storage field (``s:{seat}``, ``spectator``) -> view envelope JSON


encode = msgspec.json.Encoder().encode
decode = msgspec.json.Decoder(Notice).decode
