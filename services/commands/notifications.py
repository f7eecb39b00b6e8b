"""Notifications (docs/notifications.md): when it becomes a registered player's turn, a match of
theirs ends, or their clock runs low, each of the player's webhooks and push subscriptions gets
one delivery of the event (unless the player turned that kind or channel off), sent by an RQ job
(services/store/delivery_jobs.py) and retried with back-off until its receiver takes it.

One event makes one delivery per target, whatever the redos: its id is the event's (the match,
the seat, the version the seat turned due at: ``Idempotency-Key``) with the target's. An attempt
is claimed in the delivery's record under a lease before anything is sent, and its outcome
written only by that attempt, so two senders never send one delivery at once and a delivered one
is never sent again. A sender that dies after its request left and before the answer was written
leaves the delivery to be sent again at its lease's end, with the same key: whether the first
request arrived is known to the receiver alone, which is why receivers drop a key they have seen
(at least once from here, exactly once where the receiver keeps its keys)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import msgspec
import requests
from pywebpush import WebPushException, webpush

from domain.games import get_game
from domain.kernel import RulesError
from projections.i18n import DEFAULT, LANGUAGES, texts
from services.commands import egress
from services.commands.clocks import deadline
from services.commands.folds import Folded
from services.commands.matches import Match
from services.commands.players import Players
from services.ops import logs
from services.ops.vapid import Vapids
from services.store.delivery_jobs import DeliveryJobs
from services.store.notifications import Delivery, NotificationBook, due_member, of_member

log = logs.get("tavern.notify")
KINDS = ("turn", "ended", "time_low")
CHANNELS = ("webhook", "push")
TARGETS_MAX = 5  # webhooks, and push subscriptions, per player
ATTEMPTS = 8  # a delivery's attempts at most before it is given up
BACKOFF_MAX_S = 3600.0
SEND_TIMEOUT_S = 10.0
LOW_SHARE = 0.2  # a seat's time runs low once this share of what it had when it turned due is left
PUSH_TTL_S = 86400  # how long a push service keeps a message for a browser that is away
SIGNATURE = "Tavern-Signature"  # t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>


class NotificationEvent(msgspec.Struct, omit_defaults=True):
    """What a delivery carries (a webhook's body, and inside a push message)."""

    id: str  # the idempotency key: one per event and player, the same on every target and retry
    type: str  # turn, ended, time_low
    match_id: str
    game: str
    seat: int
    version: int
    at: float  # when it happened (unix s)
    deadline: float | None = None  # the seat's clock, where it has one
    title: str = ""  # in the player's language (push messages)
    body: str = ""


class Webhook(msgspec.Struct, forbid_unknown_fields=True):
    url: str
    secret: str  # the HMAC key of the signature header: 16 to 200 characters


class PushKeys(msgspec.Struct, forbid_unknown_fields=True):
    p256dh: str
    auth: str


class PushSubscription(msgspec.Struct):
    """A browser's PushSubscription as its toJSON() gives it."""

    endpoint: str
    keys: PushKeys
    expirationTime: float | None = None  # the browser's own name


@dataclass(frozen=True, slots=True)
class Attempt:
    player_id: str
    delivery_id: str
    number: int
    channel: str  # webhook, push
    target_id: str
    target: dict[str, Any]  # the webhook or the subscription
    event_id: str
    body: bytes


@dataclass(frozen=True, slots=True)
class Sent:
    status: int  # 0: no answer
    error: str = ""
    refused: bool = False  # its address is not one a notification may go to (egress.py): not tried again


class Notifier:
    def __init__(
        self,
        book: NotificationBook,
        players: Players,
        watching: Callable[[str], Awaitable[frozenset[int]]],
        vapid: Vapids,
        lease_s: float = 30.0,
        retry_s: float = 5.0,
        networks: tuple[egress.Network, ...] = (),
    ) -> None:
        self.networks = networks  # the private networks a notification may go to (egress.py); else public only
        self.egress = egress.session(networks)
        self.book = book
        self.players = players
        self.watching = watching  # the seats of a match with an open stream (services/store/presence.py)
        self.vapid = vapid
        self.lease_s = lease_s  # an attempt's hold on its delivery: a dead sender's is sent again after it
        self.retry_s = retry_s  # the first back-off, doubled at each failed attempt
        self.jobs: DeliveryJobs | None = None  # set by the runtime: without, deliveries wait for the sweep

    # a player's choices and targets (the API's)
    async def choices(self, player_id: str) -> dict[str, bool]:
        """Every kind and channel: on unless the player turned it off."""
        made = await self.book.choices(player_id)
        return {name: made.get(name, True) for name in (*KINDS, *CHANNELS)}

    async def choose(self, player_id: str, changes: dict[str, bool]) -> dict[str, bool]:
        """Set the kinds and channels ``changes`` names (the API's body names no other)."""
        await self.book.choose(player_id, changes)
        return await self.choices(player_id)

    async def add_webhook(self, player_id: str, hook: Webhook) -> str:
        parts = urlsplit(hook.url)
        if parts.scheme not in ("http", "https") or not parts.hostname or len(hook.url) > 2000:
            raise RulesError("bad_webhook_url", "a webhook's URL is http:// or https://, at most 2000 characters")
        if egress.literal_refused(parts.hostname, self.networks):
            raise RulesError("bad_webhook_url", "a webhook's host is a public name or address, not {host}",
                             host=parts.hostname)
        if not 16 <= len(hook.secret) <= 200:
            raise RulesError("bad_webhook_secret", "a webhook's secret has 16 to 200 characters")
        return await self._add(player_id, "webhook", msgspec.json.encode(hook))

    async def subscribe(self, player_id: str, subscription: PushSubscription) -> str:
        parts = urlsplit(subscription.endpoint)
        if parts.scheme not in ("http", "https") or not parts.hostname or len(subscription.endpoint) > 2000:
            raise RulesError("bad_subscription", "a push subscription's endpoint is an http(s) URL")
        if egress.literal_refused(parts.hostname, self.networks):
            raise RulesError("bad_subscription", "a push service's host is a public name or address, not {host}",
                             host=parts.hostname)
        try:
            key, auth = _b64(subscription.keys.p256dh), _b64(subscription.keys.auth)
        except ValueError as problem:
            raise RulesError("bad_subscription", "a push subscription's keys are base64url") from problem
        if len(key) != 65 or len(auth) != 16:
            raise RulesError("bad_subscription", "p256dh is a P-256 point (65 bytes), auth 16 bytes")
        return await self._add(player_id, "push", msgspec.json.encode(subscription))

    async def _add(self, player_id: str, channel: str, record: bytes) -> str:
        held = await self.book.targets(player_id, channel)
        target_id = hashlib.sha256(record).hexdigest()[:16]  # the same one twice: one target
        if target_id not in held and len(held) >= TARGETS_MAX:
            raise RulesError("too_many_targets", "a player has at most {most} of each", most=TARGETS_MAX)
        await self.book.add_target(player_id, channel, target_id, record)
        return target_id

    async def targets(self, player_id: str, channel: str) -> dict[str, dict[str, Any]]:
        """Id -> the webhook's URL (its secret never shown again) or the subscription's endpoint."""
        found = await self.book.targets(player_id, channel)
        shown = "url" if channel == "webhook" else "endpoint"
        return {target_id: {shown: json.loads(record)[shown]} for target_id, record in found.items()}

    async def drop(self, player_id: str, channel: str, target_id: str) -> bool:
        return await self.book.drop_target(player_id, channel, target_id)

    async def deliveries(self, player_id: str, count: int) -> list[Delivery]:
        return await self.book.deliveries(player_id, count)

    async def delivery(self, player_id: str, delivery_id: str) -> Delivery | None:
        return await self.book.delivery(player_id, delivery_id)

    # what the projector saw
    async def projected(self, match: Match, folded: Folded, turned: dict[int, int]) -> None:
        """After a match's views were written: its end, or the seats that turned due (``turned``:
        seat -> version), told to their players; the clocked ones' time-low warnings are set."""
        if not match.players:
            return
        at = folded.last_time or time.time()
        result = match.game.result(folded.state)
        if result is not None:
            for seat, player_id in sorted(match.players.items()):
                said = (f"{match.id}:ended", "ended", match.id, match.game.id, seat, folded.version, at)
                ended = NotificationEvent(*said)
                await self._deliver(player_id, ended, at)
            return
        for seat, since in sorted(turned.items()):
            owner = match.players.get(seat)
            if owner is None:
                continue
            ends = deadline(match.clock, folded.clocks[seat]) if match.clock and folded.clocks else None
            key = f"{match.id}:{seat}:{since}"
            turn = NotificationEvent(f"{key}:turn", "turn", match.id, match.game.id, seat, since, at, ends)
            await self._deliver(owner, turn, at)
            if ends is not None and ends > at:
                due = ends - LOW_SHARE * (ends - at)  # when it is sent (and its ``at``)
                low = NotificationEvent(f"{key}:time_low", "time_low", match.id, match.game.id, seat, since, due, ends)
                await self._deliver(owner, low, due)

    async def _deliver(self, player_id: str, event: NotificationEvent, due: float) -> None:
        choices = await self.choices(player_id)
        if not choices[event.type]:
            return
        body = msgspec.json.encode(event)
        for channel in CHANNELS:
            if not choices[channel]:
                continue
            for target_id in await self.book.targets(player_id, channel):
                target = f"{channel}:{target_id}"
                delivery_id = hashlib.sha256(f"{event.id}|{target}".encode()).hexdigest()[:24]
                now = time.time()
                made = await self.book.make(player_id, delivery_id, target, event.id, event.type, body, now, due)
                if made and due <= now and self.jobs is not None:
                    await self._queue(player_id, delivery_id)

    async def _queue(self, player_id: str, delivery_id: str) -> None:
        # the sweep queues it again at the lease's end if this job is lost before it claims
        await self.book.due.set(due_member(player_id, delivery_id), time.time() + self.lease_s)
        assert self.jobs is not None
        await asyncio.to_thread(self.jobs.enqueue, player_id, delivery_id)  # RQ is synchronous: off the loop

    async def sweep(self, now: float, count: int = 100) -> int:
        """Queue the attempts due in this process's share of the deliveries (every second)."""
        due = await self.book.due.due(now, count)
        for member in due:
            await self._queue(*of_member(member))
        return len(due)

    # one attempt (services/projector/jobs.py: claimed and settled on the event loop, sent from the job's thread)
    async def claim(self, player_id: str, delivery_id: str) -> Attempt | None:
        """The attempt, claimed, or None: nothing to send (done, held by another, or not to be sent now)."""
        now, member = time.time(), due_member(player_id, delivery_id)
        state, value = await self.book.claim(player_id, delivery_id, now, self.lease_s)
        if state == "leased":
            await self.book.due.set(member, value)
            return None
        if state != "claimed":
            await self.book.due.drop(member)
            return None
        number = int(value)
        await self.book.due.set(member, now + self.lease_s)  # its sender dies: due again at the lease's end
        delivery = await self.book.delivery(player_id, delivery_id)
        assert delivery is not None
        channel, _, target_id = delivery.target.partition(":")
        record = (await self.book.targets(player_id, channel)).get(target_id)
        event = msgspec.json.decode(delivery.body, type=NotificationEvent)
        skipped = "target removed" if record is None else await self._skipped(event)
        if skipped:
            await self.book.done(player_id, delivery_id, number, "skipped", 0, skipped, now)
            await self.book.due.drop(member)
            log.info("notification_skipped", player_id=player_id, match_id=event.match_id, seat=event.seat,
                     reason=skipped)
            return None
        assert record is not None
        body = delivery.body
        if channel == "push":
            said = texts(await self._language(player_id))
            body = msgspec.json.encode(_worded(event, said))
        return Attempt(player_id, delivery_id, number, channel, target_id, json.loads(record), delivery.event_id, body)

    async def _skipped(self, event: NotificationEvent) -> str:
        """Why the event is not to be sent now ("" to send it)."""
        if event.seat in await self.watching(event.match_id):
            return "watching"  # the player has the match open: it sees it there
        if event.type == "time_low":
            since = (await self.book.turns(event.match_id)).get(event.seat)
            if since != event.version:
                return "moved"  # the seat played (or the match ended) before its time ran low
        return ""

    async def _language(self, player_id: str) -> str:
        language = await self.players.language(player_id)
        return language if language in LANGUAGES else DEFAULT

    def send(self, attempt: Attempt) -> Sent:
        """Send the attempt (blocking: from a job's thread, never the event loop)."""
        try:
            if attempt.channel == "webhook":
                return _post_webhook(self.egress, attempt)
            return self._push(attempt)
        except (requests.RequestException, OSError) as problem:
            if (refused := egress.refusal(problem)) is not None:
                return Sent(0, str(refused)[:300], refused=True)
            return Sent(0, f"{type(problem).__name__}: {problem}")

    def _push(self, attempt: Attempt) -> Sent:
        claims = {"sub": self.vapid.subject}
        try:
            answer = webpush(
                attempt.target, attempt.body.decode(), vapid_private_key=self.vapid.key, vapid_claims=claims,
                ttl=PUSH_TTL_S, timeout=SEND_TIMEOUT_S, requests_session=self.egress,
            )
        except WebPushException as problem:
            answered = problem.response
            return Sent(0 if answered is None else answered.status_code, str(problem)[:300])
        return Sent(answer.status_code)

    async def settle(self, attempt: Attempt, sent: Sent) -> str:
        """Write the attempt's outcome: delivered, or due again after a back-off, or given up."""
        now, member = time.time(), due_member(attempt.player_id, attempt.delivery_id)
        gone = attempt.channel == "push" and sent.status in (404, 410)  # the browser unsubscribed
        if 200 <= sent.status < 300:
            state = "delivered"
        elif gone or sent.refused or attempt.number >= ATTEMPTS:
            state = "failed"
        else:
            state = "retry"
        if not await self.book.done(attempt.player_id, attempt.delivery_id, attempt.number, state, sent.status,
                                    sent.error, now):
            return "lost"  # its lease lapsed and another attempt holds the delivery: that one writes
        if state == "retry":
            await self.book.due.set(member, now + min(BACKOFF_MAX_S, self.retry_s * 2 ** (attempt.number - 1)))
        else:
            await self.book.due.drop(member)
        if gone:
            await self.book.drop_target(attempt.player_id, "push", attempt.target_id)
        log.info("notification_sent", player_id=attempt.player_id, delivery=attempt.delivery_id, state=state,
                 status=sent.status, attempt=attempt.number, error=sent.error or None)
        return state


def _post_webhook(session: requests.Session, attempt: Attempt) -> Sent:
    body = attempt.body
    answer = session.post(
        attempt.target["url"], data=body, timeout=SEND_TIMEOUT_S, allow_redirects=False,
        headers={"Content-Type": "application/json", "Idempotency-Key": attempt.event_id,
                 "Tavern-Delivery": attempt.delivery_id, SIGNATURE: signature(attempt.target["secret"], body)},
    )
    return Sent(answer.status_code, "" if answer.ok else answer.text[:300])


def signature(secret: str, body: bytes, at: int | None = None) -> str:
    """The webhook's signature header: t=<unix s>,v1=<hex HMAC-SHA256 over "<t>." followed by the body>."""
    at = int(time.time()) if at is None else at
    mac = hmac.new(secret.encode(), f"{at}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={at},v1={mac}"


def _worded(event: NotificationEvent, said: Any) -> NotificationEvent:
    game = said._(get_game(event.game).name)
    if event.type == "turn":
        title, body = said._("Your turn"), said._("It is your turn in {game}.", game=game)
    elif event.type == "time_low":
        title, body = said._("Time runs low"), said._("Your time runs low in {game}.", game=game)
    else:
        title, body = said._("Match over"), said._("Your match of {game} has ended.", game=game)
    return msgspec.structs.replace(event, title=title, body=body)


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

