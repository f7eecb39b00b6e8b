"""Tournaments through the API, short of playing whole matches: registration, withdrawal and their
refusals; the sweepers starting a tournament at its start time; a seat never taken (a no-show) and
a seat taken but never played (its clock forfeits it); the standings rebuilt from the logs equal the
live ones each time."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time

import httpx
import msgspec
import pytest

from domain.kernel import Result, Standing
from services.gateway.app import create_app
from tests.service.contract.published import Published
from tests.service.online.lobby_client import Person

pytestmark = pytest.mark.anyio
FAR = 1e12  # a time by which every deadline has passed
CLOCK = {"per_move_s": 3600, "limit": 1, "forfeit": True}  # the service's own sweeper never fires here


async def tournament(host: Person, **asked) -> str:
    answer = await host.call("POST", "/v1/tournaments", asked)
    assert answer.status_code == 201, answer.text
    assert answer.json()["status"] == "registering"
    return answer.json()["tournament_id"]


async def act(person: Person, tournament_id: str, what: str, status: int = 200, code: str = "") -> dict:
    answer = await person.call("POST", f"/v1/tournaments/{tournament_id}/{what}")
    assert answer.status_code == status, answer.text
    if code:
        assert answer.json()["error"]["code"] == code
    return answer.json()


async def settled(api, app, tournament_id: str, status: str) -> dict:
    """The tournament once it has reached ``status``; its standings rebuilt from the logs are the live ones."""
    for _ in range(1000):
        info = (await api.get(f"/v1/tournaments/{tournament_id}")).json()
        if info["status"] == status:
            rebuilt = await app.state.runtime.tournaments.rebuild(tournament_id)
            assert msgspec.to_builtins(rebuilt) == info["standings"]
            return info
        await asyncio.sleep(0.01)
    raise AssertionError(f"the tournament never reached {status}")


async def test_every_answer_is_as_the_published_schema_says(app, api):
    """Each tournament endpoint's answers, errors too, against /openapi.json (closed: no field it does not declare)."""
    published = Published((await api.get("/openapi.json")).json())
    people = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    created = await people[0].call("POST", "/v1/tournaments", {"game": "mercenaries", "rounds": 2, "name": "Cup"})
    published.answer("post", "/v1/tournaments", 201, created.json())
    tournament_id, one = created.json()["tournament_id"], "/v1/tournaments/{tournament_id}"
    for person in people:
        published.answer("post", one + "/register", 200, await act(person, tournament_id, "register"))
    published.answer("post", one + "/register", 409, await act(people[1], tournament_id, "register", 409))
    published.answer("post", one + "/withdraw", 200, await act(people[2], tournament_id, "withdraw"))
    await act(people[2], tournament_id, "register")
    published.answer("post", one + "/start", 200, await act(people[0], tournament_id, "start"))
    await app.state.runtime.tournaments.advance(tournament_id, time.time() + 400)  # the table's no-shows
    info = (await api.get(f"/v1/tournaments/{tournament_id}")).json()
    assert len(info["pairings"]) == 1 and info["pairings"][0]["tables"][0]["points"] == [0.0, 0.0]
    published.answer("get", one, 200, info)
    published.answer("get", "/v1/tournaments", 200, (await api.get("/v1/tournaments")).json())
    published.answer("get", one, 404, (await api.get("/v1/tournaments/nope")).json())
    published.answer("post", "/v1/tournaments", 401, (await api.post("/v1/tournaments", json={})).json())
    refused = await people[0].call("POST", "/v1/tournaments", {"game": "taverna", "rounds": 99})
    published.answer("post", "/v1/tournaments", 422, refused.json())


async def test_registration_withdrawal_and_their_refusals(api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    refused = await ann.call("POST", "/v1/tournaments", {"game": "taverna", "kind": "knockout", "rounds": 3})
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "bad_kind")
    refused = await ann.call("POST", "/v1/tournaments", {"game": "taverna", "kind": "elimination", "seats": 3})
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "elimination_needs_two")
    refused = await ann.call("POST", "/v1/tournaments", {"game": "taverna", "rounds": 0})
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "bad_rounds")
    refused = await ann.call("POST", "/v1/tournaments", {"game": "chess", "rounds": 3})
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "unknown_game")
    refused = await api.post("/v1/tournaments", json={"game": "taverna", "rounds": 3})
    assert (refused.status_code, refused.json()["error"]["code"]) == (401, "no_player_token")
    missing = await api.get("/v1/tournaments/0123456789abcdef")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "no_such_tournament")

    tournament_id = await tournament(ann, game="taverna", rounds=3)
    assert (await act(ann, tournament_id, "register"))["players"] == [ann.id]
    await act(ann, tournament_id, "register", 409, "registered_already")
    await act(ben, tournament_id, "withdraw", 409, "not_registered")
    await act(ben, tournament_id, "register")
    assert (await act(ben, tournament_id, "withdraw"))["withdrawn"] == {ben.id: "withdrew"}
    assert (await act(ben, tournament_id, "register"))["withdrawn"] == {}  # back before the start
    await act(ben, tournament_id, "start", 403, "not_host")
    started = await act(ann, tournament_id, "start")
    assert started["status"] == "running" and len(started["pairings"][0]["tables"]) == 1
    await act(ben, tournament_id, "register", 409, "registration_closed")
    await act(ann, tournament_id, "start", 409, "tournament_started")


