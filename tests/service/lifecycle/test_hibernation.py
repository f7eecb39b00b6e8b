"""Hibernation over the API (services/commands/hibernation.py, docs/hibernation.md): a match of each game
put to sleep by the sweep (its time moved on) keeps one key in Redis and answers every read as before
once woken by it (versions, chain, views, events, replay, export, the audit), takes a retried command
as the same one and a new command; two wakers at once, a command arriving while it is put to sleep,
and a wake while the archive is down (503, nothing lost), on the embedded default with a directory
archive (and an S3 bucket on moto's server for the finished match). A sleep's objects are deleted
once it is woken, or once the sleep did not happen; a waker that finds them deleted by another reads
again and finds the match awake."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import httpx
import pytest

from domain.games import game_ids, online_game
from projections.audit import audit
from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store import keys
from tests.service.client import bearer, create, seat_token, send, view, wait_for
from tests.service.s3 import BUCKET

pytestmark = pytest.mark.anyio
AFTER_S = 3600.0
READS = ("events", "view", "replay", "export")


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        redis_url=None,
        queue_url=None,
        archive_dir=str(tmp_path / "archive"),
        queue_name="hibernate",
        hibernate_after_s=AFTER_S,
    )


async def answers(api: httpx.AsyncClient, match_id: str, token: str) -> dict[str, tuple[int, bytes]]:
    """What each read endpoint answers (status and bytes)."""
    got = {}
    for read in READS:
        answer = await api.get(f"/v1/matches/{match_id}/{read}", headers=bearer(token))
        got[read] = (answer.status_code, answer.content)
    return got


async def settled(api: httpx.AsyncClient, runtime, created: dict) -> dict:
    """Seat 0's view once the projector has caught up with the log and seat 0 may act (or it is over)."""
    deadline = time.monotonic() + 30
    while True:
        seen = await view(api, created, seat_token(created, 0))
        logged = len(await runtime.store.read(created["match_id"]))
        if seen["version"] == logged and (seen["legal"] or seen["status"] == "finished"):
            await asyncio.sleep(0.2)  # a bot that acts now shows next time round
            again = await view(api, created, seat_token(created, 0))
            if again["version"] == seen["version"] == len(await runtime.store.read(created["match_id"])):
                return again
        assert time.monotonic() < deadline, "the match did not settle"
        await asyncio.sleep(0.05)


async def match_keys(runtime, match_id: str) -> set[str]:
    return {name.decode() for name in await runtime.events.keys(f"match:{{{match_id}}}:*")}


def slept_objects(runtime, match_id: str) -> list[str]:
    """The hibernation objects of the match in the (directory) archive."""
    return sorted(path.name for path in (runtime.archive.root / "hibernated").glob(f"*/{match_id}.*"))


async def asleep(runtime, match_id: str) -> None:
    """Put the match to sleep through the sweep, its clock moved past TAVERN_HIBERNATE_AFTER_S."""
    assert await runtime.hibernation.sweep(now=time.time() + AFTER_S + 1) >= 1
    assert await match_keys(runtime, match_id) == {keys.hibernated(match_id)}


@pytest.mark.parametrize("game", game_ids())
async def test_a_match_of_each_game_sleeps_and_wakes_answering_as_before(settings, game):
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            seats = max(2, online_game(game).min_seats)  # seat 0 played here, the others by bots
            created = await create(api, seats=seats, bots=list(range(1, seats)), game=game)
            match_id, token = created["match_id"], seat_token(created, 0)
            sent = (await settled(api, runtime, created))["legal"][0]
            first = await send(api, created, 0, sent, idempotency_key="k1")
            assert first.status_code == 200, first.text
            seen = await settled(api, runtime, created)
            before = await answers(api, match_id, token)
            spectator = await answers(api, match_id, created["spectator_token"])
            log = await runtime.store.read(match_id)

            await asleep(runtime, match_id)
            assert await runtime.lifecycle.playing([game]) == {game: 1}  # still counted as being played
            assert await answers(api, match_id, token) == before  # the first read wakes it
            assert await answers(api, match_id, created["spectator_token"]) == spectator
            assert await runtime.store.read(match_id) == log  # same versions, same chain, same ids
            assert keys.hibernated(match_id) not in await match_keys(runtime, match_id)
            assert slept_objects(runtime, match_id) == []  # woken: the sleep's objects are deleted

            await asleep(runtime, match_id)  # a retried command, asleep: the same answer, nothing appended
            retried = await send(api, created, 0, sent, idempotency_key="k1")
            assert (retried.status_code, retried.json()) == (200, first.json())
            assert await runtime.store.read(match_id) == log

            await asleep(runtime, match_id)  # a new command wakes it and is taken on the same chain
            answer = await send(api, created, 0, seen["legal"][0], idempotency_key="k2")
            assert answer.status_code == 200 and answer.json()["version"] > len(log), answer.text
            assert (await runtime.store.read(match_id))[: len(log)] == log
            await wait_for(api, created, token, answer.json()["version"])
            assert slept_objects(runtime, match_id) == []  # three sleeps, nothing left behind


