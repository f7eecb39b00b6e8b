"""Every row of API.md, through the public HTTP API, on fakeredis, a real Redis and a Redis Cluster."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, play_to_end, seat_token, send, view, wait_for

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def first_legal(api, created, seat):
    seen = await view(api, created, seat_token(created, seat))
    assert seen["legal"], seen
    return seen, seen["legal"][0]


async def test_games_lists_heros_tavern_with_its_schemas(api):
    answer = await api.get("/v1/games")
    assert answer.status_code == 200
    games = {game["id"]: game for game in answer.json()}
    ht = games["heros-tavern"]
    assert (ht["min_seats"], ht["max_seats"]) == (3, 5)
    assert {"commands", "events", "view"} <= set(ht["schemas"])
    assert "PickCard" in json.dumps(ht["schemas"]["commands"])
    finite = next(option for option in ht["options"] if option["name"] == "finite_tokens")
    assert finite["default"] is False and "50" in finite["description"]  # each option says what it does
    readings = {"heros-tavern": "staff_copies", "mercenaries": "sell_from", "tavern-masters": "draft",
                "taverna": "notary_second_deed"}  # the other reading of a ruling (issue 21, finding 14)
    for game_id, name in readings.items():
        option = next(option for option in games[game_id]["options"] if option["name"] == name)
        assert "RULINGS" in option["description"] or "HT-8" in option["description"]  # which ruling it replaces


async def test_create_answers_201_with_tokens_and_seed_commitment(api):
    answer = await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 4, "options": {}, "bots": [2, 3]})
    assert answer.status_code == 201
    body = answer.json()
    assert [seat["seat"] for seat in body["seats"]] == [0, 1, 2, 3]
    tokens = [seat["token"] for seat in body["seats"]] + [body["spectator_token"]]
    assert len(set(tokens)) == 5 and all(len(token) >= 32 for token in tokens)
    assert len(body["seed_commitment"]) == 64 and int(body["seed_commitment"], 16) >= 0


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "no-such-game", "seats": 4}, 400, "unknown_game"),
        ({"game": "heros-tavern", "seats": "four"}, 400, "bad_request"),
        ({"game": "heros-tavern", "seats": 4, "colour": "red"}, 400, "bad_request"),
        ({"game": "heros-tavern", "seats": 9}, 422, "bad_seats"),
        ({"game": "heros-tavern", "seats": 4, "options": {"nope": 1}}, 422, "bad_option"),
        ({"game": "heros-tavern", "seats": 4, "bots": [4]}, 422, "bad_bots"),
    ],
)
async def test_create_refuses_bad_requests(api, body, status, code):
    answer = await api.post("/v1/matches", json=body)
    assert answer.status_code == status
    assert answer.json()["error"]["code"] == code


async def test_command_200_answers_version_and_the_events_as_the_seat_sees_them(api):
    created = await create(api)
    seen, command = await first_legal(api, created, 0)
    answer = await send(api, created, 0, command)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["version"] > seen["version"]
    assert body["events"] and all("type" in event for event in body["events"])
    after = await wait_for(api, created, seat_token(created, 0), body["version"])
    assert after["version"] == body["version"] and command not in after["legal"]


@pytest.mark.parametrize(
    "raw",
    [
        b"not json",
        b"[1, 2]",
        b'{"type": "NoSuchCommand"}',
        b'{"type": "PickCard", "card": 7}',
        b'{"type": "PickCard"}',
        b'{"type": "PickCard", "card": "x", "extra": 1}',
        b'{"type": "PickCard", "card": "x", "expected_version": "3"}',
    ],
)
async def test_command_400_for_what_is_not_a_command(api, raw):
    created = await create(api)
    before = await view(api, created, seat_token(created, 0))
    answer = await api.post(
        f"/v1/matches/{created['match_id']}/commands", content=raw, headers=bearer(seat_token(created, 0))
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_command"
    events = await api.get(f"/v1/matches/{created['match_id']}/events", headers=bearer(seat_token(created, 0)))
    assert len(events.json()) == before["version"]


async def test_command_401_without_a_token_and_403_with_a_wrong_one(api):
    created = await create(api)
    other = await create(api)
    url = f"/v1/matches/{created['match_id']}/commands"
    command = {"type": "FinishPurchases"}
    assert (await api.post(url, json=command)).status_code == 401
    assert (await api.post(url, json=command, headers={"Authorization": "Basic abc"})).status_code == 401
    foreign = await api.post(url, json=command, headers=bearer(seat_token(other, 0)))
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "wrong_token"
    spectator = await api.post(url, json=command, headers=bearer(created["spectator_token"]))
    assert spectator.status_code == 403 and spectator.json()["error"]["code"] == "spectator"


async def test_404_for_no_such_match(api):
    for method, path in [
        ("POST", "commands"),
        ("GET", "view"),
        ("GET", "events"),
        ("GET", "replay"),
        ("GET", "export"),
    ]:
        answer = await api.request(method, f"/v1/matches/nope/{path}", json={}, headers=bearer("x"))
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "no_such_match"


async def test_409_for_a_stale_expected_version_with_the_current_one(api):
    created = await create(api)
    seen, command = await first_legal(api, created, 0)
    stale = await send(api, created, 0, {**command, "expected_version": seen["version"] - 1})
    assert stale.status_code == 409
    assert stale.json()["version"] == seen["version"]
    assert stale.json()["error"]["code"] == "stale_version"
    fresh = await send(api, created, 0, {**command, "expected_version": seen["version"]})
    assert fresh.status_code == 200
    assert fresh.json()["version"] > seen["version"]


async def test_422_names_the_rule_and_appends_nothing(api):
    created = await create(api)
    seen, command = await first_legal(api, created, 0)
    assert (await send(api, created, 0, command)).status_code == 200
    again = await send(api, created, 0, command)
    assert again.status_code == 422
    code = again.json()["error"]["code"]
    assert code and code == code.lower() and " " not in code
    events = await api.get(f"/v1/matches/{created['match_id']}/events", headers=bearer(seat_token(created, 0)))
    assert [envelope["version"] for envelope in events.json()] == list(range(1, seen["version"] + 2))


async def test_the_same_idempotency_key_has_one_effect_and_the_same_answer(api):
    created = await create(api)
    _seen, command = await first_legal(api, created, 0)
    first = await send(api, created, 0, command, idempotency_key="k-1")
    second = await send(api, created, 0, command, idempotency_key="k-1")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    events = await api.get(f"/v1/matches/{created['match_id']}/events", headers=bearer(seat_token(created, 0)))
    assert len(events.json()) == first.json()["version"]
    refused = [await send(api, created, 0, command, idempotency_key="k-2") for _ in range(2)]
    assert [answer.status_code for answer in refused] == [422, 422]
    assert refused[0].content == refused[1].content


async def test_view_envelope_for_a_seat_and_a_spectator(api):
    created = await create(api)
    seat = await view(api, created, seat_token(created, 1))
    assert set(seat) == {"match_id", "game", "version", "seat", "status", "view", "legal", "result", "breakdown",
                         "undo", "players"}
    assert seat["breakdown"] is None  # scored only once finished
    assert (seat["match_id"], seat["game"], seat["seat"], seat["status"]) == (
        created["match_id"],
        "heros-tavern",
        1,
        "active",
    )
    assert seat["legal"] and all("type" in command for command in seat["legal"])
    spectator = await view(api, created, created["spectator_token"])
    assert spectator["seat"] is None and spectator["legal"] == [] and spectator["result"] is None
    hand = {card["id"] for card in seat["view"]["hand"]}
    assert not hand & set(json.dumps(spectator["view"]).split('"'))  # a seat's hand is not the spectator's


async def test_events_redacted_while_running_whole_and_chained_once_finished(api):
    created = await create(api, seats=3, bots=[1, 2])
    url = f"/v1/matches/{created['match_id']}/events"
    running = (await api.get(url, params={"after": 0}, headers=bearer(seat_token(created, 0)))).json()
    assert running and all("hash" not in envelope for envelope in running)
    tail = await api.get(url, params={"after": len(running) - 1}, headers=bearer(created["spectator_token"]))
    versions = [envelope["version"] for envelope in tail.json()]  # the bots may have moved meanwhile
    assert versions == list(range(len(running), len(running) + len(versions))) and versions
    final = await play_to_end(api, created, [0], seed=1)
    assert final["result"] is not None and final["legal"] == []
    whole = (await api.get(url, headers=bearer(created["spectator_token"]))).json()
    assert [envelope["version"] for envelope in whole] == list(range(1, final["version"] + 1))
    # entry 1 chains to the match's charter (docs/AUDIT.md), whose hash the export's header carries
    exported = await api.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(created["spectator_token"]))
    assert whole[0]["prev"] == json.loads(exported.text.partition("\n")[0])["genesis"]
    for before, after in itertools.pairwise(whole):
        assert after["prev"] == before["hash"]


async def test_replay_frames_one_per_version(api):
    created = await create(api, seats=3, bots=[0, 1, 2])
    spectator = created["spectator_token"]
    running = (await api.get(f"/v1/matches/{created['match_id']}/replay", headers=bearer(spectator))).json()
    assert [frame["version"] for frame in running] == list(range(len(running)))
    assert running[0]["event"] is None
    finished = await wait_finished(api, created)
    frames = (
        await api.get(f"/v1/matches/{created['match_id']}/replay", params={"seat": 2}, headers=bearer(spectator))
    ).json()
    assert [frame["version"] for frame in frames] == list(range(finished["version"] + 1))
    assert frames[-1]["view"] == (await view(api, created, seat_token(created, 2)))["view"]


async def wait_finished(api, created, timeout: float = 90.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        seen = await view(api, created, created["spectator_token"])
        if seen["status"] == "finished":
            return seen
        assert loop.time() < deadline, "a bots-only match did not finish"
        await asyncio.sleep(0.05)


async def test_export_only_when_finished_with_the_revealed_seed(api):
    created = await create(api, seats=3, bots=[0, 1, 2])
    url = f"/v1/matches/{created['match_id']}/export"
    running = await api.get(url, headers=bearer(created["spectator_token"]))
    assert running.status_code == 409 and created["seed_commitment"] not in running.text
    finished = await wait_finished(api, created)
    lines = (await api.get(url, headers=bearer(created["spectator_token"]))).text.splitlines()
    header = json.loads(lines[0])
    assert hashlib.sha256(header["seed"].encode()).hexdigest() == created["seed_commitment"]
    assert json.loads(header["charter"])["seed_commitment"] == created["seed_commitment"]
    prev = header["genesis"]  # the SHA-256 of the charter (docs/AUDIT.md)
    assert hashlib.sha256(header["charter"].encode()).hexdigest() == prev
    *entries, signed = lines[1:]
    for line in entries:
        entry = json.loads(line)
        assert hashlib.sha256(entry["body"].encode()).hexdigest() == entry["hash"]
        assert json.loads(entry["body"])["prev"] == prev
        prev = entry["hash"]
    assert len(entries) == finished["version"]
    # the last line: the head, signed by the key the service publishes (docs/AUDIT.md, section 4)
    published = (await api.get("/.well-known/tavern-signing-key")).json()["public_key"]
    signature = json.loads(signed)
    head = json.loads(signature["head"])
    assert (head["match_id"], head["version"], head["hash"]) == (created["match_id"], len(entries), prev)
    assert head["genesis"] == header["genesis"] and head["seed_commitment"] == created["seed_commitment"]
    assert signature["key"] == published
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(published)).verify(
        bytes.fromhex(signature["signature"]), signature["head"].encode()
    )


async def test_operations_endpoints(api):
    created = await create(api)
    _, command = await first_legal(api, created, 0)
    await send(api, created, 0, command)
    assert (await api.get("/healthz")).json() == {"status": "ok"}
    metrics = (await api.get("/metrics")).text
    for name in (
        "tavern_commands_total",
        "tavern_append_seconds",
        "tavern_command_to_view_seconds",
        "tavern_open_streams",
    ):
        assert f"# TYPE {name} " in metrics
    accepted = f'tavern_commands_total{{code="",game="heros-tavern",outcome="accepted",type="{command["type"]}"}}'
    assert accepted in metrics
    document = (await api.get("/openapi.json")).json()
    assert document["openapi"].startswith("3.")
    assert {"/v1/matches", "/v1/matches/{match_id}/commands", "/v1/matches/{match_id}/stream"} <= set(document["paths"])
    schemas = document["components"]["schemas"]
    assert {"CreateMatch", "MatchCreated", "ErrorBody", "ViewEnvelope", "heros-tavern.PickCard"} <= set(schemas)
    assert "tavern-masters.PickCard" in schemas  # two games with one command name stay apart
    assert not [name for name in schemas if name.startswith("domain.")], "schema names leak module paths"
