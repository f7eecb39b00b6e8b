"""WebSocket /v1/matches/{match_id}/ws: the stream's view envelopes and the commands on one socket.

Server to client: ``{"kind": "view", "view": <ViewEnvelope>}``, as /stream sends them (the newest
only, versions increasing), ``{"kind": "presence", "presence": {match_id, version, players}}`` when
a seat connects or disconnects (as /stream's ``presence`` event), and
``{"kind": "answer", "id": ..., "status": 200, "body": {...}}``, the answer POST /commands would
give, carrying the ``id`` of the message it answers. Client to server:
``{"id": <string or integer>, "command": {...}, "idempotency_key": "..." (optional)}``.
The token comes as ``Authorization: Bearer`` or, from browsers, which cannot set that header on a
WebSocket, as ``?access_token=`` (RFC 6750); ``?last_event_id=N`` resumes as Last-Event-ID does.
Refused: closed with 4000 + the HTTP status and the error code as reason (4401, 4403, 4404, 4400).
Held to the commands' limits (docs/LIMITS.md): their rates (an answer 429 ``rate_limited``), their
JSON depth and Idempotency-Key (400), and their body cap: a message longer than it by more than
``ENVELOPE_BYTES`` closes the socket (1009, ``ws_max_size`` in services/cli/serve.py)."""

from __future__ import annotations

import asyncio

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from services.commands.handling import BadCommand, decode_command
from services.commands.matches import Match
from services.commands.schemas import error
from services.gateway.access import ApiError, authorize
from services.gateway.command_endpoint import IDEMPOTENCY_KEY
from services.gateway.rate_limit import address_of
from services.gateway.sse import Hub, Listener
from services.ops import logs
from services.runtime import Runtime

log = logs.get("tavern.ws")
ENVELOPE_BYTES = 1024  # a message's own fields around its command: the id and an Idempotency-Key


class Sent(msgspec.Struct, forbid_unknown_fields=True):
    """A command sent on the socket, with the id its answer will carry."""

    id: str | int
    command: msgspec.Raw
    idempotency_key: str | None = None


_sent = msgspec.json.Decoder(Sent)


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
    listener = await hub.attach(match.id, seat, last_id)
    lock = asyncio.Lock()  # one frame at a time from the two tasks below
    views = asyncio.create_task(_send_views(websocket, hub, match.id, listener, last_id, lock))
    try:
        while True:
            message = await _receive(websocket)
            if message is None:
                return
            answer = await _answer(websocket, match, seat, message, authorization)
            async with lock:
                await websocket.send_text(answer.decode())
    except WebSocketDisconnect:
        return
    finally:
        listener.gone = True
        listener.wake.set()
        views.cancel()
        hub.detach(match.id, listener)


async def _receive(websocket: WebSocket) -> bytes | None:
    """The next message's bytes (text or binary frames), or None once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text.encode() if text is not None else message.get("bytes") or b""


async def _answer(websocket: WebSocket, match: Match, seat: int | None, message: bytes, authorization: str) -> bytes:
    runtime: Runtime = websocket.app.state.runtime
    try:
        sent = _sent.decode(message)
    except (msgspec.DecodeError, msgspec.ValidationError) as problem:
        return _frame(None, 400, error("bad_message", f"{{id, command, idempotency_key?}}: {problem}"))
    if seat is None:
        return _frame(sent.id, 403, error("spectator", "a spectator token cannot send commands"))
    try:  # the rates POST /commands is held to, shared with it
        await websocket.app.state.rate.commands(address_of(websocket.scope), authorization)
    except ApiError as problem:
        return _frame(sent.id, problem.status, error(problem.code, problem.message))
    if sent.idempotency_key is not None and not IDEMPOTENCY_KEY.fullmatch(sent.idempotency_key):
        message = "an idempotency_key is 1 to 200 printable ASCII characters"
        return _frame(sent.id, 400, error("bad_idempotency_key", message))
    try:
        command, expected = decode_command(match, bytes(sent.command), runtime.settings.limits.json_depth)
    except BadCommand as problem:
        runtime.metrics.command(match.game.id, "undecodable", "bad_request", "bad_command")
        return _frame(sent.id, 400, error("bad_command", str(problem)))
    try:
        answer = await runtime.handler.submit(match, seat, command, expected, sent.idempotency_key)
    except Exception:
        log.exception("command_failed", match_id=match.id, seat=seat)
        return _frame(sent.id, 500, error("internal", "the server failed; the command may or may not have been taken"))
    return _frame(sent.id, answer.status, answer.body)


def _frame(message_id: str | int | None, status: int, body: bytes) -> bytes:
    head = msgspec.json.encode({"kind": "answer", "id": message_id, "status": status})
    return head[:-1] + b',"body":' + body + b"}"


async def _send_views(
    websocket: WebSocket, hub: Hub, match_id: str, listener: Listener, sent: int, lock: asyncio.Lock
) -> None:
    while not listener.gone:
        await listener.wake.wait()
        listener.wake.clear()
        listener.ping = False  # the WebSocket protocol's own pings keep the connection alive
        if listener.latest > sent:
            sent = listener.latest
            listener.moved = False
            async with lock:
                await websocket.send_text('{"kind":"view","view":' + hub.overlay(match_id, listener.raw).decode() + "}")
        elif listener.moved and listener.raw:
            listener.moved = False
            table = hub.table(match_id, listener).decode()
            async with lock:
                await websocket.send_text('{"kind":"presence","presence":' + table + "}")
