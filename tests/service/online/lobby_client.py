"""Test helpers for online play: a player who registers and talks to the API with its own token,
remembering every body it was ever answered (to show which tokens reached whom)."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.service.client import bearer


class Person:
    def __init__(self, api: httpx.AsyncClient) -> None:
        self.api = api
        self.heard: list[str] = []  # every answer body this person received
        self.id = ""
        self.token = ""
        self.seat_token = ""

    async def register(self, name: str) -> Person:
        answer = await self.call("POST", "/v1/players", {"name": name}, auth=False)
        assert answer.status_code == 201, answer.text
        self.id, self.token = answer.json()["player_id"], answer.json()["token"]
        return self

    async def call(self, method: str, url: str, body: Any = None, auth: bool = True, seat: bool = False) -> Any:
        headers = bearer(self.seat_token if seat else self.token) if auth else {}
        answer = await self.api.request(method, url, json=body, headers=headers)
        self.heard.append(answer.text)
        return answer

    async def create(self, **body: Any) -> dict:
        answer = await self.call("POST", "/v1/matches", body)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        self.seat_token = created["seats"][0]["token"]
        return created

    async def join(self, match_id: str, **body: Any) -> dict:
        answer = await self.call("POST", f"/v1/matches/{match_id}/join", body)
        assert answer.status_code == 200, answer.text
        self.seat_token = answer.json()["token"]
        return answer.json()


async def play(people: list[Person], match_id: str, seed: int) -> dict:
    rng = random.Random(seed)
    for _ in range(20_000):
        for person in people:
            seen = (await person.call("GET", f"/v1/matches/{match_id}/view", seat=True)).json()
            if seen["status"] == "finished":
                return seen
            if seen["legal"]:
                url = f"/v1/matches/{match_id}/commands"
                answer = await person.call("POST", url, rng.choice(seen["legal"]), seat=True)
                assert answer.status_code in (200, 409, 422), answer.text
    raise AssertionError("no end")
