"""A gateway and a worker (real processes, a real Redis) after played matches (one played to the end
by bots, one by a human seat that goes idle and is abandoned; both archived):

- scraped, every family of services/ops/metrics.py is there, with the counts the matches' logs say;
- every line either process logged (standard error) is JSON, uvicorn's and RQ's too; every line that
  concerns a match names it; each match has its lifecycle lines; a refusal's line has its code."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.audit.forgery import entry_lines
from tests.service.client import bearer, create, read_stream, seat_token, view
from tests.service.conftest import ROOT, free_port, service_env, start_redis, wait_healthy

pytestmark = pytest.mark.anyio


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(scraped: dict, name: str, **labels: str) -> float:
    return scraped.get((name, frozenset(labels.items())), 0.0)


def total(scraped: dict, name: str, **labels: str) -> float:
    """The sum over every series of ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in scraped.items() if n == name and wanted <= have)


FAMILIES = [
    "tavern_commands_total",
    "tavern_http_requests_total",
    "tavern_append_seconds_count",
    "tavern_decide_seconds_count",
    "tavern_projection_seconds_count",
    "tavern_command_to_view_seconds_count",
    "tavern_projector_wait_seconds_count",
    "tavern_subscribe_seconds_count",
    "tavern_delivery_seconds_count",
    "tavern_projector_backlog",
    "tavern_projector_backlog_age_seconds",
    "tavern_matches_created_total",
    "tavern_matches_finished_total",
    "tavern_matches_abandoned_total",
    "tavern_matches_archived_total",
    "tavern_matches_active",
    "tavern_open_streams",
    "tavern_redis_errors_total",
    "tavern_redis_reconnects_total",
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
]


# the log events that concern one match: each must name it
ABOUT_A_MATCH = {"command", "command_failed", "bot_refused", "match_created", "match_started", "match_finished"}
ABOUT_A_MATCH |= {"match_abandoned", "match_archived", "projected"}


async def test_a_gateway_and_a_worker_count_and_log_what_happened(tmp_path):
    server, url = start_redis(tmp_path)
    started: list[subprocess.Popen] = []
    try:
        await observed(tmp_path, url, started)
    finally:
        for process in started:
            process.kill()
            process.wait(10)
        server.terminate()
        server.wait(10)


