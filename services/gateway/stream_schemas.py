"""The streams' frames as named schemas of /openapi.json, which OpenAPI cannot attach to a path of
its own (the AsyncAPI document refers to them by name; docs/API.md: the stream).

- GET /stream (Server-Sent Events): ``event: view`` carries a ``ViewEnvelope``, ``event: presence``
  a ``PresenceFrame``, ``event: chat`` a ``ChatFrame`` (docs/chat.md), ``event: lost`` an ``ErrorBody``
  (code ``match_lost``): services/gateway/sse.py.
- WebSocket /ws (services/gateway/ws_endpoint.py): the server sends a ``WsServerFrame``, one of
  ``WsViewFrame``, ``WsPresenceFrame``, ``WsChatFrame`` and ``WsAnswerFrame`` by ``kind``; the client a
  ``WsCommand``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from services.commands.chat import CHANNELS
from services.gateway.contract import REF, any_of_games, ref
from services.gateway.presence import PresenceFrame
from services.gateway.ws_endpoint import Message

Schema = dict[str, Any]


def _framed(kind: str, field: str, schema: Schema, description: str) -> Schema:
    return {
        "type": "object",
        "description": description,
        "properties": {"kind": {"enum": [kind]}, field: schema},
        "required": ["kind", field],
        "additionalProperties": False,
    }


def components() -> dict[str, Schema]:
    (_, message), own = msgspec.json.schema_components([PresenceFrame, Message], ref_template=REF + "{name}")
    own.pop("TablePlayer")  # contract.py's, its clock typed
    command = own.pop(message["$ref"].removeprefix(REF))
    command["properties"]["command"] = ref("Command")
    command["description"] = "a command on the socket: its answer carries the same id (an Idempotency-Key as POST's)"
    own["WsCommand"] = command
    own["PresenceFrame"]["additionalProperties"] = False
    answer_body = {"anyOf": [*any_of_games("Accepted")["anyOf"], ref("ErrorBody")]}
    own["WsViewFrame"] = _framed("view", "view", ref("ViewEnvelope"), "the caller's newest view, as /stream's view")
    own["WsPresenceFrame"] = _framed(
        "presence", "presence", ref("PresenceFrame"), "a seat connected or disconnected, as /stream's presence"
    )
    own["ChatFrame"] = {
        "type": "object",
        "description": "the table chat's channel of this stream has new lines: read them with GET /chat?after= "
        "(docs/chat.md)",
        "properties": {"channel": {"enum": list(CHANNELS)}},
        "required": ["channel"],
        "additionalProperties": False,
    }
    own["WsChatFrame"] = _framed("chat", "chat", ref("ChatFrame"), "the chat has new lines, as /stream's chat")
    own["WsAnswerFrame"] = {
        "type": "object",
        "description": "the answer to a WsCommand: POST /commands' status and body (`id` null: no id could be read)",
        "properties": {
            "kind": {"enum": ["answer"]},
            "id": {"type": ["string", "integer", "null"]},
            "status": {"type": "integer"},
            "body": {**answer_body, "description": "`<game>.Accepted` on 200, else an ErrorBody"},
        },
        "required": ["kind", "id", "status", "body"],
        "additionalProperties": False,
    }
    kinds = {"view": "WsViewFrame", "presence": "WsPresenceFrame", "chat": "WsChatFrame", "answer": "WsAnswerFrame"}
    own["WsServerFrame"] = {
        "oneOf": [ref(name) for name in kinds.values()],
        "discriminator": {"propertyName": "kind", "mapping": {kind: REF + name for kind, name in kinds.items()}},
    }
    for name, schema in own.items():
        schema["title"] = name
    return own
