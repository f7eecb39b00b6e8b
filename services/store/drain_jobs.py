"""The projector's RQ queue of drain jobs (services/projector/jobs.py), bounded: RQ runs the jobs
(it speaks no Cluster, so the queue sits on the queue's own Redis), and RQ is a Redis client like
any other here, behind the store."""

from __future__ import annotations

from collections.abc import Callable

from rq import Queue

JOB_TIMEOUT_S = 60
# Drain jobs waiting at once, at most: one waiting job drains every dirty match once it runs, and
# a running one that sees a backlog queues the next helper itself (the projector's ``parallel``).
# Every process's sweeper asks for one each second while matches wait and no job runs, and marks
# ask for one while none holds a slot yet; more waiting would only queue behind a running job,
# which waits for work through its budget (services/projector/projector.py).
MAX_QUEUED = 1


class DrainJobs:
    def __init__(self, queue: Queue, job: Callable[[int, bool], None], instance: int = 0) -> None:
        self.queue = queue  # on queue instance ``instance``
        self.job = job  # queued by the function itself: RQ stores its import path
        self.instance = instance

    @property
    def count(self) -> int:
        """Jobs waiting (not those running)."""
        return self.queue.count

    def enqueue(self, helper: bool = False) -> None:
        """One more drain job of this instance's matches (a ``helper``: one that shares a backlog),
        unless ``MAX_QUEUED`` wait already (synchronous, as RQ is)."""
        if self.queue.count < MAX_QUEUED:
            args = (self.instance, helper)
            self.queue.enqueue_call(self.job, args=args, timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600)
