"""What a Redis outage looks like to a client: 503, ``Retry-After`` and a JSON error, never a 500.

A node down, a failover under way (no primary for a slot), a reply not come in time, a write the
replicas did not acknowledge: each clears by itself, so the client is told to come back."""

from __future__ import annotations

from redis.exceptions import (
    ClusterError,
    ConnectionError,
    RedisClusterException,
    TimeoutError,
    TryAgainError,
)

from services.gateway.access import ApiError

RETRY_AFTER_S = 1
OUTAGES: tuple[type[Exception], ...] = (
    ConnectionError,  # also our ClusterDown and Unreplicated (services/store/cluster.py)
    TimeoutError,
    ClusterError,
    TryAgainError,
    RedisClusterException,  # redis-py's cluster client finding no node, or no primary for a slot
)


def unavailable(problem: Exception) -> ApiError:
    return ApiError(
        503, "unavailable", f"the store is unavailable for a moment ({type(problem).__name__}); retry: {problem}"
    )
