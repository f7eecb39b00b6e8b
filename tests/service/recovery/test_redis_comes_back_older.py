"""Redis comes back older than a running worker last saw it (a snapshot restored, a lagging replica
promoted): the worker's fold of a match, and what it last wrote, are ahead of the log. The log moves
on from where Redis stands, and the views must follow it: each legal move of a view is accepted
(not 422) and its view appears, while the log is still below where the worker had seen it; views
ahead of the log itself are replaced."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import redis
import uvicorn
import websockets
from starlette.applications import Starlette

from services.commands.folds import MatchLost
from services.gateway.app import create_app
from services.ops.limits import Limits
from services.ops.settings import Settings
from services.runtime import REDIS_DOWN
from services.store import keys
from tests.service.client import bearer, create, seat_token, sse_frames
from tests.service.conftest import free_port
from tests.service.recovery.test_redis_restart import redis_on

pytestmark = pytest.mark.anyio


async def answered(api: httpx.AsyncClient, method: str, url: str, token: str, body: dict | None = None) -> Any:
    """An answer, sent again while Redis is coming back (503) and once after a 410 (the gateway's
    fold noticed the older log: that once, it says so)."""
    lost, deadline = 0, asyncio.get_running_loop().time() + 15
    while True:
        answer = await api.request(method, url, json=body, headers=bearer(token))
        lost += answer.status_code == 410
        if answer.status_code not in (410, 503) or lost > 1 or asyncio.get_running_loop().time() > deadline:
            return answer
        await asyncio.sleep(0.1 if answer.status_code == 503 else 0)


async def seen_by(api: httpx.AsyncClient, created: dict, seat: int) -> dict:
    answer = await answered(api, "GET", f"/v1/matches/{created['match_id']}/view", seat_token(created, seat))
    assert answer.status_code == 200, answer.text
    return answer.json()


async def move(api: httpx.AsyncClient, created: dict, rng: random.Random, heard: int) -> int:
    """One legal move of a seat that has one, accepted, and the version its view then shows; a view
    below ``heard``, the version of the last move accepted, is older than that move: not acted on."""
    deadline = asyncio.get_running_loop().time() + 15
    for seat in itertools.cycle(range(len(created["seats"]))):
        assert asyncio.get_running_loop().time() < deadline, f"no view reached version {heard}"
        seen = await seen_by(api, created, seat)
        if seen["version"] < heard or not seen["legal"]:
            continue
        url = f"/v1/matches/{created['match_id']}/commands"
        answer = await answered(api, "POST", url, seat_token(created, seat), rng.choice(seen["legal"]))
        assert answer.status_code == 200, answer.text  # a 422 here: a stale view's move
        version = answer.json()["version"]
        deadline = asyncio.get_running_loop().time() + 15
        while (await seen_by(api, created, seat))["version"] < version:
            assert asyncio.get_running_loop().time() < deadline, f"the views never reached version {version}"
            await asyncio.sleep(0.05)
        return version
    raise AssertionError("unreachable")


def app_on(port: int) -> Starlette:
    """A gateway with an embedded worker on the Redis at ``port``. The limits are not what these
    tests are about: one client sends every seat's moves, and makes every match, as fast as it can."""
    limits = Limits(creates_per_s=0, commands_per_s_token=0, commands_per_s_address=0, open_matches=0)
    settings = Settings(redis_url=f"redis://127.0.0.1:{port}/0", queue_url=None,
                        queue_name=f"o-{uuid.uuid4().hex[:6]}", lease_s=1.0, limits=limits)
    return create_app(settings, embedded_worker=True)


