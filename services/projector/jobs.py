"""The projector's RQ job: queued by every process after appends (services/store/drain_jobs.py), run
by a worker (``tavern worker``: services/cli/worker.py; or a thread of the gateway on the embedded
default: services/store/rq_workers.py). RQ stores the job by its function's import path; the job itself only hands
the drain over to the event loop of the process that hosts it (``host``), where its connections
and caches live across jobs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from services.commands.notifications import Notifier
from services.projector.projector import Projector
from services.store.drain_jobs import JOB_TIMEOUT_S, DrainJobs
from services.store.outage import redis_error
from services.store.projector_queue import ProjectorQueue

T = TypeVar("T")
HELPER_LINGER_S = 0.2  # a helper job's wait for more work once the backlog it came for is gone


@dataclass(frozen=True, slots=True)
class Host:
    """What this process's jobs run on: its resident event loop, its projector, and per queue
    instance its bookkeeping and its queue of jobs."""

    loop: asyncio.AbstractEventLoop
    projector: Projector
    queues: list[ProjectorQueue]
    jobs: list[DrainJobs]
    notifier: Notifier | None = None


_host: Host | None = None


def host(hosting: Host) -> None:
    """Make ``hosting`` the one this process's RQ jobs run on."""
    global _host
    _host = hosting


def _run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``make()`` on the host's event loop and wait for its result."""
    assert _host is not None, "no host in this process: jobs.host() first"
    if _host.loop.is_closed():
        raise RuntimeError("the host's event loop has stopped")
    return asyncio.run_coroutine_threadsafe(make(), _host.loop).result(JOB_TIMEOUT_S)


def drain_job(instance: int = 0, helper: bool = False) -> None:
    """Drain queue instance ``instance``'s dirty matches; a ``helper`` (queued for a backlog) lets
    go after ``HELPER_LINGER_S`` without work, the others wait for work for their whole budget."""
    assert _host is not None, "no host in this process: jobs.host() first"
    projector, queue, jobs = _host.projector, _host.queues[instance], _host.jobs[instance]
    try:
        drained = _run(lambda: projector.drain(queue, linger_s=HELPER_LINGER_S if helper else None))
    except Exception as problem:
        redis_error("projector", problem)
        raise
    if drained.again:
        jobs.enqueue()  # its budget ran out: the next (a job always runs)
    if drained.helper:
        jobs.enqueue(helper=True)  # a backlog: another worker may take a share


def deliver_job(player_id: str, delivery_id: str) -> None:
    """One attempt at a notification's delivery: claimed on the host's loop, sent from this job's
    thread (its HTTP blocks nothing else), its outcome written on the loop (services/commands/notifications.py)."""
    assert _host is not None and _host.notifier is not None, "no notifier in this process"
    notifier = _host.notifier
    attempt = _run(lambda: notifier.claim(player_id, delivery_id))
    if attempt is not None:
        sent = notifier.send(attempt)
        _run(lambda: notifier.settle(attempt, sent))