async def test_a_tournament_starts_at_its_start_time(app, api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    tournament_id = await tournament(ann, game="mercenaries", rounds=1, start_at=time.time() + 0.5)
    for person in (ann, ben):
        await act(person, tournament_id, "register")
    info = await settled(api, app, tournament_id, "running")  # started by a sweep, every second
    assert sorted(info["pairings"][0]["tables"][0]["players"]) == sorted([ann.id, ben.id])


async def test_a_seat_never_taken_is_a_no_show(app, api):
    people = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    tournament_id = await tournament(people[0], game="mercenaries", rounds=2, join_s=60)
    for person in people:
        await act(person, tournament_id, "register")
    first = (await act(people[0], tournament_id, "start"))["pairings"][0]["tables"]
    table = next(t for t in first if t["match_id"])
    came, absent = (next(p for p in people if p.id == player) for player in table["players"])
    told = [json.loads(raw) for _, raw in await app.state.runtime.challenges.events(absent.id, "0-0", 10)]
    assert told == [
        {"type": "tournament_table", "tournament_id": tournament_id, "round": 1, "match_id": table["match_id"],
         "game": "mercenaries", "seat": 1},
    ]  # fmt: skip
    await came.join(table["match_id"])
    # before join_s, nothing; after it, the table is the no-show's loss and its opponent's win
    runtime = app.state.runtime
    assert await runtime.tournaments.book.due.of(tournament_id) <= time.time() + 60  # the sweepers look by then
    await runtime.tournaments.advance(tournament_id, time.time())
    assert (await api.get(f"/v1/tournaments/{tournament_id}")).json()["pairings"][0]["tables"] == first
    await runtime.tournaments.advance(tournament_id, time.time() + 61)
    info = await settled(api, app, tournament_id, "running")
    scored = next(t for t in info["pairings"][0]["tables"] if t["match_id"])
    assert scored["absent"] == [absent.id] and scored["points"] == [
        1.0 if p == came.id else 0.0 for p in scored["players"]
    ]
    assert info["withdrawn"] == {absent.id: "no_show"}
    assert len(info["pairings"]) == 2  # round 2 without the no-show: the two others
    assert absent.id not in {p for t in info["pairings"][1]["tables"] for p in t["players"]}
    rows = {row["player_id"]: row for row in info["standings"]}
    assert (rows[came.id]["points"], rows[came.id]["byes"], rows[absent.id]["points"]) == (1.0, 1, 0.0)


async def test_a_seat_taken_but_never_played_forfeits_on_its_clock(app, api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    tournament_id = await tournament(ann, game="mercenaries", kind="elimination", clock=CLOCK)
    for person in (ann, ben):
        await act(person, tournament_id, "register")
    (table,) = (await act(ann, tournament_id, "start"))["pairings"][0]["tables"]
    for person in (ann, ben):
        await person.join(table["match_id"])
    runtime = app.state.runtime
    for _ in range(1000):  # once the projector has noted the first deadline, the sweep times that seat out
        if await runtime.timeouts.sweep(FAR) >= 1:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the sweeper never found the deadline")
    info = await settled(api, app, tournament_id, "finished")
    (scored,) = info["pairings"][0]["tables"]
    assert sorted(scored["points"]) == [0.0, 1.0]
    assert info["standings"][0]["reached"] == 2 and info["standings"][0]["wins"] == 1


async def test_on_a_schedule_the_next_round_waits_for_its_time(app, api):
    people = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    start = time.time()
    tournament_id = await tournament(
        people[0], game="mercenaries", rounds=2, join_s=60, round_every_s=3600, start_at=start
    )
    for person in people:
        await act(person, tournament_id, "register")
    await act(people[0], tournament_id, "start")
    runtime = app.state.runtime
    # nobody comes to round 1's table: it is over once join_s has passed, round 2 is due an hour after the start
    assert await runtime.tournaments.advance(tournament_id, start + 61) == start + 3600
    info = (await api.get(f"/v1/tournaments/{tournament_id}")).json()
    assert len(info["pairings"]) == 1 and len(info["withdrawn"]) == 2
    await runtime.tournaments.advance(tournament_id, start + 3601)
    # the two no-shows withdrawn, one player is left: no round 2, the tournament is over
    info = await settled(api, app, tournament_id, "finished")
    assert len(info["pairings"]) == 1


async def test_creating_tournaments_counts_as_creating_at_the_creations_rate(settings):
    # a burst of 3 refilled once in 100 s: spent whatever the machine's speed (at the shipped 5 a
    # second, a slow run refilled the bucket as fast as it created, and was never refused)
    limits = dataclasses.replace(settings.limits, creates_per_s=0.01, creates_burst=3)
    app = create_app(dataclasses.replace(settings, limits=limits))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://tavern"
    ) as api:
        ann = await Person(api).register("Ann")
        for _ in range(limits.creates_burst + 1):
            answer = await ann.call("POST", "/v1/tournaments", {"game": "taverna", "rounds": 1})
            if answer.status_code == 429:
                assert answer.json()["error"]["code"] == "rate_limited"
                return
            assert answer.status_code == 201, answer.text
    raise AssertionError("never refused past the creations' burst")


async def test_a_tables_end_makes_its_tournament_due_and_a_sweep_advances_it(app, api, monkeypatch):
    """The projector records a table's ranks and makes its tournament due now; the next round is
    made by a sweep, never in the projector's step. (The table's result is handed in as the
    projector would, its match not played: the standings are not rebuilt from the logs here.)"""
    people = [await Person(api).register(name) for name in ("Ann", "Ben")]
    tournament_id = await tournament(people[0], game="mercenaries", rounds=2)
    for person in people:
        await act(person, tournament_id, "register")
    (table,) = (await act(people[0], tournament_id, "start"))["pairings"][0]["tables"]
    for person in people:
        await person.join(table["match_id"])
    runtime = app.state.runtime
    match = await runtime.matches.get(table["match_id"])
    first, second = sorted(match.players)
    won = Result((first,), (Standing(first, 1, 0), Standing(second, 2, 0)))
    advancing = []  # the tasks that advanced a tournament (the app's own sweeps run beside this test)
    advance = runtime.tournaments.advance

    async def counted(*args, **kwargs):
        advancing.append(asyncio.current_task())
        return await advance(*args, **kwargs)

    monkeypatch.setattr(runtime.tournaments, "advance", counted)
    await runtime.tournaments.book.due.set(tournament_id, time.time() + 3600)
    await runtime.tournaments.ended(match, won)
    assert asyncio.current_task() not in advancing  # the projector's call only made it due
    assert await runtime.tournaments.book.due.of(tournament_id) <= time.time()
    await runtime.tournaments.sweep(time.time() + 0.001)
    for _ in range(300):  # (the app's own sweep may be the one that advanced it, a moment later)
        info = (await api.get(f"/v1/tournaments/{tournament_id}")).json()
        if len(info["pairings"]) == 2:
            break
        await asyncio.sleep(0.01)
    assert len(info["pairings"]) == 2 and info["pairings"][0]["tables"][0]["points"] == [1.0, 0.0]


async def test_a_finished_tournament_leaves_redis_for_the_archive_and_reads_the_same(settings, tmp_path):
    """An hour (the deployment's grace) after its end, a sweep moves the tournament's log and ranks
    to the archive and out of Redis; it stays on the list, and every read answers as before."""
    app = create_app(dataclasses.replace(settings, archive_dir=str(tmp_path / "archive")), embedded_worker=True)
    async with app.router.lifespan_context(app), httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://tavern"
    ) as api:
        ann, ben, cat = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
        tournament_id = await tournament(ann, game="mercenaries", kind="elimination")
        for person in (ann, ben):
            await act(person, tournament_id, "register")
        (table,) = (await act(ann, tournament_id, "start"))["pairings"][0]["tables"]
        for person in (ann, ben):
            await person.join(table["match_id"])
        runtime, book = app.state.runtime, app.state.runtime.tournaments.book
        conceded = await ben.call("POST", f"/v1/matches/{table['match_id']}/commands", {"type": "Concede"}, seat=True)
        assert conceded.status_code == 200, conceded.text  # the table, and the tournament, end
        before = await settled(api, app, tournament_id, "finished")
        listed = (await api.get("/v1/tournaments")).json()
        ended_at = time.time()
        assert await book.due.of(tournament_id) > ended_at + 3000  # looked at again after the grace
        assert await runtime.tournaments.advance(tournament_id, ended_at) > ended_at + 3000
        assert await book.log(tournament_id)  # not yet
        assert await runtime.tournaments.advance(tournament_id, ended_at + 3601) is None
        assert await book.log(tournament_id) == [] and await book.results(tournament_id) == {}
        assert list((tmp_path / "archive" / "tournaments").glob(f"*/{tournament_id}.json.gz"))
        assert (await api.get(f"/v1/tournaments/{tournament_id}")).json() == before
        assert (await api.get("/v1/tournaments")).json() == listed
        await act(cat, tournament_id, "register", 409, "registration_closed")
        await act(ann, tournament_id, "withdraw", 409, "tournament_over")
        assert await runtime.tournaments.advance(tournament_id, FAR) is None  # archived already
