"""HTTP requests counted by route, method and status (the ``tavern_http_requests`` family)."""

from __future__ import annotations

from typing import Any

from services.ops.metrics import Metrics

# the paths of the API; every other path is the web client's (or unknown)
_PLAIN = frozenset({"/v1/games", "/v1/matches", "/healthz", "/metrics", "/openapi.json", "/bench/floor"})
_ROUTES = {
    leaf: f"/v1/matches/{{id}}/{leaf}"
    for leaf in ("commands", "view", "stream", "events", "replay", "export", "entropy")
}


def route_of(path: str, leaf: str, match_id: str | None) -> str:
    """The route template a request path falls under: a bounded set of labels, never an id."""
    if match_id is not None:
        return _ROUTES.get(leaf, "other")
    return path if path in _PLAIN else "web"


def counting(metrics: Metrics, route: str, method: str, send: Any) -> Any:
    """``send``, counting the response's status when it starts."""

    async def counted(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            metrics.request(route, method, message["status"])
        await send(message)

    return counted
