"""A SIGTERM sent the moment a `tavern worker`'s RQ worker shows as registered (RQ registers it
before installing its handlers, and a supervisor or test takes registration as "started") asks
it to stop: it is not killed by the default handler (CI found the exit status -15), and it leaves
no registration behind."""

from __future__ import annotations

import os
import signal

import fakeredis
from rq import Queue

from services.store.rq_workers import ResidentWorker


def test_a_sigterm_right_after_the_workers_registration_stops_it_cleanly(monkeypatch):
    connection = fakeredis.FakeStrictRedis()
    registered = ResidentWorker.register_birth

    def register_then_signalled(self: ResidentWorker) -> None:
        registered(self)
        assert connection.scard("rq:workers:start") == 1
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(ResidentWorker, "register_birth", register_then_signalled)
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        worker = ResidentWorker([Queue("start", connection=connection)], connection=connection)
        assert worker.work(logging_level="WARNING") is False
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    assert worker.stop_requested
    assert connection.scard("rq:workers:start") == 0
