"""Online play's answers and stream frames against the published /openapi.json, closed while it
checks (published.py): a full match of each game, between them a concede (sent on a WebSocket), leaves
before and after the start, timeouts (a streak ended by the seat's own move, then a takeover), an
abandonment, the lobby, ratings and a rematch; every answer against the schema its operation declares
for its status, and every frame of a spectator's SSE stream and of the WebSocket against its named
schema (stream_schemas.py). Matches are short: people make a few moves, then bots play on."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
import websockets

from tests.service.client import bearer, seat_token, sse_frames
from tests.service.contract.published import Published

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", ["fakeredis"], indirect=True)]
M = "/v1/matches/{match_id}"
FAR = 1e12  # a time (unix seconds) by which every deadline has passed
SSE = {"view": "ViewEnvelope", "presence": "PresenceFrame", "lost": "ErrorBody"}


class Checked:
    """The API through ``api``, each answer validated against what its operation declares."""

    def __init__(self, api: httpx.AsyncClient, published: Published) -> None:
        self.api, self.published = api, published

    async def call(
        self,
        method: str,
        template: str,
        token: str | None = None,
        body: Any = None,
        params: dict | None = None,
        **path: str,
    ) -> Any:
        headers = bearer(token) if token else {}
        answer = await self.api.request(method, template.format(**path), json=body, params=params, headers=headers)
        media = answer.headers["content-type"].split(";")[0]
        shown = answer.json() if media == "application/json" else answer.text
        self.published.answer(method.lower(), template, answer.status_code, shown, media)
        return answer

    async def view(self, match_id: str, token: str) -> dict:
        return (await self.call("GET", M + "/view", token, match_id=match_id)).json()

    async def command(self, match_id: str, token: str, command: dict) -> httpx.Response:
        return await self.call("POST", M + "/commands", token, command, match_id=match_id)

    async def reads(self, match_id: str, token: str, **params: int) -> None:
        """The log and the replay, as ``token``'s holder sees them."""
        await self.call("GET", M + "/events", token, params={"after": 0}, match_id=match_id)
        await self.call("GET", M + "/replay", token, params=params, match_id=match_id)

    async def finished(self, match_id: str, tokens: list[str], timeout: float = 60.0) -> dict:
        """Wait for the end; then every read of it for each token (a seat's, the spectator's)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (seen := await self.view(match_id, tokens[0]))["status"] != "finished":
            assert asyncio.get_running_loop().time() < deadline, "the match did not finish"
            await asyncio.sleep(0.02)
        for token in tokens:
            await self.view(match_id, token)
            await self.reads(match_id, token, seat=0)
        await self.call("GET", M + "/export", tokens[0], match_id=match_id)
        late = await self.command(match_id, tokens[0], {"type": "Concede"})
        assert late.status_code in (409, 422), late.text
        return seen


async def moves(checked: Checked, match_id: str, tokens: list[str], rng: random.Random, count: int) -> None:
    """``count`` accepted commands, each a random element of a seat's legal."""
    heard, made = 0, 0
    for _ in range(2000):
        for token in tokens:
            seen = await checked.view(match_id, token)
            assert seen["status"] != "finished", "finished before the people were done"
            if seen["version"] < heard or not seen["legal"]:
                continue
            command = dict(rng.choice(seen["legal"]))
            if rng.random() < 0.3:
                command["expected_version"] = seen["version"]
            answer = await checked.command(match_id, token, command)
            assert answer.status_code in (200, 409, 422), answer.text
            if answer.status_code == 200:
                heard, made = answer.json()["version"], made + 1
                if made == count:
                    return
        await asyncio.sleep(0.01)
    raise AssertionError("no moves")


async def watch_sse(served: httpx.AsyncClient, published: Published, match_id: str, token: str) -> int:
    """Every frame of the stream to the finished view: how many."""
    seen = 0
    url = f"/v1/matches/{match_id}/stream"
    async with served.stream("GET", url, headers=bearer(token), timeout=None) as response:
        assert response.status_code == 200
        async for frame in sse_frames(response):
            data = json.loads(frame["data"])
            published.component(SSE[frame["event"]], data)
            seen += 1
            if frame["event"] == "view" and data["status"] == "finished":
                return seen
    raise AssertionError("the stream ended before the match")


def ws_url(served: httpx.AsyncClient, match_id: str, token: str) -> str:
    base = str(served.base_url).replace("http://", "ws://").rstrip("/")
    return f"{base}/v1/matches/{match_id}/ws?access_token={token}"


