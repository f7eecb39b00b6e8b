"""A forfeit is a concession: in a rated match of three registered players, a seat that runs out of
time at the clock's limit with ``forfeit`` ranks last in the standings and in the ratings, as a
seat that concedes does, whatever rank the bot that plays it on reaches."""

from __future__ import annotations

import asyncio

import pytest

from services.commands.ratings import rebuild
from tests.service.backends import BACKENDS
from tests.service.online.lobby_client import Person, play

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
FAR = 1e12  # a time by which every deadline has passed
CLOCK = {"per_move_s": 3600, "limit": 1, "forfeit": True}  # the service's own sweeper never fires here


async def due_seats(people: list[Person], match_id: str) -> list[int]:
    for _ in range(2000):
        seen = [(await p.call("GET", f"/v1/matches/{match_id}/view", seat=True)).json() for p in people]
        due = [view["seat"] for view in seen if view["legal"] and view["players"][view["seat"]]["clock"]["deadline"]]
        if due:
            return due
        await asyncio.sleep(0.01)
    raise AssertionError("no seat was ever due")


@pytest.mark.parametrize("how", ["concede", "forfeit"])
async def test_a_seat_that_gives_up_ranks_last_in_standings_and_ratings(app, api, how):
    runtime = app.state.runtime
    people = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    match_id = (await people[0].create(game="heros-tavern", seats=3, open=[1, 2], clock=CLOCK))["match_id"]
    for person in people[1:]:
        await person.join(match_id)
    seats = {(await p.call("GET", f"/v1/matches/{match_id}/view", seat=True)).json()["seat"]: p for p in people}
    if how == "forfeit":
        (gone, *_) = await due_seats(people, match_id)
        # every seat due then times out (limit 1, forfeit) once the projector has noted the deadline,
        # just after the views that show it: the sweeper runs every second, here until it finds it
        for _ in range(500):
            if await runtime.timeouts.sweep(FAR) >= 1:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the sweeper never found the deadline")
    else:
        gone = 1
        answer = await seats[gone].call("POST", f"/v1/matches/{match_id}/commands", {"type": "Concede"}, seat=True)
        assert answer.status_code == 200, answer.text
    events = (await seats[gone].call("GET", f"/v1/matches/{match_id}/events", seat=True)).json()
    conceded = [event["event"]["seat"] for event in events if event["type"] == "Conceded"]
    assert gone in conceded
    standing = [p for seat, p in sorted(seats.items()) if seat not in conceded]
    final = await play(standing, match_id, seed=11)
    ranks = {s["seat"]: s["rank"] for s in final["result"]["standings"]}
    # every seat that gave up ranks below every seat that did not, the first to give up last
    assert sorted(ranks, key=ranks.get)[-len(conceded):] == list(reversed(conceded))
    assert final["result"]["details"]["conceded"] == conceded

    for _ in range(2000):  # in the history, and counted in each of its players' ratings
        listed = any(m.match_id == match_id for m in await runtime.ratings.history("heros-tavern"))
        if listed and len(await runtime.ratings.all("heros-tavern")) == 3:
            break
        await asyncio.sleep(0.01)
    (counted,) = [m for m in await runtime.ratings.history("heros-tavern") if m.match_id == match_id]
    rated = dict(counted.ranks)
    assert rated == {seats[seat].id: rank for seat, rank in ranks.items()}
    assert rated[seats[conceded[0]].id] == 3
    kept = await runtime.ratings.all("heros-tavern")
    assert await rebuild(runtime.matches, runtime.folds, [match_id], "heros-tavern") == kept
    # of the three, fresh players all, the first to give up is rated lowest
    assert min((p.id for p in people), key=lambda player: kept[player].ordinal) == seats[conceded[0]].id
