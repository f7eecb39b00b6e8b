"""The quota of open matches per creator, in process (fakeredis and a real redis-server): past it a
creation is answered 429 ``open_matches_quota`` and writes nothing; a slot is given back when its
match finishes, is abandoned, archived or closed in the lobby; a player's quota holds from any
address, an API key's is its own; a rematch counts; a creation that died half-way, or a release
that was lost, holds no slot for good."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from services.commands import lobby, open_matches
from services.gateway import creators
from services.gateway.app import create_app
from services.ops.limits import Limits
from services.ops.settings import Settings
from services.store import keys
from tests.service.client import bearer, seat_token
from tests.service.online.lobby_client import Person
from tests.service.store.partitioned import DEPLOYED

pytestmark = pytest.mark.anyio
ONE_BOT = {"game": "mercenaries", "seats": 2, "bots": [1]}
KEY = "frontend-key"
QUICK = Limits(creates_per_s=0, open_matches=2, open_matches_per_api_key=3, api_keys=frozenset())


@contextlib.asynccontextmanager
async def gateway(settings: Settings, limits: Limits = QUICK) -> AsyncIterator[tuple]:
    app = create_app(dataclasses.replace(settings, limits=limits), embedded_worker=True)
    async with app.router.lifespan_context(app):
        yield app, app.state.runtime


def client(app, address: str = "10.0.0.1") -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 4000)), base_url="http://t")


async def metas(runtime) -> int:
    return len(await runtime.events.keys("match:*:meta"))


async def refused(api: httpx.AsyncClient, body: dict, **headers: str) -> None:
    answer = await api.post("/v1/matches", json=body, headers=headers)
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"]["code"] == "open_matches_quota"


async def until_created(api: httpx.AsyncClient, body: dict, seconds: float = 30.0, **headers: str) -> dict:
    """A creation, retried while the quota is full (a slot is given back by the projector, behind)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = await api.post("/v1/matches", json=body, headers=headers)
        if answer.status_code == 201:
            return answer.json()
        assert answer.json()["error"]["code"] == "open_matches_quota", answer.text
        assert time.monotonic() < deadline, "no slot was given back"
        await asyncio.sleep(0.05)


async def test_past_the_quota_nothing_is_written_and_a_finished_match_frees_its_slot(settings):
    async with gateway(settings) as (app, runtime), client(app) as api, client(app, "10.0.0.2") as other:
        first = (await api.post("/v1/matches", json=ONE_BOT)).json()
        await api.post("/v1/matches", json=ONE_BOT)
        before = await metas(runtime)
        await refused(api, ONE_BOT)
        assert (await api.post("/v1/matches", json={**ONE_BOT, "seats": 9})).status_code == 422  # rules first
        assert await metas(runtime) == before
        assert (await other.post("/v1/matches", json=ONE_BOT)).status_code == 201  # another address's own quota

        conceded = await api.post(f"/v1/matches/{first['match_id']}/commands", json={"type": "Concede"},
                                  headers=bearer(seat_token(first, 0)))
        assert conceded.status_code == 200, conceded.text
        slots = keys.open_matches(creators.holders("10.0.0.1", None, None, QUICK)[0].name)
        deadline = time.monotonic() + 30
        while await runtime.events.zscore(slots, first["match_id"]) is not None:  # the projector gives it back
            assert time.monotonic() < deadline, "the finished match kept its slot"
            await asyncio.sleep(0.05)
        assert (await api.post("/v1/matches", json=ONE_BOT)).status_code == 201
        await refused(api, ONE_BOT)


async def test_a_players_quota_holds_from_any_address_and_an_api_keys_is_its_own(settings):
    async with gateway(settings) as (app, _), client(app) as home, client(app, "10.0.0.2") as away:
        ann = await Person(home).register("Ann")
        for _ in range(2):
            assert (await home.post("/v1/matches", json=ONE_BOT, headers=bearer(ann.token))).status_code == 201
        await refused(away, ONE_BOT, **bearer(ann.token))  # Ann is full, wherever she calls from
        await refused(home, ONE_BOT)  # and so is her address
        assert (await away.post("/v1/matches", json=ONE_BOT)).status_code == 201

    limits = dataclasses.replace(QUICK, api_keys=frozenset({KEY}))
    async with gateway(settings, limits) as (app, _), client(app) as frontend:
        for _ in range(3):  # more than an address's 2: the frontend creates for many people
            assert (await frontend.post("/v1/matches", json=ONE_BOT, headers={"x-api-key": KEY})).status_code == 201
        await refused(frontend, ONE_BOT, **{"x-api-key": KEY})


