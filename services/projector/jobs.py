"""The projector's RQ jobs as the queue names them: queued here, run by ``services/projector/worker.py``.

Kept apart from the worker so that the runtime, which queues drains, need not import the worker
process that runs on top of it. The job is named by its import path (RQ stores the string)."""

from __future__ import annotations

from rq import Queue

DRAIN_JOB = "services.projector.worker.drain_job"
JOB_TIMEOUT_S = 60
# Drain jobs waiting at once, at most: one drains every dirty match, a few more share a backlog
# (the projector's ``parallel``). Every process's sweeper asks for one each second while matches
# wait and no job runs, so with every worker stalled they would pile up without this bound.
MAX_QUEUED = 4


def enqueue_drain(rq: Queue) -> None:
    if rq.count < MAX_QUEUED:
        rq.enqueue_call(DRAIN_JOB, timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600)
