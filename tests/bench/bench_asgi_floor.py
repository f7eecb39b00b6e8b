"""The floor of this stack: what a bare ASGI app on uvicorn (uvloop, httptools, as `tavern serve`
runs) costs the server per request and per SSE frame, driven by bench_service.py's own client.
Prints; asserts nothing.

    python tests/bench/bench_asgi_floor.py --seconds 6

Issue 31 asks the exact mode (every stale version a 409) to cost at most the peer's CPU per
accepted command. Each accepted command there costs about 2.5 requests and 4 view frames
(bench_service.py's ``stale_per_accepted`` and ``views_per_command``): this bench says what those
would cost on this machine with nothing of ours in the way, so a line of bench_service.py splits
into the stack's floor and our own code's share.

- requests: CONNECTIONS kept-alive connections, each POSTing in a closed loop; the app reads the
  body and answers a constant 409 the size of a stale refusal with its view (~1.5 KB);
- frames: GROUPS groups of 4 SSE streams; a POST to a group's push route writes one ~1.2 KB frame
  to each of its 4 streams (a version to a match's 4 seats); the line gives the server's CPU per
  push, its request and 4 frames together.

The server runs in a process of its own on a free port of 127.0.0.1 and is killed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.bench_service import Conn, cpu_seconds, free_port

CONNECTIONS = 40
GROUPS = 40
REFUSAL = b'{"error":{"code":"stale_version","message":"stale"},"version":12,"view":{"v":"' + b"x" * 1400 + b'"}}'
FRAME = b'event: view\ndata: {"v":"' + b"x" * 1200 + b'"}\n\n'
COMMAND = b'{"type":"pick","card":"ale","expected_version":3}'
_streams: dict[str, list[asyncio.Queue[bytes]]] = {}


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """POST /push/{group}: a frame to each of the group's streams; any other POST: the 409;
    GET /streams/{group}: an SSE stream of the group."""
    if scope["type"] != "http":
        return
    group = scope["path"].rpartition("/")[2]
    if scope["method"] != "POST":
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        _streams.setdefault(group, []).append(queue)
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
        while True:
            await send({"type": "http.response.body", "body": await queue.get(), "more_body": True})
    message = await receive()
    while message.get("more_body"):
        message = await receive()
    status, body = 409, REFUSAL
    if scope["path"].startswith("/push/"):
        for stream in _streams.get(group, ()):
            stream.put_nowait(FRAME)
        status, body = 200, b"{}"
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def closed_loops(conns: list[Conn], path: str, pace_s: float, seconds: float, pid: int) -> tuple[float, float]:
    """Each connection POSTs to ``path`` (its index for {}) as soon as answered, then waits
    ``pace_s``: the rate and the server's CPU seconds per request, over ``seconds`` after a warmup."""
    done, stop = [0], asyncio.Event()

    async def loop(index: int, conn: Conn) -> None:
        while not stop.is_set():
            await conn.request("POST", path.format(index), COMMAND, "token", "Prefer: handling=strict\r\n")
            done[0] += 1
            if pace_s:
                await asyncio.sleep(pace_s)

    tasks = [asyncio.create_task(loop(index, conn)) for index, conn in enumerate(conns)]
    await asyncio.sleep(1.5)
    cpu, count = cpu_seconds(pid), done[0]
    await asyncio.sleep(seconds)
    cpu, count = cpu_seconds(pid) - cpu, done[0] - count
    stop.set()
    await asyncio.gather(*tasks)
    return count / seconds, cpu / max(1, count)


async def measure(port: int, pid: int, seconds: float) -> None:
    rate, per = await closed_loops([Conn(port) for _ in range(CONNECTIONS)], "/commands", 0, seconds, pid)
    print(f"requests: {rate:,.0f}/s, server {per * 1e6:.0f} us of CPU per request (a 409 of {len(REFUSAL)} bytes)")
    frames = [0]

    def seen(_: bytes) -> None:
        frames[0] += 1

    streams = []
    for group in range(GROUPS):
        for _ in range(4):
            conn = await Conn(port).open()
            streams.append(asyncio.create_task(conn.stream(f"/streams/{group}", "token", seen)))
    await asyncio.sleep(0.5)
    # paced a little: a push loop without pause would starve the streams' writes of the loop
    rate, per = await closed_loops([Conn(port) for _ in range(GROUPS)], "/push/{}", 0.002, seconds, pid)
    print(f"pushes: {rate:,.0f}/s ({frames[0] / (seconds + 1.5):,.0f} frames/s seen), server {per * 1e6:.0f} us of "
          f"CPU per push: its request and 4 frames of {len(FRAME)} bytes")
    for stream in streams:
        stream.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server's own process
    options = parser.parse_args()
    if options.serve:
        import uvicorn

        uvicorn.run(app, host="127.0.0.1", port=options.serve, loop="uvloop", http="httptools",
                    log_level="warning", access_log=False, lifespan="off")
        return
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)])
    try:
        for _ in range(100):
            try:
                asyncio.run(asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 1))
                break
            except OSError:
                time.sleep(0.1)
        asyncio.run(measure(port, server.pid, options.seconds))
    finally:
        server.kill()


if __name__ == "__main__":
    main()
