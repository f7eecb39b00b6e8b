"""/asyncapi.json (AsyncAPI 3.1): a match's two streams, /stream (Server-Sent Events) and /ws (a
WebSocket): their frames, resuming, keep-alives, the last word of a lost match and the close codes;
and a registered player's two, its events (/v1/events: challenges, matches found and started, its
turns) and its inbox (/v1/players/me/inbox/stream). docs/API.md says the same in words.

Every payload is a schema of /openapi.json (the frames are stream_schemas.py's): the document is
built from ``openapi.document()``, the components its payloads reach carried into AsyncAPI's schema
dialect (JSON Schema draft 07, whose ``discriminator`` is the property's name, not OpenAPI's
object), so the two documents cannot disagree.
"""

from __future__ import annotations

from typing import Any

from services.gateway import contract
from services.gateway.contract import Schema, ref
from services.gateway.openapi_online import EVENT_TYPES

PATH = "/asyncapi.json"
MATCH = "/v1/matches/{match_id}"
INTEGER = {"type": "string", "pattern": "^-?[0-9]+$"}

# The payloads of the messages: schemas of /openapi.json (services/gateway/stream_schemas.py)
PAYLOADS = {
    "view": "ViewEnvelope",
    "presence": "PresenceFrame",
    "chat": "ChatFrame",
    "lost": "ErrorBody",
    "wsView": "WsViewFrame",
    "wsPresence": "WsPresenceFrame",
    "wsChat": "WsChatFrame",
    "wsCommand": "WsCommand",
    "wsAnswer": "WsAnswerFrame",
    "inbox": "InboxPage",
}
# A player's events (services/gateway/bots.py): each SSE event named by its type, the payload that type's
# schema; those kept in the player's log carry an ``id`` to resume after, the turns and ends made from
# the views do not
EVENTS = {kind.__struct_config__.tag: kind.__name__ for kind in EVENT_TYPES}
UNKEPT = ("turn", "match_finished")
PAYLOADS |= EVENTS
STREAM_ID = {"type": "string", "pattern": "^[0-9]+-[0-9]+$", "description": "send it back as Last-Event-ID"}

# The WebSocket's close codes: a refused connection is accepted, then closed with 4000 + the HTTP
# status the same refusal answers on /stream, the error's code as the reason (ws_endpoint.py).
CLOSE_CODES = [
    {"code": 4400, "reason": "bad_last_event_id", "when": "`last_event_id` is not a version number"},
    {"code": 4401, "reason": "no_token", "when": "neither `Authorization: Bearer` nor `access_token`"},
    {"code": 4403, "reason": "wrong_token", "when": "a token that is not this match's"},
    {"code": 4404, "reason": "no_such_match", "when": "no such match"},
    {
        "code": 4410,
        "reason": "match_lost",
        "when": "the match is lost (its Redis restarted without persistence): on connecting, or closing an open "
        "socket. Do not reconnect",
    },
    {"code": 4429, "reason": "rate_limited", "when": "past a cap of open streams (docs/LIMITS.md)"},
    {"code": 1001, "reason": "", "when": "the gateway is stopping: reconnect (to another) with `last_event_id`"},
    {
        "code": 1009,
        "reason": "",
        "when": "a message longer than the commands' body cap (docs/LIMITS.md); the connection is dropped",
    },
]

_SSE_FIELDS = "the SSE fields of the event (`event:`, `id:`, `retry:`) as headers; `data:` is the payload"


def _sse_fields(event: str | None, with_id: bool, id_schema: Schema | None = None) -> Schema:
    properties: dict[str, Any] = {"event": {"enum": [event]}} if event else {}
    if with_id:
        properties["id"] = id_schema or {**INTEGER, "description": "the view's version: send it back as Last-Event-ID"}
        properties["retry"] = {**INTEGER, "description": "on the first event only: the reconnection delay, ms"}
    return {"type": "object", "description": _SSE_FIELDS, "properties": properties, "required": ["event"] * bool(event),
            "additionalProperties": False}  # a field not listed is never sent (an id on a turn: none)


def _message(name: str, summary: str, headers: Schema | None = None) -> Schema:
    message: Schema = {"name": name, "title": name, "summary": summary}
    if name in PAYLOADS:
        message |= {"contentType": "application/json", "payload": ref(PAYLOADS[name])}
    if headers is not None:
        message["headers"] = headers
    return message


