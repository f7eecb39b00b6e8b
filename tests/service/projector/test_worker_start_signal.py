"""A SIGTERM sent the moment a `tavern worker`'s RQ worker shows as registered (RQ registers it
before installing its handlers, and a supervisor or test takes registration as "started") asks
it to stop: it is not killed by the default handler (CI found the exit status -15), and it leaves
no registration behind. In a process of its own: the signal is sent to that process."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import os, signal
import fakeredis
from rq import Queue
from services.store.rq_workers import ResidentWorker

connection = fakeredis.FakeStrictRedis()
registered = ResidentWorker.register_birth

def register_then_signalled(self):
    registered(self)
    assert connection.scard("rq:workers:start") == 1
    os.kill(os.getpid(), signal.SIGTERM)

ResidentWorker.register_birth = register_then_signalled
worker = ResidentWorker([Queue("start", connection=connection)], connection=connection)
assert worker.work(logging_level="WARNING") is False
assert worker.stop_requested
assert connection.scard("rq:workers:start") == 0
print("stopped cleanly")
"""


def test_a_sigterm_right_after_the_workers_registration_stops_it_cleanly():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "stopped cleanly"), done.stderr
