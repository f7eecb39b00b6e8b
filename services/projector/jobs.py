"""The projector's RQ jobs as the queue names them: queued here, run by ``services/projector/worker.py``.

Kept apart from the worker so that the runtime, which queues drains, need not import the worker
process that runs on top of it. The job is named by its import path (RQ stores the string)."""

from __future__ import annotations

from rq import Queue

DRAIN_JOB = "services.projector.worker.drain_job"
JOB_TIMEOUT_S = 60


def enqueue_drain(rq: Queue) -> None:
    rq.enqueue_call(DRAIN_JOB, timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600)
