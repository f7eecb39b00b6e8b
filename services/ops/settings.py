"""Settings from the environment: where Redis is, where the queue is, where to listen."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str | None  # the event store and views; None: an embedded in-memory fakeredis
    queue_url: str | None  # RQ and the dirty set; None: the same Redis as the events
    # or the queue's Redis found through Sentinel: its sentinels (host, port) and master name
    queue_sentinels: tuple[tuple[str, int], ...] = ()
    queue_master: str = "tavern"
    queue_name: str = "tavern"
    log_level: str = "info"
    idempotency_ttl_s: int = 24 * 3600
    append_attempts: int = 16  # decides per command before giving up on a busy match (409 contention)
    lease_s: float = 5.0  # how long a projector's claim on a match lasts before another may redo it
    # the longest pause between drain steps (after a step that claimed a full batch; shorter
    # after smaller ones): the commands of a tick share one projection (deploy/README.md)
    tick_s: float = 0.012
    # the shortest pause after a step that claimed anything: without it, a moderately busy server
    # projects one or two matches a step, at three round trips each, and the worker's CPU per
    # command doubles (deploy/README.md)
    min_tick_s: float = 0.002
    # cluster mode (REDIS_URL=redis+cluster://...): an append is answered once this many replicas
    # hold it (WAIT), else 503; None: 1 on a cluster, 0 (off) on a single Redis (deploy/README.md)
    wait_replicas: int | None = None
    wait_timeout_ms: int = 500
    redis_timeout_s: float = 5.0  # the longest wait for a Redis reply on the hot paths

    @property
    def replicas_to_wait(self) -> int:
        if self.wait_replicas is not None:
            return self.wait_replicas
        return 1 if (self.redis_url or "").startswith("redis+cluster://") else 0

    @property
    def embedded(self) -> bool:
        return self.redis_url is None


def from_env(env: dict[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env
    return Settings(
        redis_url=env.get("REDIS_URL") or None,
        queue_url=env.get("QUEUE_URL") or None,
        queue_sentinels=tuple(_address(part) for part in env.get("QUEUE_SENTINELS", "").split(",") if part.strip()),
        queue_master=env.get("QUEUE_MASTER", "tavern"),
        queue_name=env.get("TAVERN_QUEUE", "tavern"),
        log_level=env.get("LOG_LEVEL", "info").lower(),
        lease_s=float(env.get("TAVERN_LEASE_S", "5")),
        tick_s=float(env.get("TAVERN_TICK_MS", "12")) / 1000,
        min_tick_s=float(env.get("TAVERN_MIN_TICK_MS", "2")) / 1000,
        wait_replicas=int(env["TAVERN_WAIT_REPLICAS"]) if env.get("TAVERN_WAIT_REPLICAS") else None,
        wait_timeout_ms=int(env.get("TAVERN_WAIT_TIMEOUT_MS", "500")),
        redis_timeout_s=float(env.get("TAVERN_REDIS_TIMEOUT_S", "5")),
    )


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"QUEUE_SENTINELS: {text!r} is not host:port")
    return host, int(port)
