"""Rematch: the same game, options, clock and players, seats rotated; each player gets its own
new token by asking (the first to ask creates it, the others join it); refusals change nothing."""

from __future__ import annotations

import json

import pytest

from tests.service.backends import BACKENDS
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def finished_match(api) -> tuple[Person, Person, Person, str]:
    ann, ben, cat = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    created = await ann.create(game="taverna", seats=3, open=[1, 2], clock={"per_move_s": 60}, options={"curse": True})
    await ben.join(created["match_id"], seat=1)
    await cat.join(created["match_id"], seat=2)
    url = f"/v1/matches/{created['match_id']}/commands"
    for person in (ben, cat):
        answer = await person.call("POST", url, {"type": "Concede"}, seat=True)
        assert answer.status_code == 200, answer.text
    return ann, ben, cat, created["match_id"]


async def test_a_rematch_rotates_the_seats_and_answers_each_player_its_own_token(app, api):
    ann, ben, cat, old = await finished_match(api)
    first = await ben.call("POST", f"/v1/matches/{old}/rematch")
    assert first.status_code == 200, first.text
    new = first.json()["match_id"]
    # the others hear the offer on their event streams; who asked hears none
    events = app.state.runtime.challenges.events
    offers = {who.id: [json.loads(raw) for _, raw in await events(who.id, "0-0", 10)] for who in (ann, ben, cat)}
    offer = {"type": "rematch_offered", "match_id": old, "rematch": new, "game": "taverna", "by": ben.id}
    assert [e for e in offers[ann.id] if e["type"] == "rematch_offered"] == [offer]
    assert [e for e in offers[cat.id] if e["type"] == "rematch_offered"] == [offer]
    assert not [e for e in offers[ben.id] if e["type"] == "rematch_offered"]
    assert new != old and first.json()["seat"] == 2 and not first.json()["started"]
    ben.seat_token = first.json()["token"]
    outsider = await Person(api).register("Dee")
    taken = await outsider.call("POST", f"/v1/matches/{new}/join", {"seat": 0})
    assert (taken.status_code, taken.json()["error"]["code"]) == (409, "seat_reserved")
    second = await cat.call("POST", f"/v1/matches/{old}/rematch")
    assert second.json()["match_id"] == new and second.json()["seat"] == 0
    third = await ann.call("POST", f"/v1/matches/{old}/rematch")
    assert third.json()["seat"] == 1 and third.json()["started"] is True
    ann.seat_token = third.json()["token"]
    seen = (await ann.call("GET", f"/v1/matches/{new}/view", seat=True)).json()
    assert [p["name"] for p in seen["players"]] == ["Cat", "Ann", "Ben"]
    assert seen["players"][1]["clock"]["bank_s"] == 0 and seen["status"] == "active"
    tokens = {first.json()["token"], second.json()["token"], third.json()["token"]}
    assert len(tokens) == 3
    assert first.json()["token"] not in "".join(ann.heard + cat.heard)
    assert third.json()["token"] not in "".join(ben.heard + cat.heard)


async def test_rematch_refusals(api):
    ann, _, _, old = await finished_match(api)
    running = await ann.create(game="taverna", seats=3, open=[1, 2])
    cases = [
        (await ann.call("POST", f"/v1/matches/{running['match_id']}/rematch"), 409, "match_running"),
        (await ann.call("POST", "/v1/matches/nope/rematch"), 404, "no_such_match"),
        (await (await Person(api).register("Dee")).call("POST", f"/v1/matches/{old}/rematch"), 403, "not_a_player"),
        (await api.post(f"/v1/matches/{old}/rematch"), 401, "no_player_token"),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