async def test_a_lobby_match_counts_until_its_host_closes_it_and_a_rematch_counts(settings):
    async with gateway(settings) as (app, runtime), client(app) as api, client(app, "10.0.0.2") as ben_api:
        ann, ben = await Person(api).register("Ann"), await Person(ben_api).register("Ben")
        table = await ann.create(game="mercenaries", seats=2, open=[1])
        await ann.create(game="mercenaries", seats=2, open=[1])
        await refused(api, {"game": "mercenaries", "seats": 2, "open": [1]}, **bearer(ann.token))
        left = await ann.call("POST", f"/v1/matches/{table['match_id']}/leave")
        assert left.json()["cancelled"] is True, left.text
        played = await ann.create(game="mercenaries", seats=2, open=[1])  # the closed table's slot is back
        await ben.join(played["match_id"], seat=1)
        conceded = await ben.call("POST", f"/v1/matches/{played['match_id']}/commands", {"type": "Concede"}, seat=True)
        assert conceded.status_code == 200, conceded.text

        # Ann is full again once the finished match's slot is taken by another creation
        await until_created(api, ONE_BOT, **bearer(ann.token))
        before = await metas(runtime)
        answer = await ann.call("POST", f"/v1/matches/{played['match_id']}/rematch")
        assert (answer.status_code, answer.json()["error"]["code"]) == (429, "open_matches_quota"), answer.text
        assert await metas(runtime) == before
        assert await runtime.events.hget(keys.meta(played["match_id"]), "rematch") is None
        assert (await ben.call("POST", f"/v1/matches/{played['match_id']}/rematch")).status_code == 200


async def test_a_lobby_match_nobody_comes_to_is_closed_after_the_idle_limit(settings, tmp_path):
    """Public, private or a rematch's: once it has waited TAVERN_IDLE_LIMIT_S it is closed as if its
    host had left (off the lobby, a join hears match_closed) and its slot is given back; a lobby
    match younger than that, or one that started, is left alone."""
    archived = dataclasses.replace(settings, archive_dir=str(tmp_path / "archive"), archive_every_s=3600.0,
                                   limits=dataclasses.replace(QUICK, open_matches=5))
    app = create_app(archived, embedded_worker=True)
    async with app.router.lifespan_context(app), client(app) as api, client(app, "10.0.0.2") as ben_api:
        runtime = app.state.runtime
        ann, ben = await Person(api).register("Ann"), await Person(ben_api).register("Ben")
        public = await ann.create(game="mercenaries", seats=2, open=[1])
        private = await ann.create(game="mercenaries", seats=2, open=[1], private=True)
        played = await ann.create(game="mercenaries", seats=2, open=[1])
        await ben.join(played["match_id"], seat=1)
        conceded = await ben.call("POST", f"/v1/matches/{played['match_id']}/commands", {"type": "Concede"}, seat=True)
        assert conceded.status_code == 200, conceded.text
        rematch = (await ann.call("POST", f"/v1/matches/{played['match_id']}/rematch")).json()["match_id"]
        waiting = {public["match_id"], private["match_id"], rematch}
        slots = keys.open_matches(creators.holders("10.0.0.1", None, ann.id, QUICK)[0].name)
        assert waiting <= {m.decode() for m in await runtime.events.zrange(slots, 0, -1)}

        assert await runtime.archiver.sweep(time.time() + 60) == 0  # young: nothing closed
        assert await waiting_in_the_lobby(runtime) == waiting
        await runtime.archiver.sweep(time.time() + settings.idle_limit_s + 60)
        assert await waiting_in_the_lobby(runtime) == set()
        assert not waiting & {m.decode() for m in await runtime.events.zrange(slots, 0, -1)}
        assert public["match_id"] not in (await api.get("/v1/lobby")).text
        for match_id in waiting:
            assert (await runtime.matches.get(match_id)).lobby == "cancelled"
            assert 0 < await runtime.events.ttl(keys.meta(match_id)) <= lobby.CLOSED_KEPT_S  # then gone
        answer = await ben.call("POST", f"/v1/matches/{public['match_id']}/join", {})
        assert (answer.status_code, answer.json()["error"]["code"]) == (409, "match_closed")
        assert (await runtime.matches.get(played["match_id"])).lobby == "started"


async def waiting_in_the_lobby(runtime) -> set[str]:
    return {m.decode() for key in DEPLOYED.keys(keys.LOBBY_WAITING) for m in await runtime.events.zrange(key, 0, -1)}


async def test_a_creation_that_died_half_way_or_a_lost_release_holds_no_slot_for_good(settings):
    async with gateway(settings) as (app, runtime), client(app) as api:
        full = creators.holders("10.0.0.1", None, None, QUICK)[0]
        slots = keys.open_matches(full.name)
        seconds, _ = await runtime.events.time()
        # a gateway died between taking a slot and writing its match two minutes ago; another is
        # taking one now (its match not written yet): the first is given back, the second holds
        await runtime.events.zadd(slots, {"0123456789abcdef": (seconds - 120) * 1000,
                                               "fedcba9876543210": seconds * 1000})
        kept = (await api.post("/v1/matches", json=ONE_BOT)).json()
        await refused(api, ONE_BOT)
        assert await runtime.events.zscore(slots, "fedcba9876543210") is not None

        # the release of a finished match lost (e.g. a worker killed): found finished when full
        await runtime.events.zadd(DEPLOYED.key(keys.FINISHED, kept["match_id"]), {kept["match_id"]: seconds})
        created = (await api.post("/v1/matches", json=ONE_BOT)).json()
        assert {m.decode() for m in await runtime.events.zrange(slots, 0, -1)} == {
            "fedcba9876543210", created["match_id"]}

        # and any slot lapses once its match would have been ended as idle (TAVERN_IDLE_LIMIT_S)
        lapsed = (seconds - settings.idle_limit_s - 1) * 1000
        await runtime.events.zadd(slots, {"fedcba9876543210": lapsed, created["match_id"]: lapsed})
        assert (await api.post("/v1/matches", json=ONE_BOT)).status_code == 201


