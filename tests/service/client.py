"""A test client of the public HTTP API: it knows no rules, it only sends elements of ``legal``."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(api: httpx.AsyncClient, seats: int = 4, bots: list[int] | None = None, **extra: Any) -> dict:
    answer = await api.post("/v1/matches", json={"game": "heros-tavern", "seats": seats, "bots": bots or [], **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def seat_token(created: dict, seat: int) -> str:
    return created["seats"][seat]["token"]


async def view(api: httpx.AsyncClient, created: dict, token: str) -> dict:
    answer = await api.get(f"/v1/matches/{created['match_id']}/view", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


async def send(api: httpx.AsyncClient, created: dict, seat: int, command: dict, **headers: str) -> httpx.Response:
    extra = {key.replace("_", "-"): value for key, value in headers.items()}
    return await api.post(
        f"/v1/matches/{created['match_id']}/commands",
        json=command,
        headers={**bearer(seat_token(created, seat)), **extra},
    )


async def wait_for(api: httpx.AsyncClient, created: dict, token: str, version: int, timeout: float = 20.0) -> dict:
    """The view once it shows at least ``version`` (the projection runs behind the answers)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        seen = await view(api, created, token)
        if seen["version"] >= version:
            return seen
        assert asyncio.get_running_loop().time() < deadline, f"view stuck at {seen['version']} < {version}"
        await asyncio.sleep(0.01)


async def play_to_end(
    api: httpx.AsyncClient, created: dict, seats: list[int], seed: int, timeout: float = 120.0,
    accepted: list[dict] | None = None,
) -> dict:
    """Play the given seats to the end, each time sending a random element of the seat's legal;
    each accepted answer's body is added to ``accepted`` if given."""
    rng = random.Random(seed)
    heard = 0  # the newest version any answer named: a view older than it is not acted on
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        assert asyncio.get_running_loop().time() < deadline, "the match did not finish in time"
        acted = False
        for seat in seats:
            seen = await view(api, created, seat_token(created, seat))
            if seen["status"] == "finished":
                return seen
            if seen["version"] < heard or not seen["legal"]:
                continue
            answer = await send(api, created, seat, rng.choice(seen["legal"]))
            assert answer.status_code in (200, 422), answer.text  # 422: a bot acted meanwhile
            if answer.status_code == 200:
                heard = max(heard, answer.json()["version"])
                if accepted is not None:
                    accepted.append(answer.json())
                acted = True
        if not acted:
            await asyncio.sleep(0.01)


async def read_stream(
    api: httpx.AsyncClient, url: str, token: str, into: list[dict], last_id: int | None = None
) -> None:
    """Collect the SSE stream's views (with their ids) until one shows a finished match."""
    headers = bearer(token) | ({"Last-Event-ID": str(last_id)} if last_id is not None else {})
    async with api.stream("GET", url, headers=headers, timeout=None) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        async for event in sse_frames(response):
            if event.get("event") == "view":  # not "presence": who is connected
                data = json.loads(event["data"])
                into.append({"id": int(event["id"]), "event": event.get("event"), "view": data})
                if data["status"] == "finished":
                    return


async def sse_frames(response: httpx.Response) -> AsyncIterator[dict[str, str]]:
    """Each frame of an SSE answer as its fields (comments left out)."""
    frame: dict[str, str] = {}
    async for line in response.aiter_lines():
        if line.startswith(":"):
            continue
        if line:
            name, _, value = line.partition(":")
            frame[name] = value.removeprefix(" ")
        elif frame:
            yield frame
            frame = {}
