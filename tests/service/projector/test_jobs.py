"""The drain job is queued by its function (RQ stores its import path, which a worker imports),
not by a string naming a module above the projector; at most ``MAX_QUEUED`` wait at once."""

from __future__ import annotations

import fakeredis
from rq import Queue

from services.projector.jobs import drain_job
from services.store.drain_jobs import MAX_QUEUED, DrainJobs


def test_the_drain_job_is_queued_by_its_function_and_bounded():
    jobs = DrainJobs(Queue("drains", connection=fakeredis.FakeRedis()), drain_job)
    for _ in range(MAX_QUEUED + 2):
        jobs.enqueue()
    assert jobs.count == MAX_QUEUED
    assert all(job.func is drain_job for job in jobs.queue.jobs)
    assert jobs.queue.jobs[0].func_name == "services.projector.jobs.drain_job"
