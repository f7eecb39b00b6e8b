"""The RQ workers that run the projector's jobs (jobs.py), and their heartbeat.

The worker class is ``SimpleWorker``: a job runs in the worker's own process. The forking
``Worker`` costs a fork per job (milliseconds, ~65 jobs/s on this machine against ~280) and each
child would start with a cold fold cache and fresh Redis connections; our jobs are short Python
folds plus Redis I/O, and a crash loses nothing (leases, redo from the log), so the isolation a
fork buys is not worth its latency. Jobs are coroutines run on the process's resident event
loop (its connections and caches live across jobs); the RQ job function only hands them over.

Each worker gets a connection of its own (``Connections.rq_connection``): its blocking dequeue
waits ``dequeue_s`` and its socket timeout is longer, which a shared client's must not be."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from rq import Queue, SimpleWorker
from rq.exceptions import StopRequested
from rq.timeouts import TimerDeathPenalty

from services.ops import logs, stopping
from services.store.outage import STORE_ERRORS
from services.store.projector_queue import BEAT_S, ProjectorQueue

log = logs.get("tavern.worker")


async def beat_forever(queue: ProjectorQueue) -> None:
    """Say this worker lives, every ``BEAT_S``, until cancelled; an outage only skips beats."""
    name = f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"
    while True:
        with contextlib.suppress(*STORE_ERRORS):  # a worker without Redis is not alive to /readyz: right
            await queue.beat(name)
        await asyncio.sleep(BEAT_S)


class ResidentWorker(SimpleWorker):
    """``tavern worker``'s RQ worker: jobs in this process, a dequeue of ``dequeue_s`` at a time,
    and after losing Redis while waiting, a retry at least every ``max_connection_wait_time``
    (RQ's own back-off grows to a minute, which a worker would then sleep after Redis is back)."""

    max_connection_wait_time = 2.0
    dequeue_s = 30
    stop_s = 8.0
    on_stop: Callable[[], None] = staticmethod(lambda: None)  # a job waiting for work lets go (the runtime's)

    @property
    def dequeue_timeout(self) -> int:
        return self.dequeue_s

    def bootstrap(self, *args: Any, **kwargs: Any) -> None:
        # RQ registers the worker before it installs its signal handlers: a SIGTERM sent once it shows
        # as registered (a supervisor's, a test's) must already find them
        self._install_signal_handlers()  # type: ignore[no-untyped-call]
        super().bootstrap(*args, **kwargs)

    def work(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return bool(super().work(*args, **kwargs))
        except StopRequested:  # the signal came while it started: RQ raises it there, outside its loop
            self.teardown()
            return False

    def request_stop(self, signum: Any, frame: Any) -> None:
        stopping.exit_after(self.stop_s)  # the job in hand ends first, within the bound
        self.on_stop()
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]  # (rq types its methods loosely)

    def teardown(self) -> None:
        # a dequeue cut off by SIGTERM leaves its connection in the pool, its reply still to come; a
        # Sentinel one is not closed on that (redis-py's SentinelManagedConnection reads with
        # disconnect_on_error=False) and teardown's commands would wait for that reply: drop it
        self.connection.connection_pool.disconnect(inuse_connections=False)
        try:
            super().teardown()  # type: ignore[no-untyped-call]
        except STORE_ERRORS as problem:  # Redis away as it stops: its registration expires by itself
            log.warning("worker_death_unregistered", error=str(problem))

    @property
    def stop_requested(self) -> bool:
        """A signal asked it to stop (else it quit on an error)."""
        return self._shutdown_requested_date is not None


class ThreadWorker(ResidentWorker):
    """A SimpleWorker that runs in a thread (the embedded default's, and ``tavern worker``'s queue
    instances beyond the first): no signal handlers (only a main thread may install them) and a
    timer for job timeouts."""

    death_penalty_class = TimerDeathPenalty
    dequeue_s = 1  # so that stop() takes effect within a second

    def _install_signal_handlers(self) -> None:
        pass

    def stop(self) -> None:
        """Stop after the current job or wait for one."""
        self._stop_requested = True
        self.on_stop()


class DeliveryWorker(ThreadWorker):
    """The embedded default's worker of the notifications' queue: RQ's dequeue waits through one
    timeout after another until a job comes (the projector's queue always gets one; this queue
    may get none), so between two this one asks whether it is to stop."""

    def dequeue_job_and_maintain_ttl(self, timeout: int | None, max_idle_time: int | None = None) -> Any:
        while not self._stop_requested:
            found = super().dequeue_job_and_maintain_ttl(timeout, timeout)  # None after one timeout
            if found is not None:
                return found
        return None  # RQ's loop quits on it


def serve_until(stopping: threading.Event, life: Callable[[], bool], name: int | str) -> None:
    """Run ``life`` (one RQ worker made and worked: True once it stopped as asked) again after a
    back-off whenever it ends otherwise (RQ's loop quits on some Redis errors; meeting Redis at
    its start and registering raise outside it), until ``stopping`` is set."""
    pause = 0.5
    while not stopping.is_set():
        began = time.monotonic()
        try:
            if life():
                return
        except STORE_ERRORS as problem:  # outside RQ's loop: meeting Redis, registering the worker
            log.warning("worker_lost_redis", error=str(problem), queue=name)
        pause = 0.5 if time.monotonic() - began > 30 else min(pause * 2, 8.0)
        if stopping.is_set():
            return
        log.warning("worker_restarting", after_s=pause, queue=name)
        stopping.wait(pause)


class Serving:
    """An RQ worker of one queue in a daemon thread, made again after a back-off (serve_until)
    until stopped: a worker that met Redis away as it started, or lost it in a way RQ does not
    retry, would otherwise leave its queue unserved for the process's life."""

    def __init__(self, make: Callable[[], ThreadWorker], name: int | str, stop: threading.Event | None = None) -> None:
        self.make, self.name = make, name
        self.stopping = stop or threading.Event()
        self.worker: ThreadWorker | None = None
        self.beat: asyncio.Task[None] | None = None  # the projector's worker's (the deliveries' beats not)
        self.thread = threading.Thread(target=serve_until, args=(self.stopping, self._life, name), daemon=True)
        self.thread.start()

    def _life(self) -> bool:
        self.worker = self.make()
        if self.stopping.is_set():  # stopped while it was made: stop() did not see it
            return True
        self.worker.work(with_scheduler=False, logging_level="WARNING")
        return self.stopping.is_set()

    def stop(self) -> None:
        """Stop after the current job or wait for one (a daemon thread: it never holds up exit)."""
        self.stopping.set()
        if self.worker is not None:
            self.worker.stop()
        if self.beat is not None:
            self.beat.cancel()


def start_thread_worker(rq: Queue, beats: ProjectorQueue, on_stop: Callable[[], None]) -> Serving:
    """A worker of ``rq`` (on a connection of its own) in a thread, beating on this event loop;
    ``on_stop``: what its stop asks of the job in hand."""

    def make() -> ThreadWorker:
        worker = ThreadWorker([rq], connection=rq.connection)
        worker.on_stop = on_stop
        return worker

    serving = Serving(make, "projector")
    serving.beat = asyncio.get_running_loop().create_task(beat_forever(beats))
    return serving


def start_delivery_worker(rq: Queue) -> Serving:
    """A worker of the notifications' queue ``rq`` in a thread (the embedded default's)."""
    return Serving(lambda: DeliveryWorker([rq], connection=rq.connection), "notify")


def serve_in_thread(rq: Queue, instance: int | str, dequeue_s: int, stop: threading.Event) -> Serving:
    """``tavern worker``'s RQ worker of queue instance ``instance`` (beyond the first, which its main
    thread serves), until ``stop`` is set. Its job in hand lets go when the process stops (the
    runtime's flag, set by the main thread's worker); the thread itself ends with the process."""

    def make() -> ThreadWorker:
        worker = ThreadWorker([rq], connection=rq.connection)
        worker.dequeue_s = dequeue_s
        return worker

    return Serving(make, instance, stop)
