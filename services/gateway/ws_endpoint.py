"""WebSocket /v1/matches/{match_id}/ws: the stream's view envelopes and the commands on one socket.

Server to client: ``{"kind": "view", "view": <ViewEnvelope>}``, as /stream sends them (the newest
only, versions increasing), ``{"kind": "presence", "presence": {match_id, version, players}}`` when
a seat connects or disconnects (as /stream's ``presence`` event), and
``{"kind": "answer", "id": ..., "status": 200, "body": {...}}``, the answer POST /commands would
give, carrying the ``id`` of the message it answers. Client to server:
``{"id": <string or integer>, "command": {...}, "idempotency_key": "..." (optional), "handling": "strict"
(optional: every stale ``expected_version`` a 409, as POST's ``Prefer: handling=strict``)}``.
The token comes as ``Authorization: Bearer`` or, from browsers, which cannot set that header on a
WebSocket, as ``?access_token=`` (RFC 6750); ``?last_event_id=N`` resumes as Last-Event-ID does.
Refused: closed with 4000 + the HTTP status and the error code as reason (4401, 4403, 4404, 4400).
Held to the commands' limits (docs/LIMITS.md): their rates (an answer 429 ``rate_limited``), their
JSON depth and Idempotency-Key (400), and their body cap: a message longer than it by more than
``ENVELOPE_BYTES`` closes the socket (1009, ``ws_max_size`` in services/cli/serve.py).
A command takes POST's path (services/gateway/command_path.py); the views, the stream loop of
/stream (services/gateway/streams.py): a socket of a gateway that is stopping is closed with
1001; one whose client stops reading is cut (reset: services/gateway/backlog.py). Its seat token
and address hold one of their open streams while it is open (stream_caps.py; past a cap, 4429)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Literal

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from services.commands.matches import Match
from services.gateway import command_path
from services.gateway.access import ApiError, authorize
from services.gateway.backlog import Backlog
from services.gateway.command_path import Sent
from services.gateway.hub import Hub, Listener
from services.gateway.rate_limit import address_of
from services.gateway.schemas import error
from services.gateway.stream_caps import StreamCaps
from services.gateway.streams import follow
from services.runtime import Runtime

ENVELOPE_BYTES = 1024  # a message's own fields around its command: the id and an Idempotency-Key
GOING_AWAY = 1001


class Message(msgspec.Struct, forbid_unknown_fields=True):
    """A command sent on the socket, with the id its answer will carry."""

    id: str | int
    command: msgspec.Raw
    idempotency_key: str | None = None
    handling: Annotated[
        Literal["strict"] | None,
        msgspec.Meta(description="strict: every stale expected_version is a 409, as POST's Prefer: handling=strict"),
    ] = None


_message = msgspec.json.Decoder(Message)


class Frames:
    """The socket's frames of the stream loop: text frames of JSON, one at a time with the answers."""

    keepalive = None  # the WebSocket protocol's own pings keep the connection alive
    direct = False  # a frame waits for the answer being sent (the lock)

    def __init__(self, websocket: WebSocket, lock: asyncio.Lock) -> None:
        self.websocket = websocket
        self.lock = lock

    def view(self, version: int, envelope: bytes) -> bytes:
        return b'{"kind":"view","view":' + envelope + b"}"

    def presence(self, table: bytes) -> bytes:
        return b'{"kind":"presence","presence":' + table + b"}"

    def chat(self, channel: str) -> bytes:
        return b'{"kind":"chat","chat":{"channel":"%s"}}' % channel.encode()

    async def send(self, frame: bytes) -> None:
        async with self.lock:
            await self.websocket.send_text(frame.decode())

    async def goodbye(self) -> None:
        pass  # the socket is closed once the loop ends (_views)

    async def lost(self, match_id: str) -> None:
        async with self.lock:  # as a connection to it would be refused now: 4000 + 410
            await self.websocket.close(code=4410, reason="match_lost")


