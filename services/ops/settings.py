"""Settings from the environment: where Redis is, where the queue is, where to listen."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str | None  # the event store and views; None: an embedded in-memory fakeredis
    queue_url: str | None  # RQ and the dirty set; None: the same Redis as the events
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
    # data lifecycle (services/projector/archiver.py, deploy/README.md): where finished matches go
    archive_dir: str | None = None  # None: no archiving (the embedded default: nothing is kept anyway)
    archive_s3_bucket: str | None = None  # an S3-compatible bucket instead of the directory
    archive_s3_endpoint: str | None = None
    archive_s3_prefix: str = ""
    archive_grace_s: float = 3600.0  # a finished match stays in Redis this long before it is archived
    idle_limit_s: float = 7 * 24 * 3600.0  # a match with no event for this long is ended as abandoned
    archive_every_s: float = 5.0  # how often a worker looks for matches to archive
    worker_metrics_port: int = 0  # a worker's /metrics (Prometheus) on this port; 0: none

    @property
    def embedded(self) -> bool:
        return self.redis_url is None


def from_env(env: dict[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env
    return Settings(
        redis_url=env.get("REDIS_URL") or None,
        queue_url=env.get("QUEUE_URL") or None,
        queue_name=env.get("TAVERN_QUEUE", "tavern"),
        log_level=env.get("LOG_LEVEL", "info").lower(),
        lease_s=float(env.get("TAVERN_LEASE_S", "5")),
        tick_s=float(env.get("TAVERN_TICK_MS", "12")) / 1000,
        min_tick_s=float(env.get("TAVERN_MIN_TICK_MS", "2")) / 1000,
        archive_dir=env.get("TAVERN_ARCHIVE_DIR") or (None if not env.get("REDIS_URL") else "tavern-archive"),
        archive_s3_bucket=env.get("TAVERN_ARCHIVE_S3_BUCKET") or None,
        archive_s3_endpoint=env.get("TAVERN_ARCHIVE_S3_ENDPOINT") or None,
        archive_s3_prefix=env.get("TAVERN_ARCHIVE_S3_PREFIX", ""),
        archive_grace_s=float(env.get("TAVERN_ARCHIVE_GRACE_S", "3600")),
        idle_limit_s=float(env.get("TAVERN_IDLE_LIMIT_S", str(7 * 24 * 3600))),
        archive_every_s=float(env.get("TAVERN_ARCHIVE_EVERY_S", "5")),
        worker_metrics_port=int(env.get("TAVERN_WORKER_METRICS_PORT", "0")),
    )
