"""Who has an open stream, true to the moment: the envelope's ``players[].connected``.

Each gateway notes its open streams' seats in the match's presence hash (``keys.presence``: field
``{seat}:{gateway}``, refreshed while the stream is open, presence.lua), one field per gateway, so
a seat streaming through two gateways stays connected until its last stream closes. When a seat's
first stream anywhere opens, or its last closes, the gateway publishes the match's id on
``keys.PRESENCE``; every gateway with streams of that match reads the hash again and, if a seat
came or went, sends those streams a ``presence`` frame. The projector never reads presence: the
views are written with ``connected: false`` and the gateway sets each seat's ``connected`` in
every envelope it sends, from what it knows then (nothing on the command path).

A gateway that dies without closing its streams leaves fields that lapse after PRESENCE_S; the
others notice at their next refresh (every KEEPALIVE_S).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import msgspec

from projections.views import TablePlayer
from services.store import keys
from services.store.event_store import Call, reply, run_scripts, script

Seats = frozenset[int]
_PLAYERS = b',"players":'  # the envelope's last field (projections/views.py): its tail is the table
_table = msgspec.json.Decoder(list[TablePlayer])
_encode = msgspec.json.encode


class Presence:
    def __init__(self, redis: Any, link: Any, notices: Any, gateway: str, ttl_s: float) -> None:
        self.redis = redis
        self.link = link  # the events' Redis, for the script
        self.notices = notices  # where the gateways subscribe: the queue's Redis beside a cluster
        self.gateway = gateway
        self.ttl_s = ttl_s
        self._script = redis.register_script(script(Path(__file__).parent / "presence.lua"))

    async def mark(self, match_id: str, seat: int, here: bool) -> Seats:
        """Note this gateway's stream of ``seat`` as open (or refreshed) or closed; answers the seats
        connected now, and tells every gateway if the seat's being connected changed."""
        args = [seat, self.gateway, time.time(), self.ttl_s, int(here)]
        (answer,) = await run_scripts(self.link, [Call(self._script, [keys.presence(match_id)], args)])
        changed, *fields = reply(answer)
        if changed:
            await self.notices.publish(keys.PRESENCE, match_id)
        return _seats(fields)

    async def read(self, match_id: str) -> Seats:
        now = time.time()
        fields = await self.redis.hgetall(keys.presence(match_id))
        return _seats([name for name, until in fields.items() if float(until) >= now])


def _seats(fields: list[bytes]) -> Seats:
    return frozenset(int(name.split(b":", 1)[0]) for name in fields)


def _split(raw: bytes) -> tuple[bytes, list[TablePlayer]]:
    at = raw.rfind(_PLAYERS)
    if at < 0:  # not an envelope of projections/views.py: nothing to set
        return raw, []
    return raw[:at], _table.decode(raw[at + len(_PLAYERS) : -1])


def _shown(players: list[TablePlayer], connected: Seats) -> bytes:
    return _encode([msgspec.structs.replace(p, connected=p.seat in connected) for p in players])


def overlay(raw: bytes, connected: Seats) -> bytes:
    """The envelope with each seat's ``connected`` as given."""
    head, players = _split(raw)
    return head + _PLAYERS + _shown(players, connected) + b"}" if players else raw


def frame(match_id: str, version: int, raw: bytes, connected: Seats) -> bytes:
    """A presence frame: the table of the envelope ``raw`` (at ``version``), ``connected`` as given."""
    _, players = _split(raw)
    head = _encode({"match_id": match_id, "version": version})
    return head[:-1] + b',"players":' + _shown(players, connected) + b"}"