def _messages() -> dict[str, Schema]:
    return {
        "view": _message(
            "view",
            "The seat's view, newest only, versions increasing; skip one below the version of your last 200",
            _sse_fields("view", with_id=True),
        ),
        "presence": _message(
            "presence",
            "A seat's stream opened or closed: the table with each seat's `connected` (no `id`)",
            _sse_fields("presence", with_id=False),
        ),
        "chat": _message(
            "chat",
            "The table chat's channel of this seat (or of the spectators) has new lines: read them with GET /chat "
            "(no `id`)",
            _sse_fields("chat", with_id=False),
        ),
        "lost": _message(
            "lost",
            "The last event of a stream whose match was lost (no `id`); the answer ends. Do not reconnect",
            _sse_fields("lost", with_id=False),
        ),
        # no payload: a comment line
        "keepalive": _message("keepalive", "The comment `: keepalive` after 15 s of quiet (SSE clients skip it)"),
        "goodbye": _message(
            "goodbye",
            "`retry: 1000` then the answer ends: the gateway is stopping; reconnect with Last-Event-ID",
            _sse_fields(None, with_id=True),
        ),
        "wsView": _message("wsView", "A view, as /stream sends them"),
        "wsPresence": _message("wsPresence", "A seat's stream opened or closed"),
        "wsChat": _message("wsChat", "The table chat has new lines, as /stream's chat"),
        "wsCommand": _message("wsCommand", "A command of the seat, with an id of the client's"),
        "wsAnswer": _message("wsAnswer", "The answer to a command, carrying its id"),
        "inbox": _message(
            "inbox",
            "The player's inbox as GET /v1/players/me/inbox answers it: at once, then at each change",
            _sse_fields("inbox", with_id=True, id_schema={**INTEGER, "description": "the inbox's revision: send "
                                                         "it back as Last-Event-ID"}),
        ),
        **{
            event: _message(
                event,
                f"A `{event}` event of the player's"
                + (" (no `id`: made from the seat's views, not kept)" if event in UNKEPT else ""),
                _sse_fields(event, with_id=event not in UNKEPT, id_schema=STREAM_ID),
            )
            for event in EVENTS
        },
    }


def _channels() -> dict[str, Schema]:
    match_id = {"description": "the match's id (POST /v1/matches answers it)"}
    token = "a seat's token, or the spectator's"
    return {
        "stream": {
            "address": MATCH + "/stream",
            "title": "GET /v1/matches/{match_id}/stream",
            "description": "Server-Sent Events (`text/event-stream`) to a GET with `Authorization: Bearer <token>` "
            f"({token}). The current view first, then each newer one. Resume: reconnect with `Last-Event-ID: "
            "<the last id>`: the current view comes at once if newer, nothing older (400 `bad_last_event_id` "
            "if not a number). A stream quiet for 15 s gets a `: keepalive` comment. Refusals are HTTP answers "
            "(`ErrorBody`): 401, 403, 404, 410 `match_lost`, 429 `rate_limited` with Retry-After.",
            "servers": [{"$ref": "#/servers/http"}],
            "parameters": {"match_id": match_id},
            "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in _SSE},
            "x-resume": {"header": "Last-Event-ID", "value": "the `id` of the last `view` event received"},
        },
        "ws": {
            "address": MATCH + "/ws",
            "title": "GET /v1/matches/{match_id}/ws",
            "description": f"A WebSocket of text frames of JSON: views and presence as /stream's, and the seat's "
            f"commands with their answers. The token ({token}) as `Authorization: Bearer` or `?access_token=` "
            "(browsers cannot set headers on a WebSocket). Resume: reconnect with `?last_event_id=<the last "
            "view's version>`. Keep-alives are the protocol's own pings. A refused connection is accepted and "
            "closed with 4000 + the HTTP status, the error's code as the reason (`x-close-codes`).",
            "servers": [{"$ref": "#/servers/ws"}],
            "parameters": {"match_id": match_id},
            "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in _WS},
            "bindings": {
                "ws": {
                    "method": "GET",
                    "query": {
                        "type": "object",
                        "properties": {
                            "access_token": {"type": "string", "description": token},
                            "last_event_id": {**INTEGER, "description": "resume: only views newer than this"},
                        },
                    },
                    "headers": {
                        "type": "object",
                        "properties": {"Authorization": {"type": "string", "description": f"Bearer: {token}"}},
                    },
                    "bindingVersion": "0.1.0",
                }
            },
            "x-resume": {"query": "last_event_id", "value": "the `version` of the last view received"},
            "x-close-codes": CLOSE_CODES,
        },
        "events": {
            "address": "/v1/events",
            "title": "GET /v1/events",
            "description": "Server-Sent Events to a GET with a registered player's token (`Authorization: Bearer`): "
            "its challenges and their answers, matches found and started, tournament tables, rematches, and in "
            "each started match its seat's turns (the seat's view in the event) and the match's end. Resume: "
            "reconnect with `Last-Event-ID: <the last id>` (turns and ends have none: they are told again "
            "from the views). A stream quiet for 15 s gets a `: keepalive` comment. Refusals are HTTP answers "
            "(`ErrorBody`): 400 `bad_last_event_id`, 401, 429 `rate_limited`.",
            "servers": [{"$ref": "#/servers/http"}],
            "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in _EVENTS},
            "x-resume": {"header": "Last-Event-ID", "value": "the `id` of the last event received that had one"},
        },
        "inbox": {
            "address": "/v1/players/me/inbox/stream",
            "title": "GET /v1/players/me/inbox/stream",
            "description": "Server-Sent Events to a GET with a registered player's token: its inbox (its running "
            "matches, its turn or not) at once and at each change. Resume: `Last-Event-ID: <the last id>` "
            "(the inbox comes at once if it changed since). Keep-alives and refusals as /v1/events'.",
            "servers": [{"$ref": "#/servers/http"}],
            "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in _INBOX},
            "x-resume": {"header": "Last-Event-ID", "value": "the `id` of the last inbox event received"},
        },
    }


