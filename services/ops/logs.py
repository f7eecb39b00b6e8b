"""Logging: structlog, one JSON object per line, bound to match id, seat and command id."""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar, Token
from typing import Any, TextIO

import structlog
from structlog.typing import EventDict, Processor

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def configure(level: str = "info", stream: TextIO | None = None) -> None:
    """JSON lines at ``level`` and above, to ``stream`` (standard error unless given): ours, and
    those of every library that logs through the standard library (uvicorn, RQ, redis-py, asyncio),
    whose records go through structlog's ProcessorFormatter into the same JSON."""
    out = stream or sys.stderr
    shared: list[Processor] = [
        merge_bound, structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso", utc=True)
    ]
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, structlog.processors.JSONRenderer()],
        # a filtering logger makes a disabled level cost one method call, not a processor chain
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS.get(level, logging.INFO)),
        logger_factory=structlog.WriteLoggerFactory(out),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(out)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *shared, structlog.stdlib.ExtraAdder()],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,  # a traceback as one JSON string, not lines of text
                structlog.processors.JSONRenderer(),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers = [handler]  # RQ adds its plain-text handlers only where none is in effect
    root.setLevel(LEVELS.get(level, logging.INFO))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "rq", "rq.worker"):
        logging.getLogger(name).handlers = []  # theirs, if they configured any: every line goes through the root
        logging.getLogger(name).propagate = True


def get(name: str) -> structlog.typing.FilteringBoundLogger:
    return structlog.get_logger(name)


_bound: ContextVar[dict[str, Any]] = ContextVar("tavern_log_bound", default={})  # noqa: B039 (never mutated: bind sets a new dict)


def merge_bound(logger: Any, method: str, event: EventDict) -> EventDict:
    """The structlog processor that adds what ``bind`` holds (a line's own values win)."""
    return {**_bound.get(), **event}


class bind:
    """``with bind(match_id=..., seat=...)``: those values on every line logged inside (in this
    task), then what was bound before. One context variable holds them all, so a command's bind
    and its undoing are two operations (structlog's own keep a variable per key: 9 µs a command
    against 1.5, on every command whether it logs a line or not)."""

    __slots__ = ("_token", "_values")

    def __init__(self, **values: Any) -> None:
        self._values = values

    def __enter__(self) -> None:
        self._token: Token[dict[str, Any]] = _bound.set({**_bound.get(), **self._values})

    def __exit__(self, *exc: object) -> None:
        _bound.reset(self._token)