async def test_views_follow_a_log_that_came_back_older(tmp_path):
    port = free_port()
    server = redis_on(port, tmp_path)  # no automatic saves: the snapshot is taken by hand below
    app = app_on(port)
    rng = random.Random(3)
    try:
        async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://tavern"
        ) as api:
            created = await create(api, seats=3)
            saved = 0
            for _ in range(4):
                saved = await move(api, created, rng, saved)
            redis.Redis(port=port).save()  # the snapshot Redis will come back with
            ahead = saved
            for _ in range(6):  # the worker folds and writes these: then they are lost
                ahead = await move(api, created, rng, ahead)
            server.kill()
            server.wait(10)
            server = redis_on(port, tmp_path)  # the same address, the snapshot's data
            assert (await seen_by(api, created, 0))["version"] == saved
            versions = [saved]
            for _ in range(4):
                versions.append(await move(api, created, rng, versions[-1]))
            # views ahead of the log itself (as a worker cut off by the restart could write them
            # after it, from the log that was lost): the views of the log as it is replace them
            redis.Redis(port=port).hset(keys.views(created["match_id"]), "v", ahead + 10)
            versions.append(await move(api, created, rng, versions[-1]))
            versions = versions[1:]
            assert versions == sorted(set(versions)) and versions[0] > saved and versions[-1] <= ahead, versions
    finally:
        server.kill()
        server.wait(10)


@contextlib.asynccontextmanager
async def gateway_restarting_empty(tmp_path) -> AsyncIterator[tuple[Starlette, httpx.AsyncClient, Callable[[], int]]]:
    """A gateway on a redis-server of its own, and a call that restarts that server empty at the same
    address (returning its port)."""
    port = free_port()
    servers = [redis_on(port, tmp_path)]
    app = app_on(port)

    def restart() -> int:
        servers[-1].kill()
        servers[-1].wait(10)
        servers.append(redis_on(port, tmp_path))  # the same address, nothing of before
        return port

    try:
        async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://tavern"
        ) as api:
            yield app, api, restart
    finally:
        servers[-1].kill()
        servers[-1].wait(10)


@pytest.mark.parametrize("noticed_first", [True, False])
async def test_a_lost_match_is_answered_410_first_then_404(tmp_path, noticed_first):
    """Redis restarts empty: each match a gateway knew is answered 410 ``match_lost`` at the first
    request after (a view, a command, the spectator's events), then 404, whether the gateway's own
    notice of the restart (its sweeper reads Redis's run id, and drops its caches) came first or a
    request did (its cached fold, or its command's append, finds the match gone)."""
    async with gateway_restarting_empty(tmp_path) as (app, api, restart):
        made = [await create(api, seats=3) for _ in range(24)]
        legal = {}
        for created in made:  # the gateway knows each: its meta and its fold cached
            legal[created["match_id"]] = (await seen_by(api, created, 2))["legal"][0]
        upkeep, deadline = app.state.runtime.upkeep, asyncio.get_running_loop().time() + 20
        while upkeep.run_id is None:  # the sweeper has read Redis's run id once
            assert asyncio.get_running_loop().time() < deadline, "the sweeper never ran"
            await asyncio.sleep(0.1)
        run_id = redis.Redis(port=restart()).info("server")["run_id"]
        while noticed_first and upkeep.run_id != run_id:  # the sweeper noticed first: caches dropped
            assert asyncio.get_running_loop().time() < deadline, "the restart went unnoticed"
            await asyncio.sleep(0.1)
        asks = [
            lambda c: ("GET", f"/v1/matches/{c['match_id']}/view", seat_token(c, 1), None),
            lambda c: ("POST", f"/v1/matches/{c['match_id']}/commands", seat_token(c, 2), legal[c["match_id"]]),
            lambda c: ("GET", f"/v1/matches/{c['match_id']}/events", c["spectator_token"], None),
        ]
        for n, created in enumerate(made):
            statuses = []
            for _ in range(2):
                method, path, token, body = asks[n % len(asks)](created)
                answer = await answered_once(api, method, path, token, body)
                statuses.append((answer.status_code, answer.json()["error"]["code"]))
            assert statuses == [(410, "match_lost"), (404, "no_such_match")], (n, statuses)


