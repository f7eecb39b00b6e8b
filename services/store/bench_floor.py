"""The benchmark's yardstick (tests/bench/bench_service.py, served only with TAVERN_BENCH=1): the
floor of any event-sourced write, one XADD to a capped stream of its own."""

from __future__ import annotations

from services.store.clients import Events

KEY = "bench:{floor}"


class BenchFloor:
    def __init__(self, redis: Events) -> None:
        self.redis = redis  # the events' Redis

    async def add(self, kind: str) -> str:
        """Append one entry naming ``kind``; its stream id."""
        entry = await self.redis.xadd(KEY, {"b": kind}, maxlen=1000, approximate=True)
        return entry.decode()
