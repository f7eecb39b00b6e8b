"""Players and the lobby through the public HTTP API, on fakeredis and on a real Redis server:
every endpoint and every refusal's status and code, and that a refusal changes nothing."""

from __future__ import annotations

import pytest

from domain.games import get_game
from tests.service.backends import BACKENDS
from tests.service.client import bearer
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def test_a_player_registers_and_is_found_by_id(api):
    ada = await Person(api).register("  Ada Lovelace ")
    answer = await api.get(f"/v1/players/{ada.id}")
    assert answer.status_code == 200
    assert answer.json()["name"] == "Ada Lovelace" and answer.json()["player_id"] == ada.id
    assert "token" not in answer.json() and ada.token not in answer.text
    assert len(ada.token) >= 32


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "x" * 25}, 422, "name_too_long"),
        ({"name": "x" * 2000}, 422, "name_too_long"),
        ({"name": ""}, 422, "bad_name"),
        ({"name": "   "}, 422, "bad_name"),
        ({"name": "<script>"}, 422, "bad_name"),
        ({"name": "a  b"}, 422, "bad_name"),
        ({"name": "Bot"}, 422, "bot_name"),
        ({"name": "greedy_bot"}, 422, "bot_name"),
        ({"name": "Bot 2"}, 422, "bot_name"),
        ({"name": "BOTS-r-us"}, 422, "bot_name"),
        ({"name": 7}, 400, "bad_request"),
        ({"nom": "Ada"}, 400, "bad_request"),
    ],
)
async def test_bad_names_are_refused(api, body, status, code):
    answer = await api.post("/v1/players", json=body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)


@pytest.mark.parametrize("name", ["Abbott", "Robotnik", "Zoë", "O'Neil", "Jean-Luc", "李白", "r2.d2"])
async def test_ordinary_names_pass(api, name):
    assert (await api.post("/v1/players", json={"name": name})).status_code == 201


async def test_unknown_player_is_404(api):
    answer = await api.get("/v1/players/nobody")
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_such_player")


async def open_match(host: Person, game: str = "heros-tavern", **extra) -> dict:
    body = {"game": game, "seats": 3, "open": [1, 2], **extra}
    return await host.create(**body)


async def test_a_match_with_open_seats_answers_only_the_hosts_token_and_is_listed(api):
    host = await Person(api).register("Host")
    created = await open_match(host)
    assert [seat["seat"] for seat in created["seats"]] == [0]
    assert "invite" not in created
    page = (await api.get("/v1/lobby", params={"game": "heros-tavern"})).json()
    (entry,) = [entry for entry in page["matches"] if entry["match_id"] == created["match_id"]]
    assert entry["game"] == "heros-tavern" and entry["free"] == [1, 2] and entry["host"] == "Host"
    assert entry["seats"][0] == {"seat": 0, "name": "Host", "bot": False}
    assert entry["seats"][1]["name"] is None
    assert entry["options"] == {option.name: option.default for option in get_game("heros-tavern").options}
    assert entry["clock"] is None
    other = (await api.get("/v1/lobby", params={"game": "taverna"})).json()
    assert created["match_id"] not in str(other)
    view = (await api.get(f"/v1/matches/{created['match_id']}/view", headers=bearer(host.seat_token))).json()
    assert view["status"] == "waiting" and view["version"] == 0
    clocked = await open_match(host, clock={"per_move_s": 60, "bank_s": 300})
    (listed,) = [e for e in (await api.get("/v1/lobby")).json()["matches"] if e["match_id"] == clocked["match_id"]]
    assert listed["clock"] == {"per_move_s": 60, "bank_s": 300, "limit": 3, "forfeit": False,
                               "vacation_days": 0}


async def test_lobby_pages(api):
    host = await Person(api).register("Pager")
    made = [(await open_match(host))["match_id"] for _ in range(5)]
    first = (await api.get("/v1/lobby", params={"limit": 2})).json()
    assert len(first["matches"]) == 2 and first["next"] == 2
    seen = [entry["match_id"] for entry in first["matches"]]
    offset = first["next"]
    while offset is not None:
        page = (await api.get("/v1/lobby", params={"limit": 2, "offset": offset})).json()
        seen += [entry["match_id"] for entry in page["matches"]]
        offset = page["next"]
    assert seen[-5:] == made and len(seen) == len(set(seen))


@pytest.mark.parametrize(
    ("params", "code"),
    [({"limit": 0}, "bad_query"), ({"limit": "x"}, "bad_query"), ({"game": "chess"}, "unknown_game")],
)
async def test_lobby_refuses_bad_queries(api, params, code):
    answer = await api.get("/v1/lobby", params=params)
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, code)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"open": [0, 1, 2]}, "bad_open"),  # the host keeps none
        ({"open": [1]}, "bad_open"),  # the host would keep two
        ({"open": [1, 1]}, "bad_open"),
        ({"open": [1, 5]}, "bad_open"),
        ({"open": [1, 2], "bots": [2]}, "bad_open"),
        ({"open": [1, 2], "seat_entropy": True}, "bad_open"),
        ({"private": True}, "bad_open"),
    ],
)
async def test_bad_open_seats_are_refused(api, body, code):
    host = await Person(api).register("Host")
    answer = await host.call("POST", "/v1/matches", {"game": "heros-tavern", "seats": 3, **body})
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, code)


