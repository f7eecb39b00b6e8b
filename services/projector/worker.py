"""RQ jobs and workers.

The worker class is ``SimpleWorker``: a job runs in the worker's own process. The forking
``Worker`` costs a fork per job (milliseconds, ~65 jobs/s on this machine against ~280) and each
child would start with a cold fold cache and fresh Redis connections; our jobs are short Python
folds plus Redis I/O, and a crash loses nothing (leases, redo from the log), so the isolation a
fork buys is not worth its latency. Jobs are coroutines run on the process's resident event
loop (its connections and caches live across jobs); the RQ job function only hands them over.

RQ's worker gets a connection of its own (``Runtime.rq_connection``): its blocking dequeue waits
``TAVERN_DEQUEUE_S`` and its socket timeout is longer, which a shared client's must not be. RQ
quits on a Redis error outside its dequeue (a job's bookkeeping, a timeout): ``run`` then starts
a new RQ worker after a back-off, until a signal asks it to stop. A drain job cut off by Redis
leaves its claims to expire; the next drain redoes them from the log (services/projector/projector.py).
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
import time
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.timeouts import TimerDeathPenalty

from services.ops import collector, logs, metrics, stopping
from services.ops.settings import Settings
from services.projector.jobs import JOB_TIMEOUT_S, enqueue_drain
from services.runtime import Runtime
from services.store import keys

log = logs.get("tavern.worker")
_runtime: Runtime | None = None
BEAT_S = 2.0  # a worker's heartbeat (keys.WORKERS): /readyz counts those of the last three


async def beat_forever(runtime: Runtime) -> None:
    """Say this worker lives, every ``BEAT_S``, until cancelled; an outage only skips beats."""
    name = f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"
    while True:
        now = time.time()
        try:
            async with runtime.queue_async.pipeline(transaction=False) as pipe:
                await pipe.zadd(keys.WORKERS, {name: now}).zremrangebyscore(keys.WORKERS, "-inf", now - 60).execute()
        except redis.RedisError:
            pass  # a worker without Redis is not alive to /readyz: right
        await asyncio.sleep(BEAT_S)


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
    try:
        drained = _run(_runtime.projector.drain)
    except Exception as problem:
        metrics.redis_error("projector", problem)
        raise
    if drained.again:
        enqueue_drain(_runtime.rq)  # the budget ran out with matches still dirty
    if drained.helper:
        enqueue_drain(_runtime.rq)  # a backlog: another worker may take a share


class ResidentWorker(SimpleWorker):
    """``tavern worker``'s RQ worker: jobs in this process, a dequeue of ``dequeue_s`` at a time,
    and after losing Redis while waiting, a retry at least every ``max_connection_wait_time``
    (RQ's own back-off grows to a minute, which a worker would then sleep after Redis is back)."""

    max_connection_wait_time = 2.0
    dequeue_s = 30
    stop_s = 8.0

    @property
    def dequeue_timeout(self) -> int:
        return self.dequeue_s

    def request_stop(self, signum: Any, frame: Any) -> None:
        stopping.exit_after(self.stop_s)  # the job in hand ends first, within the bound
        super().request_stop(signum, frame)

    @property
    def stop_requested(self) -> bool:
        """A signal asked it to stop (else it quit on an error)."""
        return self._shutdown_requested_date is not None


class ThreadWorker(ResidentWorker):
    """A SimpleWorker that runs in a thread of the gateway (the embedded default): no signal
    handlers (only a main thread may install them) and a timer for job timeouts."""

    death_penalty_class = TimerDeathPenalty
    dequeue_s = 1  # so that stop() takes effect within a second
    thread: threading.Thread

    def _install_signal_handlers(self) -> None:
        pass

    beat: asyncio.Task

    def stop(self) -> None:
        """Stop after the current job or wait for one (a daemon thread: it never holds up exit)."""
        self._stop_requested = True
        self.beat.cancel()


def start_thread_worker(runtime: Runtime) -> ThreadWorker:
    connection = runtime.rq_connection(ThreadWorker.dequeue_s + 10)
    worker = ThreadWorker([Queue(runtime.settings.queue_name, connection=connection)], connection=connection)
    worker.thread = threading.Thread(
        target=worker.work, kwargs={"with_scheduler": False, "logging_level": "WARNING"}, daemon=True
    )
    worker.thread.start()
    worker.beat = asyncio.get_running_loop().create_task(beat_forever(runtime))
    return worker


def run(settings: Settings) -> int:
    """``tavern worker``: a resident event loop in a thread, the RQ worker on the main thread."""
    ready = threading.Event()
    loop = asyncio.new_event_loop()
    runtime = Runtime(settings)

    def serve_loop() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runtime.start())
        runtime.start_archiving()
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve_loop, daemon=True).start()
    ready.wait()
    install(runtime)
    collector.settle()
    if settings.worker_metrics_port:
        metrics.serve(settings.worker_metrics_port)
    log.info("worker_started", queue=settings.queue_name, metrics_port=settings.worker_metrics_port or None)
    beat = asyncio.run_coroutine_threadsafe(beat_forever(runtime), loop)
    connection = runtime.rq_connection(settings.dequeue_s + 10)
    stop = threading.Event()
    pause = 0.5
    while True:
        began = time.monotonic()
        worker = None
        try:
            worker = ResidentWorker([Queue(settings.queue_name, connection=connection)], connection=connection)
            worker.dequeue_s, worker.stop_s = settings.dequeue_s, settings.stop_s
            worker.work(with_scheduler=False, logging_level="WARNING")
        except redis.RedisError as problem:  # outside RQ's loop: meeting Redis, registering the worker
            log.warning("worker_lost_redis", error=str(problem))
        if worker is not None and worker.stop_requested:
            break
        # RQ quit on an error; between two RQ workers the signals are ours
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: (stopping.exit_after(settings.stop_s), stop.set()))
        pause = 0.5 if time.monotonic() - began > 30 else min(pause * 2, 8.0)
        log.warning("worker_restarting", after_s=pause)
        if stop.wait(pause):
            break
    beat.cancel()
    asyncio.run_coroutine_threadsafe(runtime.stop(), loop).result(settings.stop_s)
    log.info("worker_stopped")
    return 0
