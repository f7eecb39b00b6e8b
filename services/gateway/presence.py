"""Who has an open stream, true to the moment: the envelope's ``players[].connected``.

The presence hash of each match (services/store/presence.py) says which seats stream through
which gateway; when a seat's first stream anywhere opens, or its last closes, every gateway with
streams of that match reads it again and, if a seat came or went, sends those streams a
``presence`` frame. The projector never reads presence: the views are written with
``connected: false`` and the gateway sets each seat's ``connected`` in every envelope it sends,
from what it knows then (nothing on the command path). Here: the envelope's table, overlaid.
"""

from __future__ import annotations

import msgspec

from projections.views import TablePlayer
from services.store.presence import Presence, Seats

__all__ = ["Presence", "PresenceFrame", "Seats", "Tables", "frame", "overlay", "shown"]
_PLAYERS = b',"players":'  # the envelope's last field (projections/views.py): its tail is the table
_table = msgspec.json.Decoder(list[TablePlayer])
_encode = msgspec.json.encode


def _split(raw: bytes) -> tuple[bytes, list[TablePlayer]]:
    head, table = _parts(raw)
    return head, _table.decode(table) if table else []


def _parts(raw: bytes) -> tuple[bytes, bytes]:
    """The envelope before its table, and the table as stored (empty: not an envelope of projections/views.py)."""
    at = raw.rfind(_PLAYERS)
    return (raw, b"") if at < 0 else (raw[:at], raw[at + len(_PLAYERS) : -1])


class PresenceFrame(msgspec.Struct):
    """A ``presence`` frame of the streams: the table of the seat's newest view, ``connected`` as now."""

    match_id: str
    version: int  # the version of the view whose table this is
    players: list[TablePlayer]


def shown(players: list[TablePlayer], connected: Seats) -> list[TablePlayer]:
    """The table with each seat's ``connected`` as given."""
    return [msgspec.structs.replace(p, connected=p.seat in connected) for p in players]


def _tail(table: bytes, connected: Seats) -> bytes:
    """The envelope's tail from its table on, ``connected`` as given (empty: no table to set)."""
    players = _table.decode(table) if table else []
    return _PLAYERS + _encode(shown(players, connected)) + b"}" if players else b""


def overlay(raw: bytes, connected: Seats) -> bytes:
    """The envelope with each seat's ``connected`` as given."""
    head, table = _parts(raw)
    tail = _tail(table, connected)
    return head + tail if tail else raw


class Tables:
    """``overlay``, with the tail as shown kept per match while the same table comes with the same
    connected seats: a version's envelopes, one a seat, share their table, which is then decoded
    and encoded once for all (once a frame, it was 4% of a busy gateway's CPU)."""

    def __init__(self) -> None:
        self._shown: dict[str, tuple[bytes, Seats, bytes]] = {}  # match id -> table as stored, seats, tail

    def overlay(self, match_id: str, raw: bytes, connected: Seats) -> bytes:
        head, table = _parts(raw)
        kept = self._shown.get(match_id)
        if kept is None or kept[0] != table or kept[1] != connected:
            kept = self._shown[match_id] = (table, connected, _tail(table, connected))
        return head + kept[2] if kept[2] else raw

    def forget(self, match_id: str) -> None:
        self._shown.pop(match_id, None)


def frame(match_id: str, version: int, raw: bytes, connected: Seats) -> bytes:
    """A presence frame: the table of the envelope ``raw`` (at ``version``), ``connected`` as given."""
    _, players = _split(raw)
    return _encode(PresenceFrame(match_id, version, shown(players, connected)))
