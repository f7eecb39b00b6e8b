"""Which requests are reads the rate limits count (services/gateway/rate_limit.py ``reads``), and
which of them are heavy: every GET under /v1/ (views, the stream's opening, events, replay,
export, games and their content, the lobby, players, leaderboards); the heavy ones do a whole
log's work (a 2,213-entry match's replay costs the gateway ~135 ms of CPU): replay, export, and
events from the start (no ``after``, or 0). Events after a version, as the web client asks for
each time its view moves on, read only the tail. The web client's files, the probes, /metrics and
/openapi.json are not counted."""

from __future__ import annotations

from urllib.parse import parse_qs

from services.gateway import asgi

METHODS = frozenset({"GET", "HEAD"})
PREFIX = "/v1/"
HEAVY = frozenset({"replay", "export"})


def counted(method: str, path: str) -> bool:
    return method in METHODS and path.startswith(PREFIX)


def heavy(scope: asgi.Scope, leaf: str, match_id: str | None) -> bool:
    if match_id is None:
        return False
    if leaf in HEAVY:
        return True
    if leaf == "events":
        after = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("after", ["0"])[-1]
        return not after.isdigit() or int(after) == 0
    return False
