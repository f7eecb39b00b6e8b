"""The notification endpoints in /openapi.json (docs/notifications.md), added by openapi.py with one call."""

from __future__ import annotations

from typing import Any

import msgspec

from services.commands.notifications import NotificationEvent, PushSubscription, Webhook
from services.gateway.contract import REF
from services.gateway.notify import (
    PLAYER,
    DeliveryInfo,
    NotificationChoices,
    NotificationsChosen,
    NotificationTarget,
    PushKey,
)

TYPES = [NotificationChoices, NotificationsChosen, NotificationTarget, Webhook, PushSubscription, DeliveryInfo,
         PushKey, NotificationEvent]
OPERATION_IDS = {
    (f"{PLAYER}/notifications", "get"): "getNotificationChoices",
    (f"{PLAYER}/notifications", "patch"): "setNotificationChoices",
    (f"{PLAYER}/webhooks", "get"): "listWebhooks",
    (f"{PLAYER}/webhooks", "post"): "addWebhook",
    (f"{PLAYER}/webhooks/{{target_id}}", "delete"): "dropWebhook",
    (f"{PLAYER}/push-subscriptions", "get"): "listPushSubscriptions",
    (f"{PLAYER}/push-subscriptions", "post"): "subscribePush",
    (f"{PLAYER}/push-subscriptions/{{target_id}}", "delete"): "unsubscribePush",
    (f"{PLAYER}/deliveries", "get"): "listDeliveries",
    (f"{PLAYER}/deliveries/{{delivery_id}}", "get"): "getDelivery",
    ("/v1/push/key", "get"): "getPushKey",
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def _path(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _op(summary: str, answer: dict[str, Any] | None, status: str, errors: tuple[int, ...], *names: str,
        **extra: Any) -> dict[str, Any]:
    """A player's own operation (its token), on the path parameters ``names``."""
    ok: dict[str, Any] = {"description": summary, **(_json(answer) if answer is not None else {})}
    responses = {status: ok} | {str(code): {"description": "an error", **_json(_ref("ErrorBody"))} for code in errors}
    parameters = [_path(name) for name in ("player_id", *names)]
    return {"summary": summary, "responses": responses, "parameters": parameters, "security": [{"bearer": []}],
            **extra}


def webhooks() -> dict[str, Any]:
    """What a player's webhook is sent (OpenAPI 3.1 ``webhooks``): docs/notifications.md."""
    headers = [
        ("Idempotency-Key", "the event's id, the same on every attempt: a receiver drops one it has seen"),
        ("Tavern-Signature", "t=<unix s>,v1=<hex HMAC-SHA256, keyed with the webhook's secret, of t's digits,"
         " '.' and the body>"),
        ("Tavern-Delivery", "the delivery's id (GET /v1/players/{player_id}/deliveries/{delivery_id})"),
    ]
    return {
        "notification": {
            "post": {
                "summary": "A turn, a clock running low or a match's end, POSTed to each of the player's webhooks",
                "operationId": "notification",
                "parameters": [
                    {"name": name, "in": "header", "required": True, "description": said, "schema": {"type": "string"}}
                    for name, said in headers
                ],
                "requestBody": _json(_ref("NotificationEvent")),
                "responses": {"200": {"description": "taken (any 2xx; else sent again after a back-off)"}},
            }
        }
    }


def paths(components: dict[str, Any]) -> dict[str, Any]:
    """The notification paths, each operation named; their messages' schemas added to ``components``."""
    _, own = msgspec.json.schema_components(TYPES, ref_template=REF + "{name}")
    components.update(own)
    targets = {"type": "array", "items": _ref("NotificationTarget")}
    limit = {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}}
    mine = (401, 403)
    declared: dict[str, Any] = {
        f"{PLAYER}/notifications": {
            "get": _op("The player's choices: each kind and channel on or off", _ref("NotificationsChosen"), "200",
                       mine),
            "patch": _op("Turn kinds (turn, ended, time_low) or channels (webhook, push) on or off",
                         _ref("NotificationsChosen"), "200", (400, *mine, 422),
                         requestBody=_json(_ref("NotificationChoices"))),
        },
        f"{PLAYER}/webhooks": {
            "get": _op("The player's webhooks (their secrets never shown again)", targets, "200", mine),
            "post": _op("A webhook: each event POSTed to its URL, signed with its secret (Tavern-Signature)",
                        _ref("NotificationTarget"), "201", (400, *mine, 422), requestBody=_json(_ref("Webhook"))),
        },
        f"{PLAYER}/webhooks/{{target_id}}": {
            "delete": _op("Drop a webhook", None, "204", (*mine, 404), "target_id"),
        },
        f"{PLAYER}/push-subscriptions": {
            "get": _op("The player's Web Push subscriptions", targets, "200", mine),
            "post": _op("A browser's PushSubscription (its toJSON()), made with GET /v1/push/key",
                        _ref("NotificationTarget"), "201", (400, *mine, 422),
                        requestBody=_json(_ref("PushSubscription"))),
        },
        f"{PLAYER}/push-subscriptions/{{target_id}}": {
            "delete": _op("Drop a push subscription", None, "204", (*mine, 404), "target_id"),
        },
        f"{PLAYER}/deliveries": {
            "get": _op("The player's newest deliveries and their status, the newest first",
                       {"type": "array", "items": _ref("DeliveryInfo")}, "200", (400, *mine)),
        },
        f"{PLAYER}/deliveries/{{delivery_id}}": {
            "get": _op("One delivery's status", _ref("DeliveryInfo"), "200", (*mine, 404), "delivery_id"),
        },
        "/v1/push/key": {
            "get": {
                "summary": "The VAPID public key a browser subscribes with (its applicationServerKey)",
                "responses": {"200": {"description": "the key", **_json(_ref("PushKey"))}},
            }
        },
    }
    declared[f"{PLAYER}/deliveries"]["get"]["parameters"].append(limit)
    for (path, method), name in OPERATION_IDS.items():
        declared[path][method]["operationId"] = name
    return declared
