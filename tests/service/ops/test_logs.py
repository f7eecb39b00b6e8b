"""services/ops/logs.py: JSON lines carrying what is bound (match id, seat, command id), each task its
own, and a bind undone when its block ends."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest
from rq.logutils import setup_loghandlers

from services.ops import logs


@pytest.fixture
def lines():
    stream = io.StringIO()
    logs.configure("info", stream)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logs.configure("warning")


def test_a_line_carries_what_is_bound_and_a_bind_undoes_itself(lines):
    log = logs.get("test")
    with logs.bind(match_id="m1", seat=2, command_id="c1"):
        log.info("inside", seat=3)  # the line's own value wins
        with logs.bind(command_id="c2"):
            log.info("nested")
        log.info("after nested")
    log.info("outside")
    got = [{key: line.get(key) for key in ("event", "match_id", "seat", "command_id")} for line in lines()]
    assert got == [
        {"event": "inside", "match_id": "m1", "seat": 3, "command_id": "c1"},
        {"event": "nested", "match_id": "m1", "seat": 2, "command_id": "c2"},
        {"event": "after nested", "match_id": "m1", "seat": 2, "command_id": "c1"},
        {"event": "outside", "match_id": None, "seat": None, "command_id": None},
    ]


def test_concurrent_tasks_each_log_their_own(lines):
    log = logs.get("test")

    async def command(seat: int) -> None:
        with logs.bind(match_id="m", seat=seat):
            await asyncio.sleep(0.01 * (3 - seat))  # the others bind and log meanwhile
            log.info("command")

    async def all_of_them() -> None:
        await asyncio.gather(*(command(seat) for seat in range(3)))

    asyncio.run(all_of_them())
    assert sorted(line["seat"] for line in lines()) == [0, 1, 2]


def test_the_standard_librarys_lines_are_json_too(lines):
    """uvicorn's and RQ's loggers (and any other) go through the same JSON, a traceback in one line;
    RQ adds no plain-text handler of its own where ours is in effect."""
    setup_loghandlers("WARNING")
    logging.getLogger("rq.worker").warning("could not connect to Redis instance")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("uvicorn.error").exception("Exception in ASGI application")
    with logs.bind(match_id="m1"):
        logging.getLogger("rq.worker").info("below the level: not written")
    got = lines()
    assert [(line["logger"], line["level"], line["event"]) for line in got] == [
        ("rq.worker", "warning", "could not connect to Redis instance"),
        ("uvicorn.error", "error", "Exception in ASGI application"),
    ]
    assert "RuntimeError: boom" in got[1]["exception"]
