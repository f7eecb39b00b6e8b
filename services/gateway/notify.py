"""The notification endpoints (docs/notifications.md): a registered player's choices, webhooks,
push subscriptions and deliveries, each with the player's own token; and the VAPID public key
browsers subscribe with."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.kernel import RulesError
from services.commands.notifications import PushSubscription, Webhook
from services.gateway.access import ApiError, by_rule
from services.gateway.endpoints import int_query, json_body, json_response, runtime_of
from services.gateway.online import PAGE_MAX, caller


class NotificationChoices(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Each kind (turn, ended, time_low) and channel (webhook, push): on or off; left out: unchanged."""

    turn: bool | None = None
    ended: bool | None = None
    time_low: bool | None = None
    webhook: bool | None = None
    push: bool | None = None


class NotificationsChosen(msgspec.Struct):
    turn: bool
    ended: bool
    time_low: bool
    webhook: bool
    push: bool


class NotificationTarget(msgspec.Struct, omit_defaults=True):
    id: str
    url: str | None = None  # a webhook's (its secret is never shown again)
    endpoint: str | None = None  # a push subscription's


class DeliveryInfo(msgspec.Struct):
    id: str
    target: str  # "webhook:{id}" or "push:{id}"
    event_id: str  # the Idempotency-Key it is sent with
    kind: str
    state: str  # pending, sending, retry, delivered, failed, skipped
    attempts: int
    status: int  # the receiver's last HTTP status (0: none)
    error: str
    created: float
    updated: float


class PushKey(msgspec.Struct):
    public_key: str  # base64url, an uncompressed P-256 point: the browser's applicationServerKey


async def _own(request: Request) -> str:
    player = await caller(request)
    assert player is not None
    if player.id != request.path_params["player_id"]:
        raise ApiError(403, "not_this_player", "a player's notifications are set with that player's own token")
    return player.id


async def get_choices(request: Request) -> Response:
    player_id = await _own(request)
    return json_response(NotificationsChosen(**await runtime_of(request).notifier.choices(player_id)))


async def set_choices(request: Request) -> Response:
    player_id = await _own(request)
    asked = await json_body(request, NotificationChoices)
    changes = {name: value for name, value in msgspec.structs.asdict(asked).items() if value is not None}
    return json_response(NotificationsChosen(**await runtime_of(request).notifier.choose(player_id, changes)))


async def _targets(request: Request, channel: str) -> Response:
    player_id = await _own(request)
    found = await runtime_of(request).notifier.targets(player_id, channel)
    return json_response([NotificationTarget(target_id, **shown) for target_id, shown in sorted(found.items())])


async def _drop(request: Request, channel: str) -> Response:
    player_id = await _own(request)
    if not await runtime_of(request).notifier.drop(player_id, channel, request.path_params["target_id"]):
        raise ApiError(404, "no_such_target", "this player has no such webhook or push subscription")
    return Response(status_code=204)


async def _add(request: Request, kind: type[Webhook] | type[PushSubscription]) -> Response:
    player_id = await _own(request)
    asked = await json_body(request, kind)
    notifier = runtime_of(request).notifier
    try:
        if isinstance(asked, Webhook):
            added = NotificationTarget(await notifier.add_webhook(player_id, asked), url=asked.url)
        else:
            added = NotificationTarget(await notifier.subscribe(player_id, asked), endpoint=asked.endpoint)
    except RulesError as refusal:
        raise by_rule(422, refusal) from refusal
    return json_response(added, 201)


async def list_webhooks(request: Request) -> Response:
    return await _targets(request, "webhook")


async def add_webhook(request: Request) -> Response:
    return await _add(request, Webhook)


async def drop_webhook(request: Request) -> Response:
    return await _drop(request, "webhook")


async def list_pushes(request: Request) -> Response:
    return await _targets(request, "push")


async def subscribe(request: Request) -> Response:
    return await _add(request, PushSubscription)


async def unsubscribe(request: Request) -> Response:
    return await _drop(request, "push")


async def deliveries(request: Request) -> Response:
    player_id = await _own(request)
    count = int_query(request, "limit", 20, 1, PAGE_MAX)
    found = await runtime_of(request).notifier.deliveries(player_id, count)
    return json_response([_info(delivery) for delivery in found])


async def delivery(request: Request) -> Response:
    player_id = await _own(request)
    found = await runtime_of(request).notifier.delivery(player_id, request.path_params["delivery_id"])
    if found is None:
        raise ApiError(404, "no_such_delivery", "this player has no such delivery (or it has lapsed)")
    return json_response(_info(found))


def _info(delivery: object) -> DeliveryInfo:
    fields = {name: getattr(delivery, name) for name in DeliveryInfo.__struct_fields__}
    return DeliveryInfo(**fields)


async def push_key(request: Request) -> Response:
    return json_response(PushKey(runtime_of(request).notifier.vapid.public))


PLAYER = "/v1/players/{player_id}"
ROUTES = [
    Route(f"{PLAYER}/notifications", get_choices),
    Route(f"{PLAYER}/notifications", set_choices, methods=["PATCH"]),
    Route(f"{PLAYER}/webhooks", list_webhooks),
    Route(f"{PLAYER}/webhooks", add_webhook, methods=["POST"]),
    Route(f"{PLAYER}/webhooks/{{target_id}}", drop_webhook, methods=["DELETE"]),
    Route(f"{PLAYER}/push-subscriptions", list_pushes),
    Route(f"{PLAYER}/push-subscriptions", subscribe, methods=["POST"]),
    Route(f"{PLAYER}/push-subscriptions/{{target_id}}", unsubscribe, methods=["DELETE"]),
    Route(f"{PLAYER}/deliveries", deliveries),
    Route(f"{PLAYER}/deliveries/{{delivery_id}}", delivery),
    Route("/v1/push/key", push_key),
]