async def settled(runtime, match_id: str, seconds: float = 30.0) -> None:
    """Until the embedded worker has projected the whole log and the bot seat has had its turn: an
    abandonment is appended at the version read, so a bot move after that read would make it moot."""
    deadline, last = time.monotonic() + seconds, -1
    while time.monotonic() < deadline:
        length = await runtime.events.xlen(keys.log(match_id))
        if length == last == int(await runtime.events.hget(keys.views(match_id), "v") or 0):
            return
        last = length
        await asyncio.sleep(0.3)
    pytest.fail(f"match {match_id} never settled")


async def test_an_abandoned_or_archived_match_gives_its_slots_back(settings, tmp_path):
    archived = dataclasses.replace(settings, archive_dir=str(tmp_path / "archive"), archive_every_s=3600.0)
    async with gateway(archived) as (app, runtime), client(app) as api:
        idle = (await api.post("/v1/matches", json=ONE_BOT)).json()
        done = (await api.post("/v1/matches", json=ONE_BOT)).json()
        holder = creators.holders("10.0.0.1", None, None, QUICK)[0].name
        slots = keys.open_matches(holder)
        assert (await runtime.matches.get(idle["match_id"])).quota == (holder,)

        await settled(runtime, idle["match_id"])
        await runtime.archiver.abandon("mercenaries", idle["match_id"], time.time())
        assert await runtime.events.zscore(slots, idle["match_id"]) is None
        await runtime.events.zadd(slots, {idle["match_id"]: 1})  # as if that release was lost
        await runtime.archiver.archive_match(idle["match_id"])
        assert await runtime.events.zscore(slots, idle["match_id"]) is None
        assert await runtime.events.zscore(slots, done["match_id"]) is not None


def test_the_quota_settings():
    assert (Limits().open_matches, Limits().open_matches_per_api_key) == (50, 10_000)
    from services.ops.limits import limits_from_env

    read = limits_from_env({"TAVERN_OPEN_MATCHES": "3", "TAVERN_OPEN_MATCHES_PER_API_KEY": "0"})
    assert (read.open_matches, read.open_matches_per_api_key) == (3, 0)
    assert open_matches.holder("addr", "10.0.0.1", 3).name.startswith("addr:")
    assert "10.0.0.1" not in open_matches.holder("addr", "10.0.0.1", 3).name


async def test_idle_matches_lock_their_creator_out_no_longer_than_the_quota_idle_limit(settings):
    """An address's quota filled with matches nobody plays (by anyone behind it) locks it out for
    TAVERN_OPEN_MATCHES_IDLE_S after their newest event, not until they are ended as abandoned (a
    week); a slot whose match is played on holds, however long ago it was taken."""
    unplayed = {"game": "mercenaries", "seats": 2}  # no bot: nothing moves after the opening deal
    async with gateway(settings) as (app, runtime), client(app, "10.0.0.9") as api:
        slots = keys.open_matches(creators.holders("10.0.0.9", None, None, QUICK)[0].name)
        first, second = [(await api.post("/v1/matches", json=unplayed)).json()["match_id"] for _ in range(2)]
        await refused(api, unplayed)
        lists = runtime.events  # the lifecycle's lists and the quota's slots, on the events' Redis

        def live(match_id: str) -> str:  # the partition of the game's played list holding the match
            return runtime.lifecycle.partitions.key(keys.live("mercenaries"), match_id)

        deadline = time.monotonic() + 30
        while None in [await lists.zscore(live(match_id), match_id) for match_id in (first, second)]:
            assert time.monotonic() < deadline, "the opening deals were never projected"
            await asyncio.sleep(0.1)
        seconds, _ = await lists.time()
        idle_since = seconds - QUICK.open_matches_idle_s - 60
        assert idle_since > seconds - settings.idle_limit_s  # well within the week a match is kept idle
        # the first: taken and last moved past the quota's idle limit; the second: taken as long
        # ago, but moved just now
        await lists.zadd(slots, {first: idle_since * 1000, second: idle_since * 1000})
        await lists.zadd(live(first), {first: idle_since})
        await lists.zadd(live(second), {second: seconds})
        third = (await api.post("/v1/matches", json=unplayed)).json()["match_id"]
        assert {m.decode() for m in await lists.zrange(slots, 0, -1)} == {second, third}
        await refused(api, unplayed)  # the match played on, and the new one, hold theirs
        assert await runtime.matches.get(first) is not None  # the idle match itself is kept on