@pytest.fixture(params=["directory", "s3"])
def either_archive(request, settings) -> Settings:
    """The settings with a directory archive, or with a bucket on moto's S3 server."""
    if request.param == "directory":
        return settings
    endpoint = request.getfixturevalue("s3_endpoint")
    return dataclasses.replace(settings, archive_dir=None, archive_s3_bucket=BUCKET, archive_s3_endpoint=endpoint)


async def test_a_finished_match_asleep_is_exported_and_audited_as_before(either_archive):
    app = create_app(either_archive)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            done = (await api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": [0, 1]})).json()
            match_id, token = done["match_id"], done["spectator_token"]
            deadline = time.monotonic() + 60
            while (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(token))).json()["status"] != "finished":
                assert time.monotonic() < deadline, "the bots did not finish"
                await asyncio.sleep(0.05)
            before = await answers(api, match_id, token)
            assert before["export"][0] == 200
            assert await runtime.hibernation.sleep(match_id) == "ok"
            assert await match_keys(runtime, match_id) == {keys.hibernated(match_id)}
            after = await answers(api, match_id, token)
            assert after == before
            assert audit(after["export"][1]).result is not None
            assert await runtime.hibernation.sleep(match_id) == "ok"
            await runtime.archiver.archive_match(match_id)  # asleep when its grace ends: woken, then archived
            assert await match_keys(runtime, match_id) == set()
            assert await answers(api, match_id, token) == before


async def test_two_wakers_at_once_and_a_command_while_it_is_put_to_sleep(settings):
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            created = await create(api, seats=3, bots=[1, 2])
            match_id = created["match_id"]
            seen = await settled(api, runtime, created)
            log = await runtime.store.read(match_id)
            await asleep(runtime, match_id)
            woken = await asyncio.gather(*(runtime.hibernation.wake(match_id) for _ in range(4)))
            assert woken == [True] * 4  # one restored it, the others found it awake
            assert await runtime.store.read(match_id) == log

            # a waker that read the token before another woke it and deleted its objects: it reads
            # the token again and finds the match awake (not a 503 for objects gone)
            await asleep(runtime, match_id)
            beds = runtime.hibernation.beds
            before = await beds.asleep(match_id)
            assert await runtime.hibernation.wake(match_id) and slept_objects(runtime, match_id) == []
            real, told = beds.asleep, []

            async def read_too_early(asked: str):
                told.append(asked)
                return before if len(told) == 1 else await real(asked)

            beds.asleep = read_too_early
            try:
                assert await runtime.hibernation.wake(match_id)
            finally:
                beds.asleep = real
            assert len(told) >= 2 and await runtime.store.read(match_id) == log

            # a command taken while the snapshot is being written: the match stays awake, the command kept
            archived = runtime.hibernation.archive
            put = archived.put

            async def put_then_command(name: str, data: bytes) -> None:
                await put(name, data)
                if name.endswith(".snapshot.json.gz"):
                    taken = await send(api, created, 0, seen["legal"][0])
                    assert taken.status_code == 200, taken.text

            archived.put = put_then_command
            try:
                assert await runtime.hibernation.sleep(match_id) == "moved"
            finally:
                archived.put = put
            assert len(await runtime.store.read(match_id)) > len(log)
            assert keys.hibernated(match_id) not in await match_keys(runtime, match_id)
            assert slept_objects(runtime, match_id) == []  # the objects of the sleep that did not happen


async def test_a_wake_while_the_archive_is_down_is_a_503_and_loses_nothing(settings, tmp_path):
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            created = await create(api, seats=3, bots=[1, 2])
            match_id, token = created["match_id"], seat_token(created, 0)
            seen = await settled(api, runtime, created)
            before = await answers(api, match_id, token)
            await asleep(runtime, match_id)
            root = runtime.archive.root
            gone = tmp_path / "unmounted"
            gone.write_bytes(b"")  # the archive's directory is now a file: every read fails (not "missing")
            runtime.archive.root = gone
            try:
                for read in READS:
                    down = await api.get(f"/v1/matches/{match_id}/{read}", headers=bearer(token))
                    assert down.status_code == 503 and down.json()["error"]["code"] == "unavailable", down.text
                command = await send(api, created, 0, seen["legal"][0], idempotency_key="k")
                assert command.status_code == 503, command.text
                assert await match_keys(runtime, match_id) == {keys.hibernated(match_id)}  # asleep, whole
            finally:
                runtime.archive.root = root
            assert await answers(api, match_id, token) == before
            taken = await send(api, created, 0, seen["legal"][0], idempotency_key="k")
            assert taken.status_code == 200, taken.text
