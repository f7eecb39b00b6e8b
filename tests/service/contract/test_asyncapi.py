"""/asyncapi.json: valid AsyncAPI by AsyncAPI's official parser (@asyncapi/parser, run by node), its
schemas those of /openapi.json, and true to the service: the frames a real gateway sends on /stream
and /ws validate against its messages' payloads, and its refusals close with the codes it lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from jsonschema import Draft7Validator, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from services.gateway.asyncapi import PAYLOADS, dialect
from services.ops.settings import Settings
from tests.service.client import bearer, create, seat_token, sse_frames
from tests.service.contract.node import installed, node
from tests.service.online.lobby_client import Person
from tests.service.online.test_bot_accounts import challenge, register_bot

pytestmark = pytest.mark.anyio
PARSER = Path(__file__).parent / "asyncapi"


@pytest.fixture
def settings() -> Settings:  # the document and the frames do not depend on the backend
    return Settings(redis_url=None, queue_url=None, queue_name="asyncapi", lease_s=1.0)


async def test_the_official_parser_finds_no_error_nor_warning(api, tmp_path):
    document = (await api.get("/asyncapi.json")).json()
    (tmp_path / "asyncapi.json").write_text(json.dumps(document))
    # and it does find errors: the same frame, its payload no schema, in a document of it alone
    broken = {key: document[key] for key in ("asyncapi", "info")}
    frame = {"type": "object", "properties": {"kind": {"type": "kind"}}}
    broken["channels"] = {"ws": {"address": "/ws", "messages": {"view": {"payload": frame}}}}
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    installed(PARSER)
    parsed = node("validate.mjs", tmp_path / "asyncapi.json", tmp_path / "broken.json", cwd=PARSER)
    assert parsed.returncode == 0, parsed.stderr
    report, refused = json.loads(parsed.stdout)
    assert report["parsed"] and report["diagnostics"] == [], report
    assert not refused["parsed"] and any(d["path"].endswith("kind/type") for d in refused["diagnostics"]), refused


async def test_its_schemas_are_the_openapi_documents(api):
    streams = (await api.get("/asyncapi.json")).json()
    published = (await api.get("/openapi.json")).json()
    assert streams["asyncapi"].startswith("3.") and streams["info"]["version"] == published["info"]["version"]
    components = published["components"]["schemas"]
    own = streams["components"]["schemas"]
    assert set(PAYLOADS.values()) < set(own) and "heros-tavern.View" in own and "taverna.Event" in own
    for name, schema in own.items():
        assert schema == dialect(components[name]), name
    for name, message in streams["components"]["messages"].items():
        if name in PAYLOADS:
            assert message["payload"] == {"$ref": f"#/components/schemas/{PAYLOADS[name]}"}, name


class Messages:
    """The document's messages, each payload (and SSE headers) checked with jsonschema."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry = Registry().with_resource("urn:streams", Resource(document, specification=DRAFT7))
        self.checked: set[str] = set()

    def check(self, name: str, payload: Any, part: str = "payload") -> None:
        pointer = f"urn:streams#/components/messages/{name}/{part}"
        Draft7Validator({"$ref": pointer}, registry=self.registry).validate(payload)
        self.checked.add(name)


def ws_base(served: httpx.AsyncClient) -> str:
    return str(served.base_url).rstrip("/").replace("http://", "ws://")


def sse_events(text: str) -> list[dict[str, str]]:
    events = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if fields:
            events.append(fields)
    return events