async def ws_endpoint(websocket: WebSocket) -> None:
    runtime: Runtime = websocket.app.state.runtime
    hub: Hub = websocket.app.state.hub
    match_id = websocket.path_params["match_id"]
    token = websocket.query_params.get("access_token")
    authorization = websocket.headers.get("authorization") or (f"Bearer {token}" if token else "")
    await websocket.accept()  # then refused with a close code: a refused handshake tells the client nothing
    try:
        match, seat = await authorize(runtime, match_id, authorization)
        last_id = int(websocket.query_params.get("last_event_id", "0"))
    except ApiError as problem:
        await websocket.close(code=4000 + problem.status, reason=problem.code)
        return
    except ValueError:
        await websocket.close(code=4400, reason="bad_last_event_id")
        return
    caps: StreamCaps = websocket.app.state.stream_caps
    try:
        counted = caps.take(authorization, seat, address_of(websocket.scope))
    except ApiError as problem:  # past a cap of open streams
        await websocket.close(code=4000 + problem.status, reason=problem.code)
        return
    try:
        await _serve(websocket, runtime, hub, match, seat, last_id, authorization)
    finally:
        caps.give(counted)


async def _serve(
    websocket: WebSocket, runtime: Runtime, hub: Hub, match: Match, seat: int | None, last_id: int, authorization: str
) -> None:
    listener = await hub.attach(match.id, seat, last_id)
    frames = Frames(websocket, asyncio.Lock())  # one frame at a time from the two tasks
    # the socket's receive is uvicorn's: the connection whose backlog is counted (backlog.py)
    backlog = Backlog(websocket._receive, runtime.settings.limits.stream_unsent_bytes)
    views = asyncio.create_task(_views(hub, match.id, listener, last_id, frames, backlog))
    try:
        while True:
            message = await _receive(websocket)
            if message is None:
                return
            answer = await _answer(websocket, match, seat, message, authorization)
            async with frames.lock:
                await websocket.send_text(answer.decode())
    except WebSocketDisconnect:
        return
    finally:
        listener.gone = True
        listener.wake.set()
        views.cancel()
        hub.detach(match.id, listener)
        if backlog.unsent():
            # gone with bytes it never took: most often failed by the WebSocket's own ping timeout, whose
            # close leaves them to the kernel, which keeps the connection up while the client reads nothing
            backlog.cut()


async def _views(hub: Hub, match_id: str, listener: Listener, sent: int, frames: Frames, backlog: Backlog) -> None:
    await follow(hub, match_id, listener, sent, frames, backlog)
    if not listener.gone and not backlog.cut_off:  # the gateway is stopping
        with contextlib.suppress(RuntimeError, TimeoutError, WebSocketDisconnect):  # closed meanwhile
            async with frames.lock, asyncio.timeout(hub.send_timeout_s):
                await frames.websocket.close(GOING_AWAY)


async def _receive(websocket: WebSocket) -> bytes | None:
    """The next message's bytes (text or binary frames), or None once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text.encode() if text is not None else message.get("bytes") or b""


async def _answer(websocket: WebSocket, match: Match, seat: int | None, message: bytes, authorization: str) -> bytes:
    try:
        sent = _message.decode(message)
    except (msgspec.DecodeError, msgspec.ValidationError) as problem:
        return _frame(None, 400, error("bad_message", f"{{id, command, idempotency_key?, handling?}}: {problem}"))

    async def caller() -> tuple[Match, int | None]:
        return match, seat  # authorised once, when the socket opened

    command = Sent(bytes(sent.command), sent.idempotency_key, "an idempotency_key", sent.handling == "strict")
    reply = await command_path.take(websocket.scope, authorization, caller, command)
    return _frame(sent.id, reply.status, reply.body)


def _frame(message_id: str | int | None, status: int, body: bytes) -> bytes:
    head = msgspec.json.encode({"kind": "answer", "id": message_id, "status": status})
    return head[:-1] + b',"body":' + body + b"}"
