"""The limits on a real redis-server, held by two gateways sharing them: a body over its cap is
answered 413 and appends nothing, a burst past a rate 429 with Retry-After (counted across both
gateways), a slow body is answered 408 and its connection closed within the time limit, match
creation needs an API key once keys are set."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
import redis

from services.store import keys
from tests.service.conftest import free_port, service_env, wait_healthy

API_KEY = "frontend-key-1"


@pytest.fixture
def gateways(processes, redis_url):
    """Two gateways on one Redis, with small limits, and a worker."""
    redis.Redis.from_url(redis_url).flushall()
    env = service_env(
        redis_url, TAVERN_QUEUE="limits", TAVERN_CREATES_PER_S="0.1", TAVERN_CREATES_BURST="6",
        TAVERN_COMMANDS_PER_S_TOKEN="0.1", TAVERN_COMMANDS_BURST_TOKEN="10", TAVERN_BODY_TIMEOUT_S="1",
        TAVERN_API_KEYS=f"{API_KEY},other-key",
    )
    bases = []
    for _ in range(2):
        port = free_port()
        gateway = processes(["serve", "--port", str(port)], env)
        bases.append((f"http://127.0.0.1:{port}", gateway))
    processes(["worker"], env)
    for base, gateway in bases:
        wait_healthy(base, gateway)
    return [base for base, _ in bases]


def create(base: str) -> httpx.Response:
    return httpx.post(f"{base}/v1/matches", json={"game": "mercenaries", "seats": 2}, headers={"x-api-key": API_KEY})


def test_limits_hold_across_two_gateways(gateways, redis_url):
    one, two = gateways
    # an identity is needed to create, once keys are set
    assert httpx.post(f"{one}/v1/matches", json={"game": "mercenaries", "seats": 2}).json()["error"]["code"] == (
        "api_key_required")
    wrong = httpx.post(f"{one}/v1/matches", json={"game": "mercenaries", "seats": 2}, headers={"x-api-key": "x"})
    assert wrong.status_code == 401

    # a create burst of 6, shared: alternating gateways, the 7th is refused with Retry-After
    answers = [create(base) for base in (one, two) * 4]
    statuses = [a.status_code for a in answers]
    assert statuses[:6] == [201] * 6 and 429 in statuses[6:], statuses
    refused = next(a for a in answers if a.status_code == 429)
    assert refused.json()["error"]["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1

    created = answers[0].json()
    url = f"/v1/matches/{created['match_id']}"
    token = {"authorization": f"Bearer {created['seats'][0]['token']}"}
    log = keys.log(created["match_id"])
    length = redis.Redis.from_url(redis_url).xlen(log)

    # a body over the cap: 413, nothing appended
    big = b'{"type": "EndPhase", "pad": "' + b"x" * 5000 + b'"}'
    over = httpx.post(f"{one}{url}/commands", content=big, headers=token)
    assert over.status_code == 413 and over.json()["error"]["code"] == "body_too_large"
    assert redis.Redis.from_url(redis_url).xlen(log) == length

    # a command burst of 10 per token, shared by both gateways
    commands = [httpx.post(f"{base}{url}/commands", json={"type": "EndPhase"}, headers=token).status_code
                for base in (one, two) * 7]
    assert 429 in commands and commands.index(429) == 10, commands

    # headers over their cap
    assert httpx.get(f"{one}{url}/view", headers=token | {"x-pad": "y" * 9000}).status_code == 431


def test_a_slow_body_is_answered_and_closed_within_the_limit(gateways):
    host, port = gateways[0].removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"game\":")
        started = time.monotonic()
        received = b""
        while chunk := sock.recv(4096):  # until the server closes
            received += chunk
        waited = time.monotonic() - started
    assert received.startswith(b"HTTP/1.1 408") and b"body_timeout" in received
    assert 0.9 <= waited < 3, waited