_SSE = ("view", "presence", "chat", "lost", "keepalive", "goodbye")
_WS = ("wsView", "wsPresence", "wsChat", "wsCommand", "wsAnswer")
_EVENTS = (*EVENTS, "keepalive", "goodbye")
_INBOX = ("inbox", "keepalive", "goodbye")


def _messages_of(channel: str, names: tuple[str, ...]) -> list[Schema]:
    return [{"$ref": f"#/channels/{channel}/messages/{name}"} for name in names]


def _streamed(channel: str, summary: str, names: tuple[str, ...]) -> Schema:
    """The operation of an SSE channel: the gateway sends its messages to a GET."""
    return {
        "action": "send",
        "channel": {"$ref": f"#/channels/{channel}"},
        "summary": summary,
        "messages": _messages_of(channel, names),
        "bindings": {"http": {"method": "GET", "bindingVersion": "0.3.0"}},
    }


def _operations() -> dict[str, Schema]:
    return {
        "streamViews": _streamed(
            "stream", "The gateway sends a seat's (or the spectator's) views as Server-Sent Events", _SSE
        ),
        "socketViews": {
            "action": "send",
            "channel": {"$ref": "#/channels/ws"},
            "summary": "The gateway sends views and presence on the socket",
            "messages": _messages_of("ws", ("wsView", "wsPresence", "wsChat")),
        },
        "socketCommands": {
            "action": "receive",
            "channel": {"$ref": "#/channels/ws"},
            "summary": "The gateway takes a seat's commands on the socket and answers each (a spectator's: 403)",
            "messages": _messages_of("ws", ("wsCommand",)),
            "reply": {"channel": {"$ref": "#/channels/ws"}, "messages": _messages_of("ws", ("wsAnswer",))},
        },
        "streamPlayerEvents": _streamed(
            "events", "The gateway sends a registered player's events as Server-Sent Events", _EVENTS
        ),
        "streamInbox": _streamed(
            "inbox", "The gateway sends a registered player's inbox as Server-Sent Events", _INBOX
        ),
    }


def dialect(node: Any) -> Any:
    """A schema of /openapi.json in AsyncAPI's schema dialect: OpenAPI's ``discriminator`` object
    becomes its property's name, 2020-12's ``prefixItems`` draft 07's ``items`` array."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "discriminator" and isinstance(value, dict):
                out[key] = value["propertyName"]
            elif key == "prefixItems":
                out["items"] = dialect(value)
            else:
                out[key] = dialect(value)
        return out
    if isinstance(node, list):
        return [dialect(item) for item in node]
    return node


def document(openapi: dict[str, Any]) -> dict[str, Any]:
    """The AsyncAPI document of the streams, its schemas those of ``openapi`` (/openapi.json)."""
    schemas = contract.reachable(list(PAYLOADS.values()), openapi["components"]["schemas"])
    version = openapi["info"]["version"]
    return {
        "asyncapi": "3.1.0",
        "info": {
            "title": "Tavern: a match's streams, and a player's",
            "version": version,
            "description": "The views of a match as Server-Sent Events (`/stream`) and on a WebSocket (`/ws`, "
            "commands too); a registered player's events (`/v1/events`) and inbox (`/v1/players/me/inbox/stream`) "
            "as Server-Sent Events. Every payload is a schema of /openapi.json (the same version of the API); "
            "docs/API.md says the same in words.",
        },
        "servers": {
            "http": {"host": "{host}", "protocol": "http", "variables": {"host": {"default": "127.0.0.1:8000"}}},
            "ws": {"host": "{host}", "protocol": "ws", "variables": {"host": {"default": "127.0.0.1:8000"}}},
        },
        "channels": _channels(),
        "operations": _operations(),
        "components": {"schemas": dialect(dict(sorted(schemas.items()))), "messages": _messages()},
    }
