"""``tavern serve`` and ``tavern worker``: settings from the environment (checked), JSON logs,
Redis reached (or one line and a non-zero exit), then run; on SIGTERM, stop within ``stop_s``."""

from __future__ import annotations

import sys

import uvicorn

from services.gateway import ws_endpoint
from services.gateway.app import create_app
from services.gateway.coalescing import CoalescingHttpProtocol
from services.ops import collector, logs, reach, settings, stopping
from services.projector import worker

log = logs.get("tavern.serve")


def _settings(command: str) -> settings.Settings | None:
    """The settings, once every Redis they name answers; else None, having said why in one line."""
    try:
        config = settings.from_env()
    except settings.BadSetting as problem:
        print(f"tavern {command}: {problem}", file=sys.stderr)
        return None
    logs.configure(config.log_level)
    problem = None if config.embedded else reach.unreachable(config)
    if problem is not None:
        print(f"tavern {command}: {problem}", file=sys.stderr)
        return None
    return config


def run(host: str, port: int, embedded_worker: bool = False) -> int:
    config = _settings("serve")
    if config is None:
        return 1
    app = create_app(config, embedded_worker=embedded_worker or config.embedded)
    where = "an embedded in-memory Redis (fakeredis)" if config.embedded else "Redis at REDIS_URL"

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)  # exits the process if it cannot listen
            collector.settle()
            print(f"tavern: serving on http://{host}:{port} with {where}", flush=True)

        async def shutdown(self, sockets=None) -> None:
            # stop accepting, then end every stream with a retry hint (its client resumes, with
            # Last-Event-ID, on another gateway); uvicorn then waits for the commands in flight
            for server in self.servers:
                server.close()
            app.state.hub.close()
            stopping.exit_after(config.stop_s)
            await super().shutdown(sockets)

    # the client's address, which the per-address rates and quota count by, is taken from
    # X-Forwarded-For when the peer is a proxy FORWARDED_ALLOW_IPS trusts (127.0.0.1 by default):
    # without it, behind a proxy, every client would share the proxy's one address
    server_config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        log_config=None,  # uvicorn's lines go through the root logger: JSON (services/ops/logs.py)
        access_log=False,
        lifespan="on",
        http=CoalescingHttpProtocol,
        proxy_headers=True,
        ws_max_size=config.limits.command_body_bytes + ws_endpoint.ENVELOPE_BYTES,  # a WebSocket message: a command
        # what is still open then is cancelled; the rest of the bound is the lifespan's shutdown
        timeout_graceful_shutdown=max(1.0, config.stop_s - 2),
    )
    Server(server_config).run()
    return 0


def run_worker() -> int:
    config = _settings("worker")
    if config is None:
        return 1
    if config.embedded:
        print("tavern worker: set REDIS_URL (an embedded Redis lives inside `tavern serve`)", file=sys.stderr)
        return 2
    return worker.run(config)
