"""schemathesis over every operation of /openapi.json against a real gateway (`tavern serve` and a
`tavern worker`, subprocesses) on a real redis-server: no server error, every answer conforming to
the schema its operation declares for its status. Bounded: a few examples per operation.

The match-scoped operations run on real matches (a running one for POSTs, a finished one for
GETs) with a seat's token: on random ids every answer would be the same 404. GET /stream is left
out: its answer never ends (tests/service/gateway/test_stream.py and test_answers_match_schemas.py
check it)."""

from __future__ import annotations

import time
from collections import Counter

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, checks

from tests.service.client import bearer, seat_token
from tests.service.conftest import free_port, service_env, spawn, start_redis, wait_healthy

EXAMPLES = 20  # per operation
# a schema-valid command is still refused by the rules (422) most of the time: positive data
# acceptance is not a check this API can pass; every answer's conformance is
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A gateway and a worker on a real redis-server; a running match and a finished one."""
    directory = tmp_path_factory.mktemp("schemathesis")
    server, url = start_redis(directory)
    env = service_env(url, TAVERN_QUEUE="schemathesis")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(directory / "service.log", "wb")  # noqa: SIM115 (closed at the end)
    started = [spawn(["serve", "--port", str(port)], env, log), spawn(["worker"], env, log)]
    try:
        wait_healthy(base, started[0])
        running = httpx.post(f"{base}/v1/matches", json={"game": "heros-tavern", "seats": 3}).json()
        finished = httpx.post(
            f"{base}/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": [0, 1], "bot": "random"}
        ).json()
        for _ in range(600):
            view = httpx.get(f"{base}/v1/matches/{finished['match_id']}/view", headers=bearer(seat_token(finished, 0)))
            if view.json()["status"] == "finished":
                break
            time.sleep(0.05)
        else:
            pytest.fail("the bots' match did not finish")
        yield base, running, finished
    finally:
        for process in started:
            process.kill()
            process.wait(10)
        log.close()
        server.kill()
        server.wait(10)


def test_every_operation_answers_as_declared(live):
    schema = schemathesis.openapi.from_url(f"{live[0]}/openapi.json").exclude(path="/v1/matches/{match_id}/stream")
    counts: Counter[str] = Counter()
    operations: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in GenerationMode:
            run_cases(operation, mode, live, counts)
        operations.append(operation.method.upper() + " " + operation.path)
    print(sum(counts.values()), "cases:", dict(counts))
    assert len(operations) >= 10 and all(counts[f"{name} positive"] for name in operations)


def run_cases(operation, mode: GenerationMode, live, counts: Counter[str]) -> None:
    """EXAMPLES cases of one operation: schema-valid ones, or (NEGATIVE) ones its schema refuses,
    which must be refused with a 4xx."""
    base, running, finished = live
    extra = [checks.negative_data_rejection] if mode is GenerationMode.NEGATIVE else []

    @given(case=operation.as_strategy(mode))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def answers_as_declared(case) -> None:
        if "match_id" in (case.path_parameters or {}):
            match = running if case.method == "POST" else finished
            case.path_parameters["match_id"] = match["match_id"]
            case.headers = {**(case.headers or {}), **bearer(seat_token(match, 0))}
        case.call_and_validate(base_url=base, checks=CHECKS + extra)
        counts[f"{case.method} {case.path} {mode.value}"] += 1

    try:
        answers_as_declared()
    except Unsatisfiable:
        assert mode is GenerationMode.NEGATIVE  # an operation that takes nothing has no invalid input
