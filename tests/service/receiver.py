"""A local HTTP receiver on 127.0.0.1 for the notification tests: a webhook's receiver or a push
service's stand-in. It records every request (path, headers, body), answers each with the next
scripted status (then 200, or 201 where told), and may hold a request unanswered until released
(a sender killed meanwhile). Its ``processed`` are the requests taken once per Idempotency-Key,
as a receiver keeping its keys takes them (docs/notifications.md)."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    def __init__(self, statuses: list[int] | None = None, hold_first: bool = False, ok: int = 200) -> None:
        self.statuses = list(statuses or [])
        self.ok = ok
        self.received: list[Received] = []
        self.processed: dict[str, Received] = {}
        self.holding = threading.Event()  # set once the held request has arrived
        self.release = threading.Event()
        self._hold = hold_first
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                got = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with receiver._lock:
                    receiver.received.append(got)
                    hold, receiver._hold = receiver._hold, False
                    status = receiver.statuses.pop(0) if receiver.statuses else receiver.ok
                if hold:
                    receiver.holding.set()
                    receiver.release.wait(30)
                    return  # its sender is gone: nothing to answer
                if 200 <= status < 300:
                    receiver.processed.setdefault(got.headers.get("idempotency-key", str(id(got))), got)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    async def wait(self, count: int, timeout_s: float = 15.0) -> list[Received]:
        """The requests once ``count`` have arrived (else the test fails); the event loop runs
        meanwhile (a job of the embedded worker settles on it)."""
        deadline = time.monotonic() + timeout_s
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"{len(self.received)} requests arrived, not {count}"
            await asyncio.sleep(0.02)
        return list(self.received)

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
