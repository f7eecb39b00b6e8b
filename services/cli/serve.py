"""``tavern serve`` and ``tavern worker``: settings from the environment, JSON logs, then run."""

from __future__ import annotations

import sys

import uvicorn

from services.gateway.app import create_app
from services.gateway.coalescing import CoalescingHttpProtocol
from services.ops import collector, logs, settings
from services.projector import worker

log = logs.get("tavern.serve")


def run(host: str, port: int, embedded_worker: bool = False) -> int:
    config = settings.from_env()
    logs.configure(config.log_level)
    app = create_app(config, embedded_worker=embedded_worker or config.embedded)
    where = "an embedded in-memory Redis (fakeredis)" if config.embedded else "Redis at REDIS_URL"
    print(f"tavern: serving on http://{host}:{port} with {where}", flush=True)

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            collector.settle()

    # no proxy-header rewriting: nothing here reads the client's address or the scheme, and the
    # middleware is a layer every request pays for
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        log_config=None,  # uvicorn's lines go through the root logger: JSON (services/ops/logs.py)
        access_log=False,
        lifespan="on",
        http=CoalescingHttpProtocol,
        proxy_headers=False,
    )
    server = Server(config)
    server.run()
    return 0


def run_worker() -> int:
    config = settings.from_env()
    logs.configure(config.log_level)
    if config.embedded:
        print("tavern worker: set REDIS_URL (an embedded Redis lives inside `tavern serve`)", file=sys.stderr)
        return 2
    return worker.run(config)
