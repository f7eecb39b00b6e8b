"""Whole tournaments played by bots through the API: registered players, each seat played by a
client that only sends an element of its view's ``legal``; a 32-player Swiss of 5 rounds of
Taverna and an 8-player elimination of Mercenaries. The standings rebuilt from the logs (the
tournament's own and its tables' matches') equal the live ones."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
import uuid

import msgspec
import pytest
import redis

from services.ops.limits import Limits
from services.ops.settings import Settings
from tests.service.online.lobby_client import Person

pytestmark = pytest.mark.anyio
POLL_S, POLL_MAX_S = 0.005, 0.04  # a bot's looks at its view while the other seat moves


@pytest.fixture
def settings(redis_url) -> Settings:
    """The in-process service on a real Redis (its scripts run many times faster than fakeredis's
    Lua, which the thousands of commands here would wait on), without the per-token and per-address limits on reads
    and commands: every bot here is behind one address, polling its view, and this test is about
    tournaments, not limits (tests/service/limits/ are); the creates' limits stay on."""
    off = dataclasses.replace(
        Limits(), reads_per_s_token=0, reads_per_s_address=0, commands_per_s_token=0, commands_per_s_address=0
    )
    redis.Redis.from_url(redis_url).flushall()
    return Settings(
        redis_url=redis_url, queue_url=None, queue_name=f"test-{uuid.uuid4().hex[:8]}", lease_s=1.0, limits=off
    )


async def play_table(person: Person, match_id: str, rng: random.Random) -> None:
    """Take the seat kept for this player, then play it to the end with random legal commands."""
    await person.join(match_id)
    url, version, pause = f"/v1/matches/{match_id}", 0, POLL_S
    while True:
        seen = (await person.call("GET", f"{url}/view", seat=True)).json()
        if seen["status"] == "finished":
            return
        if not seen["legal"] or seen["version"] < version:  # not its turn, or its last command not yet shown
            await asyncio.sleep(pause)
            pause = min(2 * pause, POLL_MAX_S)  # the opponent may think long: fewer looks meanwhile
            continue
        command = {**rng.choice(seen["legal"]), "expected_version": seen["version"]}
        answer = await person.call("POST", f"{url}/commands", command, seat=True)
        assert answer.status_code in (200, 409, 422), answer.text
        if answer.status_code == 200:
            version, pause = answer.json()["version"], POLL_S


async def play_tournament(person: Person, tournament_id: str, seed: int) -> None:
    """Play every table this player is paired at, until the tournament is over."""
    rng, played = random.Random(seed), set()
    while True:
        info = (await person.call("GET", f"/v1/tournaments/{tournament_id}")).json()
        if info["status"] == "finished":
            return
        mine = [
            table["match_id"]
            for round_ in info["pairings"]
            for table in round_["tables"]
            if table["match_id"] and person.id in table["players"] and table["match_id"] not in played
        ]
        if not mine:  # the round's other tables are being played
            await asyncio.sleep(0.5)
            continue
        await play_table(person, mine[0], rng)
        played.add(mine[0])


async def run(api, app, count: int, **asked) -> dict:
    people = [await Person(api).register(f"P{n}") for n in range(count)]
    created = await people[0].call("POST", "/v1/tournaments", asked)
    assert created.status_code == 201, created.text
    tournament_id = created.json()["tournament_id"]
    for person in people:
        answer = await person.call("POST", f"/v1/tournaments/{tournament_id}/register")
        assert answer.status_code == 200, answer.text
    started = await people[0].call("POST", f"/v1/tournaments/{tournament_id}/start")
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "running"
    await asyncio.wait_for(
        asyncio.gather(*(play_tournament(person, tournament_id, n) for n, person in enumerate(people))), 1800
    )
    final = (await api.get(f"/v1/tournaments/{tournament_id}")).json()
    rebuilt = await app.state.runtime.tournaments.rebuild(tournament_id)
    assert msgspec.to_builtins(rebuilt) == final["standings"]
    listed = (await api.get("/v1/tournaments")).json()
    assert [(t["tournament_id"], t["status"]) for t in listed] == [(tournament_id, "finished")]
    return final


async def test_a_32_player_swiss_of_5_rounds(app, api):
    started = time.perf_counter()
    final = await run(api, app, 32, game="taverna", kind="swiss", rounds=5)
    rounds = final["pairings"]
    assert len(rounds) == 5 and all(len(r["tables"]) == 16 for r in rounds)
    pairs = [frozenset(t["players"]) for r in rounds for t in r["tables"]]
    assert len(pairs) == len(set(pairs)) == 80  # no pairing repeated
    assert sum(row["points"] for row in final["standings"]) == 80  # one point a table
    assert all(row["played"] == 5 for row in final["standings"])
    print(f"swiss: {time.perf_counter() - started:.1f} s")


async def test_an_8_player_elimination_of_mercenaries(app, api):
    final = await run(api, app, 8, game="mercenaries", kind="elimination")
    assert [len(r["tables"]) for r in final["pairings"]] == [4, 2, 1]
    winner = final["standings"][0]
    assert winner["reached"] == 4 and winner["wins"] == 3
    finalist = final["standings"][1]
    assert set(final["pairings"][2]["tables"][0]["players"]) == {winner["player_id"], finalist["player_id"]}


async def test_a_swiss_at_tables_of_three(app, api):
    final = await run(api, app, 4, game="heros-tavern", kind="swiss", seats=3, rounds=2)
    for round_ in final["pairings"]:  # a table of three and a bye, each round to another player
        assert sorted(len(t["players"]) for t in round_["tables"]) == [1, 3]
    byes = [next(t["players"][0] for t in r["tables"] if not t["match_id"]) for r in final["pairings"]]
    assert len(set(byes)) == 2
    assert sum(row["points"] for row in final["standings"]) == 2 * (1 + 1.5)  # a table's three share 1.5, a bye 1