async def test_a_request_begun_before_a_restart_was_noticed_is_answered_410(tmp_path):
    """A request that read the match's meta before Redis restarted empty, and finds the caches
    dropped by the time it reads the log (the sweeper noticed the restart meanwhile), is answered
    410 as well, not served the empty log a fold read afresh would give (CI once saw 200)."""
    async with gateway_restarting_empty(tmp_path) as (app, api, restart):
        created = await create(api, seats=3)
        await seen_by(api, created, 2)  # its meta and fold cached here
        runtime = app.state.runtime
        match = await runtime.matches.get(created["match_id"])  # as the request's authorization read it
        restart()
        runtime.forget_all()  # the restart noticed while the request was under way
        deadline = asyncio.get_running_loop().time() + 15
        while True:  # a first call may meet a link the restart closed (a 503 through the API)
            try:
                await runtime.history.current(match)
            except REDIS_DOWN:
                assert asyncio.get_running_loop().time() < deadline, "Redis never came back"
                await asyncio.sleep(0.1)
                continue
            except MatchLost:
                break
            raise AssertionError("a match Redis lost was taken as still there")
        answer = await answered_once(api, "GET", f"/v1/matches/{created['match_id']}/events",
                                     created["spectator_token"], None)
        assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_such_match")  # said once


async def answered_once(api: httpx.AsyncClient, method: str, url: str, token: str, body: dict | None) -> Any:
    """An answer, sent again only while Redis is coming back (503)."""
    deadline = asyncio.get_running_loop().time() + 15
    while True:
        answer = await api.request(method, url, json=body, headers=bearer(token))
        if answer.status_code != 503 or asyncio.get_running_loop().time() > deadline:
            return answer
        await asyncio.sleep(0.1)


async def test_the_streams_of_a_lost_match_end_with_a_last_event(tmp_path):
    """Redis restarts empty under open streams: each stream of a match it no longer holds ends with
    ``event: lost`` (the API's error body, ``match_lost``), and a WebSocket closes with 4410
    ``match_lost``, rather than staying open and silent."""
    port = free_port()
    server = redis_on(port, tmp_path)
    app = app_on(port)
    web_port = free_port()
    web = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=web_port, lifespan="off", log_level="warning"))
    try:
        async with app.router.lifespan_context(app):
            serving = asyncio.create_task(web.serve())
            while not web.started:
                await asyncio.sleep(0.01)
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{web_port}", timeout=30) as api:
                made = [await create(api, seats=3) for _ in range(3)]
                streams = [(created, seat) for created in made for seat in (0, 1)] + [(made[0], None)]
                opened = asyncio.Event()
                seen: list[list[dict]] = [[] for _ in streams]

                async def follow(n: int, created: dict, seat: int | None) -> None:
                    token = created["spectator_token"] if seat is None else seat_token(created, seat)
                    stream_url = f"/v1/matches/{created['match_id']}/stream"
                    async with api.stream("GET", stream_url, headers=bearer(token), timeout=None) as response:
                        assert response.status_code == 200
                        async for frame in sse_frames(response):
                            seen[n].append(frame)
                            if all(seen):
                                opened.set()

                closed: list[tuple[int, str]] = []

                async def socket(created: dict) -> None:  # and a WebSocket: closed 4410 match_lost
                    ws_url = f"ws://127.0.0.1:{web_port}/v1/matches/{created['match_id']}/ws"
                    async with websockets.connect(ws_url, additional_headers=bearer(seat_token(created, 2))) as ws:
                        assert json.loads(await ws.recv())["kind"] == "view"
                        with contextlib.suppress(websockets.ConnectionClosed):
                            while True:
                                await ws.recv()
                        closed.append((ws.close_code, ws.close_reason))

                followers = [asyncio.create_task(follow(n, *stream)) for n, stream in enumerate(streams)]
                followers.append(asyncio.create_task(socket(made[1])))
                await asyncio.wait_for(opened.wait(), 20)  # every stream has had its first view
                await asyncio.sleep(0.5)  # and the socket its own
                server.kill()
                server.wait(10)
                server = redis_on(port, tmp_path)  # the same address, nothing of before
                done, pending = await asyncio.wait(followers, timeout=30)
                for task in pending:
                    task.cancel()
                assert not pending, f"{len(pending)} of {len(streams)} streams stayed open"
                for task in done:
                    task.result()  # the stream ended cleanly
                assert closed == [(4410, "match_lost")]
                for frames in seen:
                    assert frames[-1]["event"] == "lost", frames[-1]
                    assert json.loads(frames[-1]["data"])["error"]["code"] == "match_lost"
            web.should_exit = True
            await serving
    finally:
        server.kill()
        server.wait(10)
