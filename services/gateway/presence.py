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

__all__ = ["Presence", "PresenceFrame", "Seats", "frame", "overlay", "shown"]
_PLAYERS = b',"players":'  # the envelope's last field (projections/views.py): its tail is the table
_table = msgspec.json.Decoder(list[TablePlayer])
_encode = msgspec.json.encode


def _split(raw: bytes) -> tuple[bytes, list[TablePlayer]]:
    at = raw.rfind(_PLAYERS)
    if at < 0:  # not an envelope of projections/views.py: nothing to set
        return raw, []
    return raw[:at], _table.decode(raw[at + len(_PLAYERS) : -1])


class PresenceFrame(msgspec.Struct):
    """A ``presence`` frame of the streams: the table of the seat's newest view, ``connected`` as now."""

    match_id: str
    version: int  # the version of the view whose table this is
    players: list[TablePlayer]


def shown(players: list[TablePlayer], connected: Seats) -> list[TablePlayer]:
    """The table with each seat's ``connected`` as given."""
    return [msgspec.structs.replace(p, connected=p.seat in connected) for p in players]


def overlay(raw: bytes, connected: Seats) -> bytes:
    """The envelope with each seat's ``connected`` as given."""
    head, players = _split(raw)
    return head + _PLAYERS + _encode(shown(players, connected)) + b"}" if players else raw


def frame(match_id: str, version: int, raw: bytes, connected: Seats) -> bytes:
    """A presence frame: the table of the envelope ``raw`` (at ``version``), ``connected`` as given."""
    _, players = _split(raw)
    return _encode(PresenceFrame(match_id, version, shown(players, connected)))
