"""The bound on stopping: once asked to stop, a process exits within ``TAVERN_STOP_S`` whatever
holds it up (a stalled Redis, a stream or job that never ends), with one log line if forced."""

from __future__ import annotations

import os
import threading

from services.ops import logs

log = logs.get("tavern.stopping")


def exit_after(seconds: float) -> None:
    """Exit the process (status 1) in ``seconds`` unless it has exited by then."""

    def overdue() -> None:
        log.error("stop_overdue", after_s=seconds)
        os._exit(1)

    timer = threading.Timer(seconds, overdue)
    timer.daemon = True
    timer.start()
