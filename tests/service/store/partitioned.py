"""The partitions the conformance suites of partitioned sets use: few (4, and 3 buckets of the
asleep lists in each), so that a handful of members already spread over several, and a process's
share of them (alone: all of them)."""

from __future__ import annotations

from services.ops.settings import Settings
from services.store.partitions import Partitions, Shares
from tests.service.backends import Backend

PARTITIONS = Partitions(4)
ASLEEP_BUCKETS = 3  # the lifecycle's asleep lists per game and partition (TAVERN_ASLEEP_BUCKETS)


def shares(backend: Backend, role: str = "sweep", lease_s: float = 5.0) -> Shares:
    return Shares(backend.events, PARTITIONS, role, lease_s)

# as a process deploys them (TAVERN_PARTITIONS's default), for the tests that look into its Redis
DEPLOYED = Partitions(Settings(redis_url=None, queue_url=None).partitions)