def spawn(tmp_path: Path, name: str, args: list[str], env: dict[str, str], started: list) -> Path:
    """A `tavern` process; its standard error (the log) to a file of its own, returned."""
    errors = tmp_path / f"{name}.err"
    with open(tmp_path / f"{name}.out", "wb") as out, open(errors, "wb") as err:
        started.append(
            subprocess.Popen([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=env, stdout=out, stderr=err)
        )
    return errors


async def observed(tmp_path: Path, url: str, started: list) -> None:
    port, metrics_port = free_port(), free_port()
    quick = {"TAVERN_ARCHIVE_DIR": str(tmp_path / "archive"), "TAVERN_ARCHIVE_EVERY_S": "0.2", "LOG_LEVEL": "info"}
    env = service_env(url, TAVERN_QUEUE="metrics", TAVERN_IDLE_LIMIT_S="4", TAVERN_ARCHIVE_GRACE_S="1", **quick)
    gateway_log = spawn(tmp_path, "gateway", ["serve", "--port", str(port)], env, started)
    worker_log = spawn(tmp_path, "worker", ["worker"], env | {"TAVERN_WORKER_METRICS_PORT": str(metrics_port)}, started)
    wait_healthy(f"http://127.0.0.1:{port}", started[0])
    with socket.create_connection(("127.0.0.1", port)) as garbage:  # uvicorn logs a warning of its own
        garbage.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        garbage.recv(1024)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as api:
        bots_only = (await api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": [0, 1]})).json()
        played = await create(api, seats=3, bots=[1, 2])
        seen = await view(api, played, seat_token(played, 0))
        url_of = f"/v1/matches/{played['match_id']}"
        # streamed before the command: a gateway hears the notices of the matches it streams only
        streamed: list = []
        stream = asyncio.create_task(read_stream(api, f"{url_of}/stream", played["spectator_token"], streamed))
        while not streamed:
            await asyncio.sleep(0.05)
        accepted = await api.post(f"{url_of}/commands", json=seen["legal"][0], headers=bearer(seat_token(played, 0)))
        assert accepted.status_code == 200, accepted.text
        again = await api.post(f"{url_of}/commands", json=seen["legal"][0], headers=bearer(seat_token(played, 0)))
        assert again.status_code == 422, again.text
        code = again.json()["error"]["code"]
        garbled = await api.post(f"{url_of}/commands", content=b"{", headers=bearer(seat_token(played, 0)))
        assert garbled.status_code == 400
        deadline = time.monotonic() + 10  # the sweeper reads the live matches every second
        while value(samples((await api.get("/metrics")).text), "tavern_matches_active", game="heros-tavern") != 1:
            assert time.monotonic() < deadline, "the played match is not counted active"
            await asyncio.sleep(0.1)
        spectator = bearer(bots_only["spectator_token"])
        deadline = time.monotonic() + 60
        while (await api.get(f"/v1/matches/{bots_only['match_id']}/view", headers=spectator)).json()[
            "status"
        ] != "finished":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        export = (await api.get(f"/v1/matches/{bots_only['match_id']}/export", headers=spectator)).content
        final = (await api.get(f"/v1/matches/{bots_only['match_id']}/view", headers=spectator)).json()
        final_winners = final["result"]["winners"]
        while not streamed:
            await asyncio.sleep(0.05)
        gateway_text = (await api.get("/metrics")).text
        # the played match goes idle: abandoned after 4 s, then both are archived after 1 s of grace
        worker_url = f"http://127.0.0.1:{metrics_port}/metrics"
        deadline = time.monotonic() + 30
        while total(worker := samples((await api.get(worker_url)).text), "tavern_matches_archived_total") < 2:
            assert time.monotonic() < deadline, "the matches were not archived"
            await asyncio.sleep(0.2)
        stream.cancel()

    gateway_seen = samples(gateway_text)
    for scraped, skipped in ((gateway_seen, ()), (worker, ("tavern_http_requests_total",))):  # no API there
        missing = [name for name in FAMILIES if name not in skipped and not any(n == name for n, _ in scraped)]
        assert not missing, missing
    # the gateway: the human seat's three commands, the requests, the match created, the open stream
    kind = seen["legal"][0]["type"]
    game = {"game": "heros-tavern", "type": kind}
    assert value(gateway_seen, "tavern_commands_total", **game, outcome="accepted", code="") == 1
    assert value(gateway_seen, "tavern_commands_total", **game, outcome="refused", code=code) == 1
    assert total(gateway_seen, "tavern_commands_total", outcome="bad_request", code="bad_command") == 1
    commands_route = {"route": "/v1/matches/{id}/commands", "method": "POST"}
    for status in ("200", "422", "400"):
        assert value(gateway_seen, "tavern_http_requests_total", **commands_route, status=status) == 1
    assert value(gateway_seen, "tavern_http_requests_total", route="/v1/matches", method="POST", status="201") == 2
    for game_id in ("heros-tavern", "mercenaries"):
        assert value(gateway_seen, "tavern_matches_created_total", game=game_id) == 1
    assert value(gateway_seen, "tavern_open_streams") == 1
    # the accepted command appended here (again for a bot's pick that beat it to the log, each a
    # decision again; a match's opening may be decided here too); the refused one decided, not appended
    appends = value(gateway_seen, "tavern_append_seconds_count")
    assert 1 <= appends <= value(gateway_seen, "tavern_decide_seconds_count") - 1
    assert value(gateway_seen, "tavern_command_to_view_seconds_count") >= 1
    # the stream's match subscribed here, and a notice's views offered to it
    assert value(gateway_seen, "tavern_subscribe_seconds_count") >= 1
    assert value(gateway_seen, "tavern_delivery_seconds_count") >= 1
    # the worker: every bot command in the finished match's log, its finish, the abandonment, the archive
    entries = [json.loads(json.loads(line)["body"]) for line in entry_lines(export)[1:]]
    bot_commands = len({entry["command"]["id"] for entry in entries if entry["command"]["seat"] is not None})
    assert total(worker, "tavern_commands_total", game="mercenaries", outcome="accepted") == bot_commands
    assert value(worker, "tavern_matches_finished_total", game="mercenaries") == 1
    assert value(worker, "tavern_matches_abandoned_total", game="heros-tavern") == 1
    assert value(worker, "tavern_matches_archived_total", ended="finished") == 1
    assert value(worker, "tavern_matches_archived_total", ended="abandoned") == 1
    assert value(worker, "tavern_matches_active", game="heros-tavern") == 0
    assert value(worker, "tavern_projection_seconds_count") >= 1
    assert value(worker, "tavern_projector_wait_seconds_count") >= 1
    assert total(worker, "tavern_redis_errors_total") == 0 and value(worker, "tavern_redis_reconnects_total") == 0

    time.sleep(0.5)  # the last lines flushed
    lines = {name: log.read_text().splitlines() for name, log in (("gateway", gateway_log), ("worker", worker_log))}
    parsed = {name: [json.loads(line) for line in found] for name, found in lines.items()}  # every line JSON
    assert all(
        isinstance(line, dict) and {"event", "level", "timestamp"} <= line.keys()
        for found in parsed.values()
        for line in found
    )
    every = parsed["gateway"] + parsed["worker"]
    assert any(line.get("logger") == "uvicorn.error" for line in parsed["gateway"]), "no uvicorn line"
    unnamed = [line for line in every if line["event"] in ABOUT_A_MATCH and not line.get("match_id")]
    assert not unnamed
    lifecycle = {(line["event"], line["match_id"]): line for line in every if line["event"].startswith("match_")}
    done, idle = bots_only["match_id"], played["match_id"]
    for event in ("match_created", "match_started", "match_finished", "match_archived"):
        assert (event, done) in lifecycle, event
    for event in ("match_created", "match_started", "match_abandoned", "match_archived"):
        assert (event, idle) in lifecycle, event
    assert lifecycle["match_finished", done]["winners"] == final_winners
    assert lifecycle["match_archived", done]["ended"] == "finished"
    assert lifecycle["match_archived", idle]["ended"] == "abandoned"
    refusals = [line for line in parsed["gateway"] if line["event"] == "command" and line["outcome"] == "refused"]
    assert [(line["match_id"], line["seat"], line["code"]) for line in refusals] == [(idle, 0, code)]