async def play_ws(url: str, published: Published, seed: int, concede_after: int) -> int:
    """A seat played on the socket, conceding there after so many accepted commands; every frame
    it is sent, and every message it sends, checked: how many frames."""
    rng, heard, made, pending, frames = random.Random(seed), 0, 0, False, 0
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"command": {"type": "Concede"}}))  # no id: answered 400 with id null

        async def send(message: dict) -> None:
            published.component("WsCommand", message)
            await socket.send(json.dumps(message))

        async for raw in socket:
            frame = json.loads(raw)
            published.component("WsServerFrame", frame)
            frames += 1
            if frame["kind"] == "answer":
                pending = False
                if frame["status"] == 200:
                    heard, made = frame["body"]["version"], made + 1
                continue
            if frame["kind"] != "view":
                continue
            if frame["view"]["status"] == "finished":
                return frames
            legal = frame["view"]["legal"]
            if pending or frame["view"]["version"] < heard or not legal:
                continue
            pending = True
            command = {"type": "Concede"} if made >= concede_after else rng.choice(legal)
            await send({"id": made, "command": command, "idempotency_key": f"k{made}-{heard}"})
    raise AssertionError("the socket closed before the end")


async def until(check, what: str, timeout: float = 30.0) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while not (found := await check()):
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.02)
    return found


async def left_then_abandoned(
    checked: Checked, runtime: Any, served: httpx.AsyncClient, created: dict, rng: random.Random
) -> dict:
    """Heros' Tavern: two people move, then both leave; while the match waits out its grace, seat 0
    looks in on a WebSocket (the spectator's stream hears it come and go); then it is abandoned."""
    match_id, tokens = created["match_id"], [seat_token(created, seat) for seat in (0, 1)]
    await moves(checked, match_id, tokens, rng, 6)
    for token in tokens:
        answer = await checked.command(match_id, token, {"type": "Leave"})
        assert answer.status_code == 200 and answer.json()["events"][0]["type"] == "TakenOver", answer.text
    due = await until(lambda: runtime.timeouts.abandonments.of(match_id), "no abandonment was scheduled")
    heard = checked.published.counts["PresenceFrame"]
    async with websockets.connect(ws_url(served, match_id, tokens[0])) as socket:
        checked.published.component("WsServerFrame", json.loads(await socket.recv()))
        await until(lambda: _more(checked.published, heard), "the spectator did not hear seat 0 come")
    await until(lambda: _more(checked.published, heard + 1), "the spectator did not hear seat 0 go")
    await runtime.timeouts.sweep(due + 1)  # (another match's sweep may have abandoned it already)
    final = await checked.finished(match_id, [tokens[0], created["spectator_token"]])
    assert final["result"]["details"] == {"ended": "abandoned"}
    return final


async def _more(published: Published, than: int) -> bool:
    return published.counts["PresenceFrame"] > than


async def timed_out_then_taken_over(checked: Checked, runtime: Any, created: dict, rng: random.Random) -> dict:
    """Tavern Masters solo with a clock (a takeover at the second timeout in a row): seat 0 times
    out, moves itself (its streak ends), then times out twice and a bot plays it to the end."""
    match_id, token = created["match_id"], seat_token(created, 0)

    async def due() -> dict | None:
        seen = await checked.view(match_id, token)
        clock = seen["players"][0]["clock"]
        return seen if seen["legal"] and clock and clock["deadline"] else None

    for timeouts in range(3):
        before = (await until(due, "seat 0 was never due"))["version"]
        await runtime.timeouts.sweep(FAR)  # (its count may hold another match's abandonment)
        await until(lambda at=before: _moved(checked, match_id, token, at), "seat 0 was not timed out")
        if timeouts == 0:
            await moves(checked, match_id, [token], rng, 1)
    final = await checked.finished(match_id, [token, created["spectator_token"]], timeout=120)
    types = [entry["type"] for entry in (await checked.call("GET", M + "/events", token, match_id=match_id)).json()]
    assert types.count("SeatTimedOut") == 3 and "StreakEnded" in types and types.count("TakenOver") == 1
    return final


async def _moved(checked: Checked, match_id: str, token: str, version: int) -> bool:
    return (await checked.view(match_id, token))["version"] > version


async def conceded_from_the_lobby(checked: Checked, people: list[dict], rng: random.Random) -> dict:
    """Taverna from the lobby: a join, a leave before the start, the host's start (a free seat is a
    bot's), a few moves, then both people concede and the bot's seat wins."""
    host, bea = (person["token"] for person in people)
    body = {"game": "taverna", "seats": 3, "open": [1, 2], "options": {"curse": False}, "bot": "greedy"}
    created = (await checked.call("POST", "/v1/matches", host, body)).json()
    match_id = created["match_id"]
    await checked.call("GET", "/v1/lobby", params={"game": "taverna"})
    await checked.call("POST", M + "/join", bea, {"seat": 1}, match_id=match_id)
    left = await checked.call("POST", M + "/leave", bea, match_id=match_id)
    assert left.json()["cancelled"] is False  # before the start: the seat is free again
    joined = (await checked.call("POST", M + "/join", bea, {}, match_id=match_id)).json()
    assert (await checked.call("POST", M + "/start", bea, match_id=match_id)).status_code == 403  # the host's
    await checked.call("POST", M + "/start", host, match_id=match_id)
    live = (await checked.call("GET", "/v1/lobby/live", params={"game": "taverna"})).json()
    assert [entry["match_id"] for entry in live["matches"]] == [match_id]
    tokens = [seat_token(created, 0), joined["token"]]
    await moves(checked, match_id, tokens, rng, 6)
    for token in tokens:
        assert (await checked.command(match_id, token, {"type": "Concede"})).status_code == 200
    final = await checked.finished(match_id, [tokens[0], created["spectator_token"]])
    assert final["result"]["details"]["ended"] == "conceded" and final["result"]["winners"] == [2]
    return final


