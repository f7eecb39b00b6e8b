"""``tavern serve``: settings checked and Redis reached (startup.py), then the gateway; on SIGTERM,
stop within ``stop_s``."""

from __future__ import annotations

import asyncio
import socket

import uvicorn

from services.cli.startup import checked_settings
from services.gateway import ws_endpoint
from services.gateway.acceptor import Acceptor
from services.gateway.app import create_app
from services.gateway.coalescing import CoalescingHttpProtocol
from services.ops import collector, logs, stopping

log = logs.get("tavern.serve")


def run(host: str, port: int, embedded_worker: bool = False) -> int:
    config = checked_settings("serve")
    if config is None:
        return 1
    app = create_app(config, embedded_worker=embedded_worker or config.embedded)
    stop_s = config.stop_s
    where = "an embedded in-memory Redis (fakeredis)" if config.embedded else "Redis at REDIS_URL"

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup([])  # the app's lifespan; the listening is the Acceptor's
            config = self.config
            listening = config.bind_socket()  # exits the process if it cannot bind

            def protocol() -> asyncio.Protocol:  # as uvicorn's server makes each connection's
                return config.http_protocol_class(  # type: ignore[call-arg]
                    config=config, server_state=self.server_state, app_state=self.lifespan.state
                )

            self.servers = [Acceptor(listening, protocol, config.backlog)]  # type: ignore[list-item]
            collector.settle()
            print(f"tavern: serving on http://{host}:{port} with {where}", flush=True)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # stop accepting, then end every stream with a retry hint (its client resumes, with
            # Last-Event-ID, on another gateway); uvicorn then waits for the commands in flight
            for server in self.servers:
                server.close()
            app.state.hub.close()
            stopping.exit_after(stop_s)
            await super().shutdown(sockets)

    # the client's address, which the per-address rates and quota count by, is taken from
    # X-Forwarded-For when the peer is a proxy FORWARDED_ALLOW_IPS trusts (uvicorn's default:
    # 127.0.0.1 and ::1; the kit names its nginx's address, never "*", with which a client's own
    # header would be believed), and of a list, the last address not one of those proxies:
    # without it, behind a proxy, every client would share the proxy's one address
    server_config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        log_config=None,  # uvicorn's lines go through the root logger: JSON (services/ops/logs.py)
        access_log=False,
        lifespan="on",
        # a request's headers within TAVERN_HEADER_TIMEOUT_S of its connection's opening (or the
        # answer before), an idle kept-alive connection closed after TAVERN_KEEPALIVE_S
        http=CoalescingHttpProtocol.with_header_timeout(config.limits.header_timeout_s),
        timeout_keep_alive=max(1, config.limits.keepalive_s),
        proxy_headers=True,
        ws_max_size=config.limits.command_body_bytes + ws_endpoint.ENVELOPE_BYTES,  # a WebSocket message: a command
        # what is still open then is cancelled; the rest of the bound is the lifespan's shutdown
        timeout_graceful_shutdown=max(1, int(config.stop_s - 2)),
    )
    Server(server_config).run()
    return 0
