"""The Python client package (clients/python, installed by `make test`'s virtualenv): its models
are /openapi.json's messages, its version the API's, and it plays a whole match against a real
gateway, one seat with the sync client over Server-Sent Events (cut and resumed midway), another
with the asyncio client on the WebSocket, and reads the log and the replay of the end. What a
proxy or a failover answers is played by a stand-in transport: a command sent again under one key,
a stream reconnected, after 429, 502, 503 and 504 (docs/API.md, "Sending again")."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import threading
from collections.abc import Callable
from typing import Any

import httpx
import msgspec
import pytest
import tavern_games_client as client
from tavern_games_client import models

from tools import clients

pytestmark = pytest.mark.anyio
# each model and the component of /openapi.json it reads (a game's, for the game-typed envelopes)
MODELS = {
    models.SeatToken: "SeatToken",
    models.MatchCreated: "MatchCreated",
    models.ErrorDetail: "ErrorDetail",
    models.ErrorBody: "ErrorBody",
    models.TablePlayer: "TablePlayer",
    models.ViewEnvelope: "heros-tavern.ViewEnvelope",
    models.Accepted: "heros-tavern.Accepted",
    models.PresenceFrame: "PresenceFrame",
    models.WsAnswerFrame: "WsAnswerFrame",
    models.WsViewFrame: "WsViewFrame",
    models.WsPresenceFrame: "WsPresenceFrame",
    models.PlayerCreated: "PlayerCreated",
    models.Joined: "Joined",
    models.Started: "Started",
}


def test_the_models_are_the_contracts_messages_and_the_version_the_apis():
    from services.gateway import openapi

    document = openapi.document()
    components = document["components"]["schemas"]
    for model, name in MODELS.items():
        (own,), defs = msgspec.json.schema_components([model])
        mine = defs[own["$ref"].split("/")[-1]]
        theirs = components[name]
        assert set(mine["properties"]) == set(theirs["properties"]), name
        assert set(mine.get("required", [])) == set(theirs.get("required", [])), name
    assert document["info"]["version"] == client.API_VERSION
    for path, version in clients.versions(document).items():  # both packages', the API's version
        found = re.search(clients.VERSIONS[path][0], path.read_text(), re.MULTILINE)
        assert found is not None and found.group(1) == version, f"{path}: run make clients"


def play_over_sse(base: str, match_id: str, token: str, seed: int) -> tuple[models.ViewEnvelope, int, int]:
    """Seat ``token`` with the sync client: its stream's views, a random element of legal on each not
    older than its last 200; the stream cut after 5 commands and resumed from the last id."""
    rng, heard, sent, last, resumed_at = random.Random(seed), 0, 0, None, -1
    with client.Tavern(base, token) as seat:
        for round_ in range(2):
            for item in seat.stream(match_id, last_event_id=last):
                if not isinstance(item, models.ViewEnvelope):
                    continue
                assert last is None or item.version > last  # resumed: nothing older
                resumed_at = item.version if round_ == 1 and resumed_at < 0 else resumed_at
                last = item.version
                if item.finished:
                    return item, sent, resumed_at
                if round_ == 0 and sent == 5:
                    break  # the connection dropped: resume from the last id
                if item.version < heard or not item.legal:
                    continue
                try:
                    accepted = seat.send(match_id, {**rng.choice(item.legal), "expected_version": item.version})
                except client.TavernError as refused:  # another seat moved first
                    assert refused.status in (409, 422), refused
                    continue
                heard, sent = max(heard, accepted.version), sent + 1
    raise AssertionError("the stream ended before the match")


async def play_over_socket(base: str, match_id: str, token: str, seed: int) -> tuple[models.ViewEnvelope, int]:
    """Strict (a 409 on any stale version): a refused command is chosen again from the newest view,
    the one its 409 carries if newer, for the socket may have sent that one already."""
    rng, heard, sent, waiting, newest = random.Random(seed), 0, 0, None, None
    async with client.AsyncTavern(base, token) as seat:
        socket = await seat.socket(match_id)
        try:
            async for frame in socket:
                if isinstance(frame, models.WsAnswerFrame):
                    assert frame.id == waiting and frame.status in (200, 409, 422), frame
                    accepted, waiting = frame.accepted(), None
                    if accepted is not None:
                        heard, sent = max(heard, accepted.version), sent + 1
                        continue
                    refused = msgspec.convert(frame.body, models.ErrorBody)
                    heard = max(heard, refused.version or 0)  # without its view: wait for it on the socket
                    if refused.view is not None and newest is not None and refused.view.version > newest.version:
                        newest = refused.view
                elif isinstance(frame, models.WsViewFrame):
                    newest = frame.view
                if newest is None:
                    continue
                if newest.finished:
                    return newest, sent
                if waiting is None and newest.version >= heard and newest.legal:
                    chosen = {**rng.choice(newest.legal), "expected_version": newest.version}
                    waiting = await socket.send(chosen, strict=True)
        finally:
            await socket.close()
    raise AssertionError("the socket closed before the match")


def in_daemon_thread(play: Callable[..., Any], *args: Any) -> asyncio.Future:
    """``play(*args)`` in a daemon thread, its result awaited: if the other seat fails, the test
    fails rather than hangs (``asyncio.to_thread``'s thread, blocked reading a stream no one moves
    on any more, is joined when the loop closes; a daemon thread ends with the gateway's stream)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def settle(result: Any, problem: BaseException | None) -> None:
        if done.done():
            return
        if problem is None:
            done.set_result(result)
        else:
            done.set_exception(problem)

    def run() -> None:
        result, problem = None, None
        try:
            result = play(*args)
        except BaseException as raised:  # handed to the awaiting test as it is
            problem = raised
        with contextlib.suppress(RuntimeError):  # the loop closed: the test ended without it
            loop.call_soon_threadsafe(settle, result, problem)

    threading.Thread(target=run, daemon=True).start()
    return done


async def test_the_package_plays_a_match_to_the_end(gateway):
    async with client.AsyncTavern(gateway) as service:
        created = await service.create_match("heros-tavern", 3, bots=[2], options={"shopkeeper_cap": True})
        match_id = created.match_id
        (sse_end, sse_sent, resumed_at), (ws_end, ws_sent) = await asyncio.wait_for(
            asyncio.gather(
                in_daemon_thread(play_over_sse, gateway, match_id, created.token(0), 1),
                play_over_socket(gateway, match_id, created.token(1), 2),
            ),
            120,
        )
        spectator = service.as_token(created.spectator_token)
        final = await spectator.view(match_id)
        events = await spectator.events(match_id)
        await spectator.aclose()
    assert final.finished and final.result and sse_end.version == ws_end.version == final.version
    assert sse_sent > 5 and ws_sent > 5 and resumed_at > 0
    assert [entry["version"] for entry in events] == list(range(1, final.version + 1))
    assert [player.seat for player in final.players] == [0, 1, 2]


def test_refusals_are_typed_errors(gateway):
    with client.Tavern(gateway) as service, pytest.raises(client.TavernError) as refused:
        service.create_match("no-such-game", 2)
    assert refused.value.status == 400 and refused.value.code in ("unknown_game", "bad_request")
    assert isinstance(refused.value.body, models.ErrorBody)
    with client.Tavern(gateway, "nope") as stranger, pytest.raises(client.TavernError) as refused:
        stranger.view("nope")
    assert refused.value.status in (401, 403, 404)


def unavailable(status: int) -> httpx.Response:
    """A proxy's page (502, 504: not JSON, no Retry-After) or the service's refusal (429, 503)."""
    if status in (502, 504):
        return httpx.Response(status, text="<html>bad gateway</html>")
    body = {"error": {"code": "unavailable" if status == 503 else "rate_limited", "message": "later"}}
    return httpx.Response(status, json=body, headers={"Retry-After": "0"})


def answering(answers: list[httpx.Response], seen: list[httpx.Request]) -> httpx.MockTransport:
    """A transport whose requests get ``answers`` in turn (each request kept in ``seen``)."""

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answers[len(seen) - 1]

    return httpx.MockTransport(answer)


def standing_in(answers: list[httpx.Response], seen: list[httpx.Request]) -> client.Tavern:
    service = client.Tavern("http://tavern.test", "seat-token")
    service.http = httpx.Client(base_url=service.base_url, transport=answering(answers, seen))
    return service


@pytest.mark.parametrize("key", [None, "k-1"])
def test_a_command_is_sent_again_under_one_key_after_429_502_503_504(monkeypatch, key):
    monkeypatch.setattr(client.client.time, "sleep", lambda _: None)  # 502 and 504 carry no Retry-After
    seen: list[httpx.Request] = []
    statuses = [502, 503, 504, 429]
    accepted = httpx.Response(200, json={"version": 7, "events": [], "receipt": "r"})
    service = standing_in([*map(unavailable, statuses), accepted], seen)
    assert service.send("m", {"type": "pass"}, idempotency_key=key).version == 7
    keys = {request.headers["Idempotency-Key"] for request in seen}
    assert len(seen) == 5 and len(keys) == 1 and (key is None or keys == {key})


def test_a_command_refused_otherwise_or_too_often_is_the_answer(monkeypatch):
    monkeypatch.setattr(client.client.time, "sleep", lambda _: None)
    seen: list[httpx.Request] = []
    conflict = httpx.Response(409, json={"error": {"code": "stale_version", "message": "moved on"}})
    with pytest.raises(client.TavernError) as refused:
        standing_in([conflict], seen).send("m", {"type": "pass"})
    assert refused.value.status == 409 and len(seen) == 1
    seen.clear()
    with pytest.raises(client.TavernError) as refused:
        standing_in([unavailable(502)] * (client.client.RESENDS + 1), seen).send("m", {"type": "pass"})
    assert refused.value.status == 502 and len(seen) == client.client.RESENDS + 1


def test_a_stream_reconnects_after_429_502_503_504(monkeypatch):
    monkeypatch.setattr(client.client.time, "sleep", lambda _: None)
    seen: list[httpx.Request] = []
    presence = {"match_id": "m", "version": 3, "players": []}
    body = f"event: presence\ndata: {msgspec.json.encode(presence).decode()}\n\n"
    streamed = httpx.Response(200, text=body, headers={"Content-Type": "text/event-stream"})
    stream = standing_in([*map(unavailable, [502, 503, 504, 429]), streamed], seen).stream("m")
    assert next(stream) == models.PresenceFrame("m", 3, [])
    assert len(seen) == 5


async def test_the_asyncio_client_sends_a_command_again_too():
    seen: list[httpx.Request] = []
    answers = [httpx.Response(502, text="bad gateway", headers={"Retry-After": "0"}), unavailable(503),
               httpx.Response(200, json={"version": 2, "events": []})]
    async with client.AsyncTavern("http://tavern.test", "seat-token") as service:
        service.http = httpx.AsyncClient(base_url=service.base_url, transport=answering(answers, seen))
        assert (await service.send("m", {"type": "pass"})).version == 2
    assert len(seen) == 3 and len({request.headers["Idempotency-Key"] for request in seen}) == 1
