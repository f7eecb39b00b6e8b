"""WebSocket /v1/matches/{id}/ws under a real uvicorn: the same view envelopes as /stream, and
commands on the same socket answered with the id they were sent with; a whole match played on it;
refusals as close codes and as answers."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import websockets

from projections.audit import Anchors, audit
from projections.receipts import SIGNING_KEY_PATH, public_key
from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token, send, view, wait_for

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


def ws_url(served, created: dict, **query: str) -> str:
    base = str(served.base_url).replace("http://", "ws://").rstrip("/")
    suffix = "&".join(f"{key}={value}" for key, value in query.items())
    return f"{base}/v1/matches/{created['match_id']}/ws" + (f"?{suffix}" if suffix else "")


async def play_seat(url: str, seed: int) -> tuple[dict, list[int], list[tuple[int, str]]]:
    """Act on each view not older than this seat's last accepted command, to the end; the view at
    the end, the versions of the views seen, and each accepted answer's version and receipt."""
    rng, heard, number, pending, versions, accepted = random.Random(seed), 0, 0, {}, [], []
    async with websockets.connect(url) as socket:
        async for raw in socket:
            message = json.loads(raw)
            if message["kind"] == "answer":
                assert message["id"] in pending, message  # correlated by the id it was sent with
                del pending[message["id"]]
                assert message["status"] in (200, 409, 422), message
                if message["status"] == 200:
                    heard = max(heard, message["body"]["version"])
                    accepted.append((message["body"]["version"], message["body"]["receipt"]))
                continue
            if message["kind"] == "presence":  # a seat came or went
                continue
            view = message["view"]
            versions.append(view["version"])
            if view["status"] == "finished":
                assert not pending
                return view, versions, accepted
            if pending or view["version"] < heard or not view["legal"]:
                continue
            number += 1
            pending[f"c{number}"] = True
            await socket.send(json.dumps({"id": f"c{number}", "command": rng.choice(view["legal"])}))
    raise AssertionError("the socket closed before the end")


async def test_a_whole_match_over_websockets_its_answers_carrying_receipts(served):
    created = await create(served, seats=3, bots=[2])
    seats = [play_seat(ws_url(served, created, access_token=seat_token(created, seat)), seat) for seat in (0, 1)]
    (final0, versions0, accepted0), (final1, versions1, accepted1) = await asyncio.wait_for(asyncio.gather(*seats), 120)
    assert final0["version"] == final1["version"] and final0["result"] == final1["result"]
    for versions in (versions0, versions1):
        assert versions == sorted(set(versions)) and len(versions) > 10
    assert len(accepted0) > 5 and len(accepted1) > 5
    # both sockets closed since: the gateway sees each go as its close arrives, which under load
    # may be after the client's last read
    for _ in range(200):
        now = await view(served, created, seat_token(created, 0))
        if not any(p["connected"] for p in now["players"]):
            break
        await asyncio.sleep(0.05)
    assert [p["connected"] for p in now["players"]] == [False] * 3
    assert {**now, "players": None} == {**final0, "players": None}
    # each answer's receipt is the one the export holds, under the key the service publishes
    export = await served.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(created["spectator_token"]))
    key = public_key((await served.get(SIGNING_KEY_PATH)).json()["public_key"])
    report = audit(export.content, anchors=Anchors(key, tuple(accepted0 + accepted1)))
    assert report.receipts == len(accepted0) + len(accepted1) and report.signature.startswith("signed by the key given")


async def test_the_bearer_header_and_resuming_after_a_version(served):
    created = await create(served, seats=3, bots=[1, 2])
    async with websockets.connect(ws_url(served, created), additional_headers=bearer(seat_token(created, 0))) as socket:
        first = json.loads(await socket.recv())
    assert first["kind"] == "view" and first["view"]["seat"] == 0
    current = await view(served, created, seat_token(created, 0))
    url = ws_url(served, created, access_token=seat_token(created, 0), last_event_id=str(current["version"]))
    async with websockets.connect(url) as socket:
        assert (await send(served, created, 0, current["legal"][0])).status_code == 200
        # not the view of `last_event_id` again (who is connected, maybe): a newer one
        while (resumed := json.loads(await socket.recv()))["kind"] == "presence":
            assert resumed["presence"]["version"] == current["version"]
    assert resumed["kind"] == "view" and resumed["view"]["version"] > current["version"]


@pytest.mark.parametrize(
    ("query", "code", "reason"),
    [({}, 4401, "no_token"), ({"access_token": "nope"}, 4403, "wrong_token"), ({"last_event_id": "x"}, None, None)],
)
async def test_refusals_close_the_socket_with_4000_plus_the_status(served, query, code, reason):
    created = await create(served, seats=3, bots=[1, 2])
    if "last_event_id" in query:
        query, code, reason = {**query, "access_token": seat_token(created, 0)}, 4400, "bad_last_event_id"
    async with websockets.connect(ws_url(served, created, **query)) as socket:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (code, reason)


