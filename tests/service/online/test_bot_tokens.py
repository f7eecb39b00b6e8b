"""A host holds its own seat only: in a match with open seats no answer carries a token for a seat
its caller does not hold, a bot's least of all (the service plays its bots itself, with no token);
over every way such a match is made (a player, a player through a trusted frontend's API key, a
private invite, a rematch), with the limits and identity the deploy kit ships. A classic creation
still hands its creator every seat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from services.ops.limits import Limits
from tests.service.backends import BACKENDS
from tests.service.client import bearer
from tests.service.limits.test_open_matches import client, gateway
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
KEY = "frontend-key"
SHIPPED = Limits(api_keys=frozenset({KEY}), create_identity="player")  # as deploy/tavern.env sets them


def tokens_in(body: Any) -> Iterator[str]:
    """Every bearer secret an answer carries (seat, spectator and player tokens alike)."""
    if isinstance(body, dict):
        for name, value in body.items():
            if name in ("token", "spectator_token") and isinstance(value, str):
                yield value
            yield from tokens_in(value)
    elif isinstance(body, list):
        for value in body:
            yield from tokens_in(value)


async def seats_held(api, person: Person, match_id: str) -> set[int]:
    """The seats of ``match_id`` that the tokens ``person`` was ever answered open."""
    held = set()
    for text in person.heard:
        try:
            body = json.loads(text)
        except ValueError:
            continue  # not JSON: holds no token
        for token in tokens_in(body):
            seen = await api.get(f"/v1/matches/{match_id}/view", headers=bearer(token))
            if seen.status_code == 200 and seen.json()["seat"] is not None:
                held.add(seen.json()["seat"])
    return held


async def by_player(api, ann: Person, ben: Person) -> str:
    created = await ann.create(game="heros-tavern", seats=3, open=[1], bots=[2])
    lobby = await ann.call("GET", "/v1/lobby?game=heros-tavern", auth=False)
    assert created["match_id"] in lobby.text
    await ben.join(created["match_id"])
    # what anyone may read of the table carries no token: the lobby, the players, a spectator's view
    watched = await api.get(f"/v1/matches/{created['match_id']}/view", headers=bearer(created["spectator_token"]))
    player = await api.get(f"/v1/players/{ann.id}")
    public = [lobby.text, (await api.get("/v1/lobby")).text, player.text, watched.text]
    assert not any(token in text for token in (ann.seat_token, ben.seat_token, ann.token) for text in public)
    return created["match_id"]


async def by_api_key(api, ann: Person, ben: Person) -> str:
    answer = await api.post(
        "/v1/matches",
        json={"game": "heros-tavern", "seats": 4, "open": [1], "bots": [2, 3]},
        headers={"x-api-key": KEY, **bearer(ann.token)},
    )
    ann.heard.append(answer.text)
    assert answer.status_code == 201, answer.text
    await ben.join(answer.json()["match_id"])
    return answer.json()["match_id"]


async def by_invite(api, ann: Person, ben: Person) -> str:
    created = await ann.create(game="taverna", seats=3, open=[2], bots=[0], private=True)
    await ben.join(created["match_id"], invite=created["invite"])
    return created["match_id"]


async def by_rematch(api, ann: Person, ben: Person) -> str:
    old = await ann.create(game="taverna", seats=3, open=[1], bots=[2])
    await ben.join(old["match_id"])
    for person in (ann, ben):  # both concede: the bot is left standing, the match is over
        answer = await person.call("POST", f"/v1/matches/{old['match_id']}/commands", {"type": "Concede"}, seat=True)
        assert answer.status_code == 200, answer.text
    ann.heard.clear()
    ben.heard.clear()  # only the rematch's answers: the old match's tokens open no seat of the new one
    first = await ann.call("POST", f"/v1/matches/{old['match_id']}/rematch")
    assert first.status_code == 200, first.text
    second = await ben.call("POST", f"/v1/matches/{old['match_id']}/rematch")
    assert second.json()["started"] is True, second.text
    return first.json()["match_id"]


@pytest.mark.parametrize("make", [by_player, by_api_key, by_invite, by_rematch])
async def test_a_host_never_holds_a_bots_seat(settings, make):
    async with gateway(settings, SHIPPED) as (app, runtime), client(app) as api:
        ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
        match_id = await make(api, ann, ben)
        match = await runtime.matches.get(match_id)
        assert match is not None and match.bots and match.lobby == "started"
        host_seat, joined_seat = (next(s for s, p in match.players.items() if p == who.id) for who in (ann, ben))
        assert await seats_held(api, ann, match_id) == {host_seat}
        assert await seats_held(api, ben, match_id) == {joined_seat}
        # no token exists for a bot seat, so none can be found anywhere: only the players' seats
        # and the spectator have one
        fields = await runtime.matches.metas.read(match_id)
        holders = {name.removeprefix("token:") for name in fields if name.startswith("token:")}
        assert holders == {str(host_seat), str(joined_seat), "spectator"}


async def test_a_classic_creation_still_hands_its_creator_every_seat(settings):
    async with gateway(settings, SHIPPED) as (app, _), client(app) as api:
        ann = await Person(api).register("Ann")
        created = await ann.create(game="heros-tavern", seats=3, bots=[1, 2])
        assert [seat["seat"] for seat in created["seats"]] == [0, 1, 2]
        assert await seats_held(api, ann, created["match_id"]) == {0, 1, 2}
