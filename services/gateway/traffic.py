"""HTTP requests counted by route, method and status (the ``tavern_http_requests`` family)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.routing import BaseRoute, Match, Route

from services.ops.metrics import Metrics

WEB = "web"  # the web client's files, and any path no route of the API matches


def label(template: str) -> str:
    # a match's routes keep the label they always had (alerts and dashboards name them so)
    return template.replace("{match_id}", "{id}")


class Routes:
    """The route template a request falls under, by Starlette's own matching: a bounded set of
    labels, never an id."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self._routes = [(route, label(route.path)) for route in routes if isinstance(route, Route)]
        # the leaves of /v1/matches/{id}/<leaf>, every read of a match: told without a regex each (a
        # deeper path, /v1/matches/{id}/chat/export, is matched as any other: its last word is no leaf)
        prefix = "/v1/matches/{id}/"
        leaves = [name for _, name in self._routes if name.startswith(prefix)]
        self._leaves = {name[len(prefix) :]: name for name in leaves if "/" not in name[len(prefix) :]}

    def of(self, scope: Any, leaf: str, match_id: str | None) -> str:
        if match_id is not None and leaf in self._leaves:
            return self._leaves[leaf]
        found = self.matching(scope)
        return WEB if found is None else found[1]

    def matching(self, scope: Any) -> tuple[Route, str] | None:
        """The route of the request's path (with its label), whether it takes the method or not."""
        for route, name in self._routes:
            if route.matches(scope)[0] is not Match.NONE:  # PARTIAL: the path, with another method (a 405)
                return route, name
        return None


def counting(metrics: Metrics, route: str, method: str, send: Any) -> Any:
    """``send``, counting the response's status when it starts."""

    async def counted(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            metrics.request(route, method, message["status"])
        await send(message)

    return counted