async def test_the_frames_a_gateway_sends_are_the_documents(served):
    messages = Messages((await served.get("/asyncapi.json")).json())
    created = await create(served, seats=3, bots=[2])
    url = f"{ws_base(served)}/v1/matches/{created['match_id']}"
    async with websockets.connect(f"{url}/ws?access_token={seat_token(created, 0)}") as socket:
        first = json.loads(await socket.recv())
        messages.check("wsView", first)
        sent = [first["view"]["legal"][0], {"type": "NoSuch"}]
        for number, command in enumerate(sent):
            await socket.send(json.dumps({"id": number, "command": command, "idempotency_key": f"k{number}"}))
        messages.check("wsCommand", {"id": 0, "command": sent[0], "idempotency_key": "k0"})
        with pytest.raises(ValidationError):  # what the gateway refuses the document refuses
            messages.check("wsCommand", {"id": 1, "command": sent[1]})
        answers = []
        while len(answers) < len(sent):
            frame = json.loads(await socket.recv())
            messages.check({"view": "wsView", "presence": "wsPresence", "answer": "wsAnswer"}[frame["kind"]], frame)
            if frame["kind"] == "answer":
                answers.append(frame["status"])
        assert answers == [200, 400]
        # a second seat's stream opens and closes: presence, on the socket and as an SSE event
        headers = {**bearer(seat_token(created, 1)), "Last-Event-ID": "0"}
        async with served.stream("GET", f"/v1/matches/{created['match_id']}/stream", headers=headers) as stream:
            async for chunk in stream.aiter_text():
                if "event: view" in chunk:
                    break
        while (frame := json.loads(await socket.recv()))["kind"] != "presence":
            messages.check("wsView", frame)
        messages.check("wsPresence", frame)
    assert {"wsView", "wsCommand", "wsAnswer", "wsPresence"} <= messages.checked
    # /stream: its events, the data as the payload and the SSE fields as the headers; a seat's socket
    # opening meanwhile brings a presence event
    path, seen = f"/v1/matches/{created['match_id']}/stream", []
    async with served.stream("GET", path, headers=bearer(seat_token(created, 0))) as stream:
        text = ""
        async for chunk in stream.aiter_text():
            text, events = text + chunk, sse_events(text + chunk)
            if [event["event"] for event in events] == ["view"] and text.endswith("\n\n"):
                async with websockets.connect(f"{url}/ws?access_token={seat_token(created, 1)}") as other:
                    await other.recv()
            if "presence" in [event["event"] for event in events] and text.endswith("\n\n"):
                break
    for event in events:
        messages.check(event["event"], json.loads(event["data"]))
        messages.check(event["event"], {key: value for key, value in event.items() if key != "data"}, "headers")
        seen.append(event["event"])
    assert seen[0] == "view" and "presence" in seen and {"view", "presence"} <= messages.checked


async def test_its_close_codes_are_the_refusals(served):
    codes = (await served.get("/asyncapi.json")).json()["channels"]["ws"]["x-close-codes"]
    listed = [{"code": close["code"], "reason": close["reason"]} for close in codes]
    created = await create(served, seats=3, bots=[1, 2])
    token = seat_token(created, 0)
    closes = []
    for match_id, query in (
        (created["match_id"], ""),
        (created["match_id"], "?access_token=nope"),
        ("nope", "?access_token=x"),
        (created["match_id"], f"?last_event_id=x&access_token={token}"),
    ):
        async with websockets.connect(f"{ws_base(served)}/v1/matches/{match_id}/ws{query}") as socket:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await socket.recv()
        closes.append({"code": closed.value.rcvd.code, "reason": closed.value.rcvd.reason})
    assert all(close in listed for close in closes) and sorted(c["code"] for c in closes) == [4400, 4401, 4403, 4404]


async def test_a_players_event_and_inbox_frames_are_the_documents(served, api):
    """/v1/events and the inbox stream: each event's data is its message's payload, its SSE fields its
    headers (a kept event's id, none on a turn or an end made from the views)."""
    messages = Messages((await served.get("/asyncapi.json")).json())

    def check(frame: dict[str, str]) -> str:
        messages.check(frame["event"], json.loads(frame["data"]))
        messages.check(frame["event"], {key: value for key, value in frame.items() if key != "data"}, "headers")
        return frame["event"]

    ann, bot = await Person(api).register("Ann"), await register_bot(api)
    asked = await challenge(ann, bot)
    async with served.stream("GET", "/v1/events", headers=bearer(bot.token), timeout=10) as stream:
        assert check(await anext(sse_frames(stream))) == "challenge"
    accepted = (await bot.call("POST", f"/v1/challenges/{asked['challenge_id']}/accept")).json()
    await ann.join(accepted["match_id"])
    bot.seat_token = accepted["token"]
    seen = []
    async with served.stream("GET", "/v1/events", headers=bearer(ann.token), timeout=10) as stream:
        frames = sse_frames(stream)
        seen += [check(await anext(frames)) for _ in range(2)]
        conceded = await bot.call("POST", f"/v1/matches/{accepted['match_id']}/commands", {"type": "Concede"},
                                  seat=True)
        assert conceded.status_code == 200, conceded.text
        while seen[-1] != "match_finished":
            seen.append(check(await anext(frames)))
    assert seen[:2] == ["challenge_accepted", "match_started"]
    with pytest.raises(ValidationError):  # a turn's fields with an id it never has: the document refuses it
        messages.check("turn", {"event": "turn", "id": 7}, "headers")
    async with served.stream("GET", "/v1/players/me/inbox/stream", headers=bearer(ann.token), timeout=10) as stream:
        assert check(await anext(sse_frames(stream))) == "inbox"
    assert {"challenge", "challenge_accepted", "match_started", "match_finished", "inbox"} <= messages.checked