async def test_no_such_match_closes_with_4404(served):
    url = ws_url(served, {"match_id": "nope"}, access_token="x")
    async with websockets.connect(url) as socket:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
    assert closed.value.rcvd.code == 4404


async def test_bad_messages_and_spectators_are_answered_with_errors(served):
    created = await create(served, seats=3, bots=[1, 2])
    async with websockets.connect(ws_url(served, created, access_token=seat_token(created, 0))) as socket:
        assert json.loads(await socket.recv())["kind"] == "view"
        for sent, status, code in (
            ("not json", 400, "bad_message"),
            (json.dumps({"id": 1, "command": {"type": "NoSuch"}}), 400, "bad_command"),
            (json.dumps({"id": 2, "command": {"type": "BuyCard", "card": "x"}}), 422, None),
        ):
            await socket.send(sent)
            while (answer := json.loads(await socket.recv()))["kind"] != "answer":
                pass
            assert answer["status"] == status and (code is None or answer["body"]["error"]["code"] == code), answer
    async with websockets.connect(ws_url(served, created, access_token=created["spectator_token"])) as socket:
        await socket.send(json.dumps({"id": "s", "command": {"type": "FinishPurchases"}}))
        while (answer := json.loads(await socket.recv()))["kind"] != "answer":
            pass
        assert (answer["id"], answer["status"], answer["body"]["error"]["code"]) == ("s", 403, "spectator")


async def test_a_command_on_the_socket_and_its_post_share_one_idempotency_key_and_answer(served):
    created = await create(served, seats=3, bots=[1, 2])
    seen = await view(served, created, seat_token(created, 0))
    async with websockets.connect(ws_url(served, created, access_token=seat_token(created, 0))) as socket:
        await socket.send(json.dumps({"id": 1, "command": seen["legal"][0], "idempotency_key": "both-ways"}))
        while (answer := json.loads(await socket.recv()))["kind"] != "answer":
            pass
    posted = await send(served, created, 0, seen["legal"][0], idempotency_key="both-ways")
    assert (answer["status"], answer["body"]) == (posted.status_code, posted.json()) == (200, answer["body"])
    events = await served.get(f"/v1/matches/{created['match_id']}/events", headers=bearer(seat_token(created, 0)))
    keyed = [event["version"] for event in events.json() if event["command"]["idempotency_key"] == "both-ways"]
    assert keyed == list(range(keyed[0], answer["body"]["version"] + 1)) and keyed[0] > seen["version"]  # once


async def test_a_stopping_gateway_closes_the_socket_with_1001(app, served):
    created = await create(served, seats=3, bots=[1, 2])
    async with websockets.connect(ws_url(served, created, access_token=seat_token(created, 0))) as socket:
        assert json.loads(await socket.recv())["kind"] == "view"
        app.state.hub.close()  # as on SIGTERM (services/cli/serve.py)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(socket.recv(), 10)
    assert closed.value.rcvd.code == 1001


async def test_a_command_asking_for_strict_handling_is_refused_on_any_stale_version(served):
    """``"handling": "strict"`` as POST's ``Prefer: handling=strict``: a stale version the default
    rule decides (the seat's options unchanged by another seat's pick) is a 409 with the view."""
    created = await create(served, seats=3)
    first = await view(served, created, seat_token(created, 0))
    other = await view(served, created, seat_token(created, 1))
    assert (await send(served, created, 1, other["legal"][0])).status_code == 200
    now = await wait_for(served, created, seat_token(created, 0), first["version"] + 1)
    assert now["legal"] == first["legal"]  # so the default rule decides a stale command of seat 0
    stale = {**first["legal"][0], "expected_version": first["version"]}
    async with websockets.connect(ws_url(served, created, access_token=seat_token(created, 0))) as socket:

        async def answer(message: dict) -> dict:
            await socket.send(json.dumps(message))
            while (said := json.loads(await socket.recv()))["kind"] != "answer":
                pass
            return said

        wrong = await answer({"id": 0, "command": stale, "handling": "lenient"})
        assert (wrong["status"], wrong["body"]["error"]["code"]) == (400, "bad_message")
        refused = await answer({"id": 1, "command": stale, "handling": "strict"})
        assert (refused["status"], refused["body"]["error"]["code"]) == (409, "stale_version"), refused
        assert refused["body"]["version"] == now["version"] and refused["body"]["view"]["legal"] == now["legal"]
        decided = await answer({"id": 2, "command": stale})
        assert decided["status"] == 200, decided