async def test_open_seats_need_a_player_token(api):
    answer = await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3, "open": [1, 2]})
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "no_host")
    answer = await api.post(
        "/v1/matches", json={"game": "heros-tavern", "seats": 3, "open": [1, 2]}, headers=bearer("nobody's")
    )
    assert (answer.status_code, answer.json()["error"]["code"]) == (401, "unknown_player")


async def test_join_answers_the_seat_token_to_the_joiner_and_the_last_join_starts(api):
    host, bea, cy = [await Person(api).register(name) for name in ("Host", "Bea", "Cy")]
    created = await open_match(host)
    match_id = created["match_id"]
    first = await bea.join(match_id, seat=2)
    assert first["seat"] == 2 and not first["started"]
    second = await cy.join(match_id)
    assert second["seat"] == 1 and second["started"]
    for person in (host, bea, cy):
        view = (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(person.seat_token))).json()
        assert view["version"] > 0 and view["status"] == "active"
    assert match_id not in str((await api.get("/v1/lobby")).json())
    assert bea.seat_token not in "".join(host.heard + cy.heard)
    assert cy.seat_token not in "".join(host.heard + bea.heard)
    assert host.seat_token not in "".join(bea.heard + cy.heard)


async def test_join_refusals_change_nothing(api):
    host, bea, cy, dee = [await Person(api).register(name) for name in ("Host", "Bea", "Cy", "Dee")]
    match_id = (await open_match(host))["match_id"]
    url = f"/v1/matches/{match_id}/join"
    cases = [
        (await api.post(url, json={}), 401, "no_player_token"),
        (await api.post(url, json={}, headers=bearer("forged")), 401, "unknown_player"),
        (await bea.call("POST", url, {"seat": 0}), 409, "not_open_seat"),
        (await bea.call("POST", url, {"colour": "red"}), 400, "bad_request"),
        (await bea.call("POST", "/v1/matches/nope/join", {}), 404, "no_such_match"),
        (await host.call("POST", url, {"seat": 1}), 409, "already_seated"),
    ]
    await bea.join(match_id, seat=1)
    cases += [
        (await bea.call("POST", url, {"seat": 2}), 409, "already_seated"),
        (await cy.call("POST", url, {"seat": 1}), 409, "seat_taken"),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
    entry = (await api.get("/v1/lobby")).json()["matches"]
    (mine,) = [e for e in entry if e["match_id"] == match_id]
    assert mine["free"] == [2] and mine["seats"][1]["name"] == "Bea"
    await cy.join(match_id)
    started = (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(cy.seat_token))).json()
    for answer, status, code in [
        (await dee.call("POST", url, {}), 409, "match_full"),
        (await dee.call("POST", url, {"seat": 2}), 409, "match_full"),
        (await cy.call("POST", url, {}), 409, "already_seated"),
        (await host.call("POST", f"/v1/matches/{match_id}/start"), 409, "match_started"),
    ]:
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
    after = (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(cy.seat_token))).json()
    assert after["version"] == started["version"] and after["players"] == started["players"]  # nothing appended


async def test_a_seated_player_who_joins_again_gets_its_seat_back_with_a_new_token(api):
    """A join whose answer was lost (a timeout, a dropped connection) is sent again: the player gets
    the same seat and a new token, the lost one stops working; once the match has started, a join
    again is refused (the started match's tokens are cached) and the token it answered works."""
    host, bea, cy = [await Person(api).register(name) for name in ("Host", "Bea", "Cy")]
    match_id = (await open_match(host))["match_id"]
    first = await bea.join(match_id, seat=2)
    lost = bea.seat_token
    again = await bea.join(match_id)
    assert (again["seat"], again["started"]) == (2, False) and bea.seat_token != lost
    (entry,) = [e for e in (await api.get("/v1/lobby")).json()["matches"] if e["match_id"] == match_id]
    assert entry["free"] == [1] and entry["seats"][2]["name"] == "Bea"
    host_token = host.seat_token
    assert (await host.join(match_id))["seat"] == 0 and host.seat_token != host_token
    await cy.join(match_id)
    url = f"/v1/matches/{match_id}/view"
    assert (await api.get(url, headers=bearer(bea.seat_token))).json()["seat"] == first["seat"]
    for stale in (lost, host_token):
        answer = await api.get(url, headers=bearer(stale))
        assert (answer.status_code, answer.json()["error"]["code"]) == (403, "wrong_token")
    assert (await api.get(url, headers=bearer(host.seat_token))).json()["seat"] == 0
    answer = await bea.call("POST", f"/v1/matches/{match_id}/join", {})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "already_seated")
    assert (await api.get(url, headers=bearer(bea.seat_token))).status_code == 200


