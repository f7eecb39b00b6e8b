"""Random matches of every game over the HTTP API, each answer validated against the published
/openapi.json (jsonschema): every view envelope, every element of `legal` (as the game's command
and as the commands path's body, with and without expected_version), every command's answer,
the log's entries and the replay's frames, while the match runs and once it is finished."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from domain.games import game_ids
from tests.service.client import bearer, seat_token
from tests.service.contract.published import Published

pytestmark = pytest.mark.anyio
SEATS = {"heros-tavern": 3, "tavern-masters": 2, "taverna": 2, "mercenaries": 2}
M = "/v1/matches/{match_id}"


async def play_checked(api, game: str, seed: int) -> Published:
    published = Published((await api.get("/openapi.json")).json())
    plain = Published(published.document, discriminating=False)
    games = (await api.get("/v1/games")).json()
    published.answer("get", "/v1/games", 200, games)
    answer = await api.post("/v1/matches", json={"game": game, "seats": SEATS[game]})
    published.answer("post", "/v1/matches", 201, answer.json())
    created = answer.json()
    base = f"/v1/matches/{created['match_id']}"
    tokens = [seat_token(created, seat) for seat in range(SEATS[game])]
    rng = random.Random(seed)
    heard, checked_midway = 0, False
    legal_seen: set[str] = set()

    async def get(path: str, token: str, params: dict | None = None) -> object:
        got = await api.get(base + path, headers=bearer(token), params=params)
        published.answer("get", M + path, got.status_code, got.json())
        return got.json()

    async def logs(token: str, seat: int | None = None) -> None:
        for entry in await get("/events", token, {"after": 0}):
            published.component(f"{game}.EventEnvelope", entry)
        params = {} if seat is None else {"seat": seat}
        for frame in await get("/replay", token, params):
            published.component(f"{game}.Frame", frame)

    for _ in range(5000):
        acted = False
        for token in tokens:
            seen = await get("/view", token)
            published.component(f"{game}.ViewEnvelope", seen)
            if seen["status"] == "finished":
                spectator = await get("/view", created["spectator_token"])
                published.component(f"{game}.ViewEnvelope", spectator)
                await logs(tokens[0], seat=1)
                await logs(created["spectator_token"])
                assert checked_midway
                return published
            for command in seen["legal"]:
                if json.dumps(command, sort_keys=True) not in legal_seen:  # each distinct element once
                    legal_seen.add(json.dumps(command, sort_keys=True))
                    published.component(f"{game}.Command", command)
            if seen["version"] < heard or not seen["legal"]:
                continue
            command = dict(rng.choice(seen["legal"]))
            if rng.random() < 0.3:
                command["expected_version"] = seen["version"]
            published.component("Command", command)  # the body, by its discriminator
            plain.component("Command", command)  # and as plain JSON Schema: valid under exactly one branch
            published.component(f"{game}.Command", command)
            sent = await api.post(base + "/commands", json=command, headers=bearer(token))
            assert sent.status_code in (200, 409, 422), sent.text
            published.answer("post", M + "/commands", sent.status_code, sent.json())
            if sent.status_code == 200:
                published.component(f"{game}.Accepted", sent.json())
                heard, acted = max(heard, sent.json()["version"]), True
        if heard > 20 and not checked_midway:
            await logs(tokens[1])  # while running: redacted events, no hashes
            checked_midway = True
        if not acted:
            await asyncio.sleep(0.01)
    raise AssertionError("the match did not finish")


@pytest.mark.parametrize("settings", ["fakeredis", "cluster"], indirect=True)  # every game to its end
@pytest.mark.parametrize("game", game_ids())
async def test_every_answer_of_a_random_match_matches_the_published_schemas(api, game):
    published = await play_checked(api, game, seed=len(game))
    assert published.counts[f"{game}.ViewEnvelope"] > 10 and published.counts[f"{game}.Command"] > 10
    assert published.counts[f"{game}.EventEnvelope"] > 10 and published.counts[f"{game}.Frame"] > 10
    print(game, dict(published.counts))


@pytest.mark.parametrize("settings", ["redis"], indirect=True)
async def test_answers_match_the_published_schemas_on_a_real_redis(api):
    published = await play_checked(api, "heros-tavern", seed=3)
    assert published.counts["heros-tavern.ViewEnvelope"] > 10
