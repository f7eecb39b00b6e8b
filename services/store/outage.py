"""What the store raises when Redis is away, so that no caller imports redis-py to catch it.

``REDIS_DOWN``: an outage, as redis-py and the Wires raise it: also a cluster's node down or a
failover under way (no primary for a slot), and a write its replicas did not acknowledge
(cluster.Unreplicated); and the archive away while a hibernated match wakes (``ArchiveDown``),
which is answered the same way (a 503: nothing was changed, a retry may succeed).
``STORE_ERRORS``: any trouble with Redis, an outage or a refusal."""

from __future__ import annotations

import redis

from services.ops import metrics


class ArchiveDown(Exception):
    """The archive could not be read (services/commands/hibernation.py): the match sleeps on."""


REDIS_DOWN: tuple[type[Exception], ...] = (
    ArchiveDown,
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ClusterError,
    redis.exceptions.TryAgainError,
    redis.exceptions.RedisClusterException,
)
STORE_ERRORS: tuple[type[Exception], ...] = (redis.RedisError, OSError)
# what a write may fail with after it ran: the connection lost, no reply in time, too few replicas
UNSURE: tuple[type[Exception], ...] = (redis.ConnectionError, redis.TimeoutError)


def redis_error(where: str, problem: BaseException) -> None:
    """Count ``problem`` if it came from Redis (a lost connection, a timeout, a refusal)."""
    if isinstance(problem, STORE_ERRORS):
        metrics.REDIS_ERRORS.labels(where).inc()
