"""``tavern worker``: a resident event loop in a thread (the runtime: services/runtime.py), and an
RQ worker of the projector's jobs (services/store/rq_workers.py) per queue instance: the first's
on the main thread, each further one's in a thread of its own (every worker serves every instance,
so a dead worker's matches are taken over by the others, whichever instance they are on).

RQ quits on a Redis error outside its dequeue (a job's bookkeeping, a timeout): each thread's
worker, the main thread's too, is then made again after a back-off (rq_workers.serve_until), until
a signal asks it to stop. A drain job cut off by Redis leaves its claims to expire; the next drain
redoes them from the log (services/projector/projector.py)."""

from __future__ import annotations

import asyncio
import signal
import sys
import threading

from services.cli.startup import checked_settings
from services.ops import collector, logs, metrics, stopping
from services.ops.settings import Settings
from services.runtime import Runtime
from services.store.rq_workers import ResidentWorker, beat_forever, serve_in_thread, serve_until

log = logs.get("tavern.worker")


def main() -> int:
    config = checked_settings("worker")
    if config is None:
        return 1
    if config.embedded:
        print("tavern worker: set REDIS_URL (an embedded Redis lives inside `tavern serve`)", file=sys.stderr)
        return 2
    return run(config)


def run(settings: Settings) -> int:
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
    runtime.host_jobs()
    collector.settle()
    if settings.worker_metrics_port:
        metrics.serve(settings.worker_metrics_port)
    log.info("worker_started", queue=settings.queue_name, queues=settings.queue_count,
             metrics_port=settings.worker_metrics_port or None)
    beat = asyncio.run_coroutine_threadsafe(beat_forever(runtime.projector_queue), loop)
    wired = runtime.connections
    rq = wired.rq_queue(wired.rq_connection(settings.dequeue_s + 10))
    stop = threading.Event()
    for index in range(1, settings.queue_count):
        rq_of = wired.rq_queue(wired.rq_connection(settings.dequeue_s + 10, index))
        serve_in_thread(rq_of, index, settings.dequeue_s, stop)
    # the notifications' deliveries, on a queue of their own (services/store/delivery_jobs.py)
    deliveries = wired.rq_queue(wired.rq_connection(settings.dequeue_s + 10), notify=True)
    serve_in_thread(deliveries, "notify", settings.dequeue_s, stop)

    def stop_soon(*_: object) -> None:
        stopping.exit_after(settings.stop_s)
        runtime.stop_jobs()
        stop.set()

    def take_signals() -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, stop_soon)

    def life() -> bool:
        worker = ResidentWorker([rq], connection=rq.connection)
        worker.dequeue_s, worker.stop_s = settings.dequeue_s, settings.stop_s
        worker.on_stop = runtime.stop_jobs  # every instance's job in hand lets go
        try:
            worker.work(with_scheduler=False, logging_level="WARNING")
        finally:
            take_signals()  # RQ's own handlers went with its worker
            if worker.stop_requested:  # its handler took the signal: every thread's worker stops
                stop.set()
        return worker.stop_requested

    take_signals()  # until an RQ worker installs its own, and between two (a default SIGTERM kills)
    serve_until(stop, life, settings.queue_name)
    stop.set()
    beat.cancel()
    asyncio.run_coroutine_threadsafe(runtime.stop(), loop).result(settings.stop_s)
    log.info("worker_stopped")
    return 0
