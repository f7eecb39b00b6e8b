"""The table chat's endpoints in /openapi.json (docs/chat.md): kept apart from openapi.py, which adds
them with one call."""

from __future__ import annotations

from typing import Any

import msgspec

from services.commands.chat import Blocked, ChatLine, ChatPage, OpenReportsPage, Reported, Reports
from services.gateway.chat import Block, Removal, ReportLine, Say
from services.gateway.contract import REF
from services.gateway.openapi_online import _json, _op, _path, _ref

TYPES = [Say, Block, ReportLine, Removal, ChatLine, ChatPage, Blocked, Reported, Reports, OpenReportsPage]
MODERATOR = {"type": "apiKey", "in": "header", "name": "X-API-Key",
             "description": "a trusted frontend's key (TAVERN_API_KEYS): its operators moderate the chat"}
OPERATION_IDS = {
    ("/v1/matches/{match_id}/chat", "get"): "readChat",
    ("/v1/matches/{match_id}/chat", "post"): "sayInChat",
    ("/v1/matches/{match_id}/chat/blocks", "post"): "blockInChat",
    ("/v1/matches/{match_id}/chat/reports", "post"): "reportChatLine",
    ("/v1/matches/{match_id}/chat/reports", "get"): "listChatReports",
    ("/v1/matches/{match_id}/chat/reports/{report_id}", "delete"): "handleChatReport",
    ("/v1/moderation/reports", "get"): "listOpenReports",
    ("/v1/matches/{match_id}/chat/removals", "post"): "removeChatLine",
    ("/v1/matches/{match_id}/chat/export", "get"): "exportChat",
}


def paths(components: dict[str, Any]) -> dict[str, Any]:
    """The chat's paths, each operation named; their messages' schemas are added to ``components``."""
    _, own = msgspec.json.schema_components(TYPES, ref_template=REF + "{name}")
    components.update(own)
    seat = {"parameters": [_path("match_id")], "security": [{"bearer": []}]}
    either = {"parameters": [_path("match_id")], "security": [{"bearer": []}, {"moderator": []}]}
    moderator = {"parameters": [_path("match_id")], "security": [{"moderator": []}]}
    after = {"name": "after", "in": "query", "schema": {"type": "string"},
             "description": "a line's id: the lines after it (default: from the oldest kept)"}
    channel = {"name": "channel", "in": "query", "schema": {"enum": ["players", "spectators"]},
               "description": "a seat's is players, the spectator token's spectators; a moderator's: either"}
    read = _op("The lines of the caller's channel after `after`, but those of the senders it blocked",
               "ChatPage", "200", (400, 401, 403, 404), **either)
    read["parameters"] = [*read["parameters"], after, channel]
    reports = _op("A moderator's read of the match's reports, oldest first", "Reports", "200", (400, 401, 404),
                  **moderator)
    reports["parameters"] = [*reports["parameters"], after]
    handled = _op("A moderator marks a report handled: off the open list, still in the match's reports", "", "204",
                  (400, 401, 404), **moderator)
    handled["responses"]["204"] = {"description": "handled"}
    handled["parameters"] = [*handled["parameters"], _path("report_id")]
    listed = _op("The moderators' open list of reports across matches, oldest first, until each is handled",
                 "OpenReportsPage", "200", (400, 401), security=[{"moderator": []}])
    listed["parameters"] = [
        {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    ]
    export = _op("A finished match's chat (`tavern-chat/1`, JSON Lines), exported beside its log and in no chain",
                 "ChatPage", "200", (401, 403, 404, 409), **either)
    export["responses"]["200"] = {"description": "the transcript: a header, then each channel's lines",
                                  "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}
    declared = {
        "/v1/matches/{match_id}/chat": {
            "get": read,
            "post": _op("Say a message on the caller's channel (a seat: players; the spectator token: "
                        "spectators), past the chat's rate 429", "ChatLine", "201", (400, 401, 403, 404, 409, 429),
                        requestBody=_json(_ref("Say")), **seat),
        },
        "/v1/matches/{match_id}/chat/blocks": {
            "post": _op("A seat blocks (or unblocks) a sender: its lines are never given to the seat",
                        "Blocked", "200", (400, 401, 403, 404, 409, 429), requestBody=_json(_ref("Block")), **seat),
        },
        "/v1/matches/{match_id}/chat/reports": {
            "post": _op("Report a line of the caller's channel to the moderators", "Reported", "201",
                        (400, 401, 403, 404, 409, 429), requestBody=_json(_ref("ReportLine")), **seat),
            "get": reports,
        },
        "/v1/matches/{match_id}/chat/reports/{report_id}": {"delete": handled},
        "/v1/moderation/reports": {"get": listed},
        "/v1/matches/{match_id}/chat/removals": {
            "post": _op("A moderator removes a message: the removal is kept as a line of its channel",
                        "ChatLine", "201", (400, 401, 404, 409), requestBody=_json(_ref("Removal")), **moderator),
        },
        "/v1/matches/{match_id}/chat/export": {"get": export},
    }
    for (path, method), name in OPERATION_IDS.items():
        declared[path][method]["operationId"] = name
    return declared