async def left_and_rematched(
    checked: Checked, served: httpx.AsyncClient, people: list[dict], published: Published
) -> dict:
    """Mercenaries from the lobby: the last join starts it, the joiner leaves (a bot plays on), the host
    plays on a WebSocket and concedes there; then ratings, the leaderboard and a rematch."""
    host, bea = (person["token"] for person in people)
    body = {"game": "mercenaries", "seats": 2, "open": [1], "options": {"best_of": 3}}
    created = (await checked.call("POST", "/v1/matches", host, body)).json()
    match_id = created["match_id"]
    assert (await checked.call("POST", M + "/join", bea, {}, match_id=match_id)).json()["started"]
    left = await checked.call("POST", M + "/leave", bea, match_id=match_id)
    assert left.json()["events"] == [{"type": "TakenOver", "seat": 1, "reason": "left"}]
    await watch_and_play(served, published, created, seed=5)
    final = await checked.finished(match_id, [seat_token(created, 0), created["spectator_token"]])
    assert final["result"]["details"] == {"ended": "conceded", "conceded": [0]}
    await checked.call("GET", "/v1/players/{player_id}", player_id=people[1]["player_id"])
    profile = "/v1/players/{player_id}/profile"
    for _ in range(500):  # recorded by the projector beside the final views
        if (await checked.call("GET", profile, player_id=people[1]["player_id"])).json()["recent"]:
            break
        await asyncio.sleep(0.02)
    await checked.call("GET", "/v1/games/{game_id}/leaderboard", game_id="mercenaries")
    await checked.call("POST", M + "/rematch", host, match_id=match_id)
    return final


async def watch_and_play(served: httpx.AsyncClient, published: Published, created: dict, seed: int) -> None:
    """Seat 0 on a WebSocket to its concession, the spectator's SSE stream beside it."""
    match_id = created["match_id"]
    watcher = asyncio.create_task(watch_sse(served, published, match_id, created["spectator_token"]))
    await play_ws(ws_url(served, match_id, seat_token(created, 0)), published, seed, concede_after=8)
    assert await asyncio.wait_for(watcher, 30) > 3


async def test_online_answers_and_stream_frames_match_the_closed_published_schemas(app, served):
    published = Published((await served.get("/openapi.json")).json())
    checked, runtime = Checked(served, published), app.state.runtime
    games = (await checked.call("GET", "/v1/games")).json()
    assert {game["id"] for game in games} == {"heros-tavern", "tavern-masters", "taverna", "mercenaries"}
    refused = await checked.call("POST", "/v1/matches", body={"game": "taverna", "seats": 2, "options": {"x": 1}})
    assert refused.status_code == 422
    people = [(await checked.call("POST", "/v1/players", body={"name": name})).json() for name in ("Host", "Bea")]
    bodies = {
        "heros-tavern": {"seats": 3, "bots": [2], "options": {"finite_tokens": True, "staff_copies": "once"}},
        "tavern-masters": {"seats": 1, "options": {"mode": "solo"}, "clock": {"per_move_s": 30, "limit": 2}},
    }
    created = {}
    for game, body in bodies.items():
        created[game] = (await checked.call("POST", "/v1/matches", body={"game": game, **body})).json()
    watchers = [
        asyncio.create_task(watch_sse(served, published, made["match_id"], made["spectator_token"]))
        for made in created.values()
    ]
    rng = random.Random(33)
    await asyncio.wait_for(
        asyncio.gather(
            left_then_abandoned(checked, runtime, served, created["heros-tavern"], rng),
            timed_out_then_taken_over(checked, runtime, created["tavern-masters"], rng),
            conceded_from_the_lobby(checked, people, rng),
            left_and_rematched(checked, served, people, published),
        ),
        240,
    )
    assert min(await asyncio.wait_for(asyncio.gather(*watchers), 30)) > 3
    counts = published.counts
    assert counts["WsServerFrame"] > 8 and counts["WsCommand"] > 8 and counts["PresenceFrame"] >= 2
    for suffix in ("/events", "/replay", "/leave", "/join", "/start", "/rematch", "/commands"):
        assert any(label.endswith(f"{suffix} 200") for label in counts), suffix
    print(dict(counts))
