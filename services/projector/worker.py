"""RQ jobs and workers.

The worker class is ``SimpleWorker``: a job runs in the worker's own process. The forking
``Worker`` costs a fork per job (milliseconds, ~65 jobs/s on this machine against ~280) and each
child would start with a cold fold cache and fresh Redis connections; our jobs are short Python
folds plus Redis I/O, and a crash loses nothing (leases, redo from the log), so the isolation a
fork buys is not worth its latency. Jobs are coroutines run on the process's resident event
loop (its connections and caches live across jobs); the RQ job function only hands them over.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import SimpleWorker
from rq.timeouts import TimerDeathPenalty

from services.ops import collector, logs
from services.ops.settings import Settings
from services.projector.jobs import JOB_TIMEOUT_S, enqueue_drain
from services.runtime import Runtime

log = logs.get("tavern.worker")
RESTART_PAUSE_S = 1.0
_runtime: Runtime | None = None


def install(runtime: Runtime) -> None:
    """Make this process's runtime the one its RQ jobs run on."""
    global _runtime
    _runtime = runtime


def _run(make: Any, *args: Any) -> Any:
    """Run ``make(*args)`` on the runtime's event loop and wait for its result."""
    assert _runtime is not None and _runtime.loop is not None, "no runtime installed in this process"
    if _runtime.loop.is_closed():
        raise RuntimeError("the runtime has stopped")
    return asyncio.run_coroutine_threadsafe(make(*args), _runtime.loop).result(JOB_TIMEOUT_S)


def drain_job() -> None:
    assert _runtime is not None
    drained = _run(_runtime.projector.drain)
    if drained.again:
        enqueue_drain(_runtime.rq)  # the budget ran out with matches still dirty
    if drained.helper:
        enqueue_drain(_runtime.rq)  # a backlog: another worker may take a share


class ThreadWorker(SimpleWorker):
    """A SimpleWorker that runs in a thread of the gateway (the embedded default): no signal
    handlers (only a main thread may install them) and a timer for job timeouts."""

    death_penalty_class = TimerDeathPenalty
    thread: threading.Thread

    def _install_signal_handlers(self) -> None:
        pass

    @property
    def dequeue_timeout(self) -> int:
        return 1  # so that stop() takes effect within a second

    def stop(self) -> None:
        """Stop after the current job or wait for one (a daemon thread: it never holds up exit)."""
        self._stop_requested = True


def start_thread_worker(runtime: Runtime) -> ThreadWorker:
    worker = ThreadWorker([runtime.rq], connection=runtime.queue_sync)
    worker.thread = threading.Thread(
        target=worker.work, kwargs={"with_scheduler": False, "logging_level": "WARNING"}, daemon=True
    )
    worker.thread.start()
    return worker


def run(settings: Settings) -> int:
    """``tavern worker``: a resident event loop in a thread, the RQ worker on the main thread."""
    ready = threading.Event()
    loop = asyncio.new_event_loop()
    runtime = Runtime(settings)

    def serve_loop() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runtime.start())
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve_loop, daemon=True).start()
    ready.wait()
    install(runtime)
    collector.settle()
    log.info("worker_started", queue=settings.queue_name)
    while True:
        rq_worker = None
        # RQ quits its loop when Redis fails under it (a failover of the queue's Redis, its job's
        # failure not recorded): start another, which reconnects (through Sentinel, to the new master)
        with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
            rq_worker = SimpleWorker([runtime.rq], connection=runtime.queue_sync)  # it talks to Redis at once
            rq_worker.work(with_scheduler=False, logging_level="WARNING")
        if rq_worker is not None and rq_worker._stop_requested:  # a SIGTERM or SIGINT: RQ's own graceful stop
            return 0
        log.warning("worker_restarting")
        time.sleep(RESTART_PAUSE_S)
