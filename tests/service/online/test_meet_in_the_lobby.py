"""Two players find each other through the lobby only, play a Hero's Tavern match with a bot in
the third seat, and neither ever receives the other's token."""

from __future__ import annotations

import pytest

from tests.service.backends import BACKENDS
from tests.service.online.lobby_client import Person, play

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def test_two_players_meet_in_the_lobby_and_play_with_a_bot(api):
    ann, ben = Person(api), Person(api)
    await ann.register("Ann")
    await ben.register("Ben")
    created = await ann.create(game="heros-tavern", seats=3, open=[1, 2])
    # Ben knows nothing but the lobby: he finds Ann's match there
    page = (await ben.call("GET", "/v1/lobby?game=heros-tavern", auth=False)).json()
    (found,) = [entry for entry in page["matches"] if entry["host"] == "Ann"]
    assert found["match_id"] == created["match_id"] and found["free"] == [1, 2]
    joined = await ben.join(found["match_id"])
    assert joined["seat"] == 1 and not joined["started"]
    started = await ann.call("POST", f"/v1/matches/{found['match_id']}/start")
    assert started.json()["bots"] == [2]
    final = await play([ann, ben], found["match_id"], seed=5)
    assert [(p["seat"], p["name"], p["bot"]) for p in final["players"]] == [
        (0, "Ann", False),
        (1, "Ben", False),
        (2, None, True),
    ]
    assert final["result"]["standings"]
    assert ann.seat_token != ben.seat_token
    ann_heard, ben_heard = "".join(ann.heard), "".join(ben.heard)
    assert ben.seat_token not in ann_heard and ben.token not in ann_heard
    assert ann.seat_token not in ben_heard and ann.token not in ben_heard
