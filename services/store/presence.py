"""Who has an open stream of which seat, per match and gateway (presence.lua beside it).

Each gateway notes its open streams' seats in the match's presence hash (``keys.presence``: field
``{seat}:{gateway}``, refreshed while the stream is open), one field per gateway, so a seat
streaming through two gateways stays connected until its last stream closes. When a seat's first
stream anywhere opens, or its last closes, ``notices.MOVED`` is published on the match's own
channel (``keys.notices``) for the gateways streaming it to read the hash again. A gateway that
dies without closing its streams leaves fields that lapse after their time to live."""

from __future__ import annotations

import time
from pathlib import Path

from services.store import keys, resp
from services.store.clients import Events
from services.store.event_store import Call, reply, run_scripts, script
from services.store.notices import MOVED

Seats = frozenset[int]


class Presence:
    def __init__(self, redis: Events, link: resp.Link, gateway: str, ttl_s: float) -> None:
        self.redis = redis
        self.link = link  # the events' Redis, for the script and the notice
        self.gateway = gateway
        self.ttl_s = ttl_s
        self._script = redis.register_script(script(Path(__file__).parent / "presence.lua"))

    async def mark(self, match_id: str, seat: int, here: bool) -> Seats:
        """Note this gateway's stream of ``seat`` as open (or refreshed) or closed; answers the seats
        connected now, and tells the gateways streaming the match if the seat's being connected changed."""
        (seats,) = await self._marks([(match_id, seat)], here)
        if isinstance(seats, Exception):
            raise seats
        return seats

    async def refresh(self, streamed: list[tuple[str, int]]) -> list[Seats | Exception]:
        """``mark`` each (match, seat) streamed here as still open, all in one round trip (a task
        and a round trip each made a burst of hundreds every refresh); answers each match's
        connected seats after its mark, or its error (its slot down) in its place."""
        return await self._marks(streamed, True)

    async def _marks(self, streamed: list[tuple[str, int]], here: bool) -> list[Seats | Exception]:
        now = time.time()
        calls = [
            Call(self._script, [keys.presence(match_id)], [seat, self.gateway, now, self.ttl_s, int(here)])
            for match_id, seat in streamed
        ]
        answers: list[Seats | Exception] = []
        moved: dict[str, None] = {}  # told once a match: its gateways read all its seats again
        for (match_id, _), answer in zip(streamed, await run_scripts(self.link, calls), strict=True):
            if isinstance(answer, Exception):
                answers.append(answer)
                continue
            changed, *fields = answer
            answers.append(_seats(fields))
            if changed:
                moved[match_id] = None
        if moved:
            for published in await self.link.exchange([["SPUBLISH", keys.notices(m), MOVED] for m in moved]):
                reply(published)
        return answers

    async def read(self, match_id: str) -> Seats:
        now = time.time()
        fields = await self.redis.hgetall(keys.presence(match_id))
        return _seats([name for name, until in fields.items() if float(until) >= now])


def _seats(fields: list[bytes]) -> Seats:
    return frozenset(int(name.split(b":", 1)[0]) for name in fields)