async def test_a_seated_player_of_a_closed_match_who_joins_again_hears_it_closed(api):
    host, bea = [await Person(api).register(name) for name in ("Host", "Bea")]
    match_id = (await open_match(host))["match_id"]
    await bea.join(match_id, seat=1)
    assert (await host.call("POST", f"/v1/matches/{match_id}/leave")).status_code == 200
    answer = await bea.call("POST", f"/v1/matches/{match_id}/join", {})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "match_closed")


async def test_joining_a_match_its_host_started_with_bots_is_refused_as_started(api):
    host, dee = [await Person(api).register(name) for name in ("Host", "Dee")]
    match_id = (await open_match(host))["match_id"]
    assert (await host.call("POST", f"/v1/matches/{match_id}/start")).status_code == 200
    answer = await dee.call("POST", f"/v1/matches/{match_id}/join", {})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "match_started")


async def test_two_players_of_one_name_are_told_apart_at_the_table(api):
    """Names are not unique (anyone may register as Ann): at one table the second seat with a name
    reads "Ann (2)", the same in the lobby, in every seat's envelope and in the spectator's."""
    first, second, bea = [await Person(api).register(name) for name in ("Ann", "ann", "Bea")]
    match_id = (await open_match(first))["match_id"]
    await second.join(match_id, seat=1)
    (listed,) = [e for e in (await api.get("/v1/lobby")).json()["matches"] if e["match_id"] == match_id]
    assert [seat["name"] for seat in listed["seats"]] == ["Ann", "ann (2)", None] and listed["host"] == "Ann"
    await bea.join(match_id)
    for person in (first, second, bea):
        seen = (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(person.seat_token))).json()
        assert [p["name"] for p in seen["players"]] == ["Ann", "ann (2)", "Bea"]
    assert (await api.get(f"/v1/players/{second.id}")).json()["name"] == "ann"  # the player's own name is kept


async def test_leave_before_the_start_frees_the_seat_and_its_token(api):
    host, bea, cy = [await Person(api).register(name) for name in ("Host", "Bea", "Cy")]
    match_id = (await open_match(host))["match_id"]
    await bea.join(match_id, seat=1)
    left = await bea.call("POST", f"/v1/matches/{match_id}/leave")
    assert left.status_code == 200 and left.json() == {"match_id": match_id, "seat": 1, "cancelled": False}
    answer = await bea.call("GET", f"/v1/matches/{match_id}/view", seat=True)
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "wrong_token")
    again = await bea.call("POST", f"/v1/matches/{match_id}/leave")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "not_seated")
    assert (await cy.join(match_id, seat=1))["seat"] == 1


async def test_the_host_leaving_closes_the_match(api):
    host, bea = [await Person(api).register(name) for name in ("Host", "Bea")]
    match_id = (await open_match(host))["match_id"]
    left = await host.call("POST", f"/v1/matches/{match_id}/leave")
    assert left.json()["cancelled"] is True
    assert match_id not in str((await api.get("/v1/lobby")).json())
    answer = await bea.call("POST", f"/v1/matches/{match_id}/join", {})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "match_closed")


async def test_the_host_fills_free_seats_with_bots_and_starts(api):
    host, bea = [await Person(api).register(name) for name in ("Host", "Bea")]
    match_id = (await open_match(host))["match_id"]
    await bea.join(match_id, seat=1)
    refused = await bea.call("POST", f"/v1/matches/{match_id}/start")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_host")
    started = await host.call("POST", f"/v1/matches/{match_id}/start")
    assert started.status_code == 200 and started.json() == {"match_id": match_id, "bots": [2]}
    view = (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(host.seat_token))).json()
    assert view["status"] == "active"


async def test_a_private_match_is_unlisted_and_joined_by_its_invite(api):
    host, bea, cy = [await Person(api).register(name) for name in ("Host", "Bea", "Cy")]
    created = await open_match(host, private=True)
    match_id, invite = created["match_id"], created["invite"]
    assert match_id not in str((await api.get("/v1/lobby")).json())
    for body in ({}, {"invite": "guess"}):
        answer = await cy.call("POST", f"/v1/matches/{match_id}/join", body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (404, "unknown_invite")
    assert (await bea.join(match_id, invite=invite))["seat"] == 1


@pytest.mark.parametrize("game", ["mercenaries", "taverna", "tavern-masters"])
async def test_a_filling_lobby_match_shows_a_waiting_view_with_nothing_legal(api, game):
    host = await Person(api).register("Host")
    created = await host.create(game=game, seats=2, open=[1], clock={"per_move_s": 60})
    answer = await host.call("GET", f"/v1/matches/{created['match_id']}/view", seat=True)
    assert answer.status_code == 200, answer.text
    seen = answer.json()
    assert (seen["status"], seen["version"], seen["legal"]) == ("waiting", 0, [])
    assert seen["players"][0]["name"] == "Host" and seen["players"][0]["clock"]["deadline"] is None
    early = await host.call("POST", f"/v1/matches/{created['match_id']}/commands", {"type": "Concede"}, seat=True)
    assert (early.status_code, early.json()["error"]["code"]) == (422, "waiting_for_players")
