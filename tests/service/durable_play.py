"""A client that plays through outages as the API tells it to: a 503 (with Retry-After) is sent again
with the same Idempotency-Key; anything but 200, 409, 422 and 503 fails the test. It keeps every
200 it was given, so a test can look for each in the exported log (nothing acknowledged lost)."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import uuid
from dataclasses import dataclass, field

import httpx
import msgspec

from projections.chain import Envelope, ExportEntry
from tests.audit.forgery import entry_lines
from tests.service.client import bearer, seat_token

GAMES = [("heros-tavern", 3), ("tavern-masters", 2), ("mercenaries", 2), ("taverna", 2)]
RETRY_S = 0.1  # sooner than Retry-After's second: the tests time how soon the service is back


@dataclass
class Tally:
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)  # (match, version, key)
    unavailable: int = 0  # answers 503
    statuses: set[int] = field(default_factory=set)


async def call(api: httpx.AsyncClient, tally: Tally, method: str, url: str, **kwargs) -> httpx.Response:
    """The answer to a request, sent again after each 503 (and a connection the gateway cut)."""
    for _ in range(600):
        try:
            answer = await api.request(method, url, **kwargs)
        except httpx.TransportError:
            await asyncio.sleep(RETRY_S)
            continue
        tally.statuses.add(answer.status_code)
        if answer.status_code != 503:
            return answer
        assert answer.headers.get("retry-after") and answer.json()["error"]["code"] == "unavailable", answer.text
        tally.unavailable += 1
        await asyncio.sleep(RETRY_S)
    raise AssertionError(f"{url}: unavailable for a whole minute")


async def play(api: httpx.AsyncClient, created: dict, seat: int, seed: int, tally: Tally, timeout: float = 90) -> dict:
    """Play one seat to the end with random legal commands; the final view."""
    rng = random.Random(seed)
    match_id = created["match_id"]
    headers = bearer(seat_token(created, seat))
    deadline = asyncio.get_running_loop().time() + timeout
    heard = 0
    while True:
        assert asyncio.get_running_loop().time() < deadline, f"{match_id} did not finish in time"
        seen = (await call(api, tally, "GET", f"/v1/matches/{match_id}/view", headers=headers)).json()
        if seen["status"] == "finished":
            return seen
        if seen["version"] < heard or not seen["legal"]:
            await asyncio.sleep(0.01)
            continue
        key = uuid.uuid4().hex
        answer = await call(
            api,
            tally,
            "POST",
            f"/v1/matches/{match_id}/commands",
            json=rng.choice(seen["legal"]),
            headers={**headers, "Idempotency-Key": key},
        )
        assert answer.status_code in (200, 409, 422), answer.text
        if answer.status_code == 200:
            heard = max(heard, answer.json()["version"])
            tally.acknowledged.append((match_id, answer.json()["version"], key))


async def exported(api: httpx.AsyncClient, created: dict, tally: Tally) -> bytes:
    url = f"/v1/matches/{created['match_id']}/export"
    answer = await call(api, tally, "GET", url, headers=bearer(created["spectator_token"]))
    assert answer.status_code == 200, answer.text
    return answer.content


def lost(export: bytes, match_id: str, tally: Tally) -> list[tuple[int, str]]:
    """The acknowledged commands of this match whose entry is not in its export."""
    logged = set()
    for line in entry_lines(export)[1:]:  # the first line is the header (the last, the signed head)
        body = msgspec.json.decode(msgspec.json.decode(line, type=ExportEntry).body, type=Envelope)
        logged.add((body.version, body.command.idempotency_key))
    acknowledged = [(version, key) for match, version, key in tally.acknowledged if match == match_id]
    return [(version, key) for version, key in acknowledged if (version, key) not in logged]


async def create_all(api: httpx.AsyncClient, tally: Tally, copies: int = 1) -> list[dict]:
    """``copies`` matches of each game, a human in seat 0 and bots in the others."""
    created = []
    for _ in range(copies):
        for game, seats in GAMES:
            body = {"game": game, "seats": seats, "bots": list(range(1, seats))}
            answer = await call(api, tally, "POST", "/v1/matches", json=body)
            assert answer.status_code == 201, answer.text
            created.append(answer.json())
    return created


async def play_all(bases: list[str], created: list[dict], tally: Tally) -> None:
    """Every match played to its end, the matches' human seats alternating between ``bases``."""
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]
    try:
        await asyncio.gather(
            *(play(clients[i % len(clients)], match, 0, seed=i, tally=tally) for i, match in enumerate(created))
        )
    finally:
        for client in clients:
            await client.aclose()


async def check_exports(base: str, created: list[dict], tally: Tally, directory) -> None:
    """Every acknowledged command is in its match's export, and every export passes ``tavern audit``."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        for match in created:
            export = await exported(api, match, tally)
            assert lost(export, match["match_id"], tally) == [], "an acknowledged command is not in the log"
            path = directory / f"{match['match_id']}.jsonl"
            path.write_bytes(export)
            audit(path)


def audit(path) -> None:
    """``tavern audit`` on an export file must pass."""
    done = subprocess.run([sys.executable, "-m", "services.cli", "audit", str(path)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
