"""The notifications' RQ queue (docs/notifications.md): one job per attempt at a delivery, on a
queue of its own beside the projector's (a drain job waits for work through its budget: a
delivery queued behind it would wait that long), run by every worker's thread for it. RQ only
runs the attempts: when each is due, and that one is sent at a time, is the deliveries' own
record's (services/store/notifications.py), so a job lost with its worker costs nothing but time."""

from __future__ import annotations

from collections.abc import Callable

from rq import Queue

JOB_TIMEOUT_S = 60


def queue_name(base: str) -> str:
    return f"{base}:notify"


class DeliveryJobs:
    def __init__(self, queue: Queue, job: Callable[[str, str], None]) -> None:
        self.queue = queue
        self.job = job  # queued by the function itself: RQ stores its import path

    def enqueue(self, player_id: str, delivery_id: str) -> None:
        """An attempt at the delivery (synchronous, as RQ is)."""
        self.queue.enqueue_call(
            self.job, args=(player_id, delivery_id), timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600
        )
