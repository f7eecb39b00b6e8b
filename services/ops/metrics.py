"""Prometheus metrics (prometheus_client), the same families on gateways and workers (deploy/README.md).

Multi-process safe: with ``PROMETHEUS_MULTIPROC_DIR`` set (several processes behind one port, e.g.
uvicorn ``--workers``), each process writes its values there and a scrape adds them up. The command
path's children (``labels()``) are cached per game, type and outcome, so a command costs a dict
lookup and an increment per family.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
    multiprocess,
    start_http_server,
)

disable_created_metrics()  # no ``_created`` series beside every counter and histogram: noise to an operator
CONTENT_TYPE = CONTENT_TYPE_LATEST
# from a tenth of a millisecond (an append on a quiet Redis) to tens of seconds (a stalled projector)
SECONDS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

COMMANDS = Counter(
    "tavern_commands",
    "Commands answered, by game, command type, outcome and refusal code.",
    ["game", "type", "outcome", "code"],
)
HTTP = Counter(
    "tavern_http_requests", "HTTP requests answered, by route, method and status.", ["route", "method", "status"]
)
APPEND = Histogram("tavern_append_seconds", "One conditional append (append.lua), seconds.", buckets=SECONDS)
DECIDE = Histogram("tavern_decide_seconds", "Deciding one command on its fold (the rules), seconds.", buckets=SECONDS)
PROJECTION = Histogram(
    "tavern_projection_seconds",
    "Projecting one batch of claimed matches (fold, views, write), seconds.",
    buckets=SECONDS,
)
# a move's way to its streams, stage by stage (issue 31: which one a tail at saturation waits in)
PROJECTOR_WAIT = Histogram(
    "tavern_projector_wait_seconds",
    "From a match turning dirty (its views behind its log) to a drain job claiming it, seconds.",
    buckets=SECONDS,
)
SUBSCRIBE = Histogram(
    "tavern_subscribe_seconds",
    "From a match's first stream on a gateway to its channel's subscription confirmed there, seconds.",
    buckets=SECONDS,
)
DELIVERY = Histogram(
    "tavern_delivery_seconds",
    "From a gateway hearing a match's notice to its views offered to the match's streams there, seconds.",
    buckets=SECONDS,
)
COMMAND_TO_VIEW = Histogram(
    "tavern_command_to_view_seconds",
    "From an event's append to the notice of its views, as a gateway hears it, seconds.",
    buckets=SECONDS,
)
BACKLOG = Gauge("tavern_projector_backlog", "Matches whose views are behind their log.", multiprocess_mode="max")
BACKLOG_AGE = Gauge(
    "tavern_projector_backlog_age_seconds",
    "How long the longest-waiting dirty match has waited.",
    multiprocess_mode="max",
)
CREATED = Counter("tavern_matches_created", "Matches created, by game.", ["game"])
FINISHED = Counter("tavern_matches_finished", "Matches finished (first projected with a result), by game.", ["game"])
ABANDONED = Counter(
    "tavern_matches_abandoned", "Matches ended as abandoned (every person left, or idle too long), by game.", ["game"]
)
ARCHIVED = Counter("tavern_matches_archived", "Matches archived and evicted from Redis, by how they ended.", ["ended"])
HIBERNATED = Counter("tavern_matches_hibernated", "Matches hibernated: out of Redis to the archive, by game.", ["game"])
WOKEN = Counter("tavern_matches_woken", "Hibernated matches brought back into Redis, by game.", ["game"])
WAKE = Histogram("tavern_wake_seconds", "Bringing one hibernated match back (archive read and restore), seconds.",
                 buckets=SECONDS)
ACTIVE = Gauge(
    "tavern_matches_active", "Matches being played (listed live), by game.", ["game"], multiprocess_mode="max"
)
STREAMS = Gauge("tavern_open_streams", "SSE streams open.", multiprocess_mode="livesum")
# counted by services/store/outage.py, which knows what Redis raises
REDIS_ERRORS = Counter(
    "tavern_redis_errors", "Redis errors met (connection lost, timeout, refused), by where.", ["where"]
)
RECONNECTS = Counter("tavern_redis_reconnects", "Connections to Redis opened again after one was lost.")


class Metrics:
    """The process's metric children the hot paths use, cached."""

    def __init__(self) -> None:
        self._commands: dict[tuple[str, str, str, str], Counter] = {}
        self._http: dict[tuple[str, str, int], Counter] = {}
        self.append_seconds = APPEND
        self.decide_seconds = DECIDE
        self.projection_seconds = PROJECTION
        self.projection_lag = COMMAND_TO_VIEW
        self.subscribe_seconds = SUBSCRIBE
        self.delivery_seconds = DELIVERY
        self._open_streams = 0

    def command(self, game: str, kind: str, outcome: str, code: str = "") -> None:
        key = (game, kind, outcome, code)
        child = self._commands.get(key)
        if child is None:
            child = self._commands[key] = COMMANDS.labels(*key)
        child.inc()

    def request(self, route: str, method: str, status: int) -> None:
        key = (route, method, status)
        child = self._http.get(key)
        if child is None:
            child = self._http[key] = HTTP.labels(route, method, str(status))
        child.inc()

    @property
    def open_streams(self) -> int:
        return self._open_streams

    @open_streams.setter
    def open_streams(self, value: int) -> None:
        STREAMS.inc(value - self._open_streams)
        self._open_streams = value

    def text(self) -> bytes:
        """The exposition of every family: this process's, or all processes' with PROMETHEUS_MULTIPROC_DIR."""
        return generate_latest(scraped())


def scraped() -> CollectorRegistry:
    """What a scrape reads: this process's registry, or with PROMETHEUS_MULTIPROC_DIR every process's
    values added up, and this process's CPU, memory and descriptors (not kept across processes)."""
    if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    ProcessCollector(registry=registry)
    return registry


def serve(port: int, host: str = "0.0.0.0") -> None:
    """A worker's /metrics: an HTTP server of its own on ``port`` (in a thread)."""
    start_http_server(port, host, registry=scraped())


def prime(game_ids: list[str]) -> None:
    """Every labelled family's series at zero from the start: a rate needs its series before the first event."""
    for game_id in game_ids:
        for family in (CREATED, FINISHED, ABANDONED, ACTIVE):
            family.labels(game_id)
    for ended in ("finished", "abandoned"):
        ARCHIVED.labels(ended)
    for where in ("connect", "connection_lost", "timeout", "command", "sweeper", "enqueue", "projector", "archiver"):
        REDIS_ERRORS.labels(where)


def gauge_lifecycle(backlog: int, backlog_age_s: float, active: dict[str, int]) -> None:
    """What the runtime's sweeper reads every second: the projector's backlog and the live matches."""
    BACKLOG.set(backlog)
    BACKLOG_AGE.set(max(0.0, backlog_age_s))
    for game_id, count in active.items():
        ACTIVE.labels(game_id).set(count)
