"""The bot-account endpoints (docs/bots.md): the bots' list, challenges, and a player's event stream."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.kernel import RulesError
from services.commands import challenges
from services.commands.challenges import NewChallenge
from services.commands.player_events import MatchFinished, MatchStarted, Turn, encode, event_type
from services.commands.refused import Refused
from services.gateway import answers, sse
from services.gateway.access import ApiError
from services.gateway.endpoints import int_query, json_body, json_response, runtime_of
from services.gateway.hub import Hub, Listener
from services.gateway.online import PAGE_MAX, caller
from services.gateway.rate_limit import address_of
from services.store.stream_ids import later

POLL_S = 0.5  # how often an open event stream reads its player's events (one XRANGE); a turn wakes it at once
HEARD_EVERY_S = 10.0  # how often an open event stream keeps its player's matchmaking tickets alive
KEEPALIVE_S = 15.0
_EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")


class BotInfo(msgspec.Struct):
    player_id: str
    name: str
    created: float


class BotsPage(msgspec.Struct):
    bots: list[BotInfo]
    next: int | None  # the offset of the next page, None on the last


async def list_bots(request: Request) -> Response:
    offset = int_query(request, "offset", 0, 0, 1_000_000)
    limit = int_query(request, "limit", 20, 1, PAGE_MAX)
    found = await runtime_of(request).players.bots(offset, limit + 1)
    shown = [BotInfo(bot.id, bot.name, bot.created) for bot in found[:limit]]
    return json_response(BotsPage(shown, offset + limit if len(found) > limit else None))


async def create_challenge(request: Request) -> Response:
    runtime = runtime_of(request)
    # a challenge costs the bot's answer and may create a match: counted as a creation
    await request.app.state.rate.creates(address_of(request.scope), None, request.headers.get("authorization"))
    player = await caller(request)
    assert player is not None
    asked = await json_body(request, NewChallenge)
    try:
        challenge = await runtime.challenges.challenge(player, asked)
    except RulesError as refusal:
        raise ApiError(400 if refusal.code == "unknown_game" else 422, refusal.code, refusal.message) from refusal
    except Refused as refusal:
        raise answers.refused(refusal) from refusal
    return json_response(challenge, 201)


async def get_challenge(request: Request) -> Response:
    player = await caller(request)
    assert player is not None
    try:
        return json_response(await runtime_of(request).challenges.get(request.path_params["challenge_id"], player))
    except Refused as refusal:
        raise answers.refused(refusal) from refusal


def _answer(act: str) -> Callable[[Request], Awaitable[Response]]:
    async def answer(request: Request) -> Response:
        runtime = runtime_of(request)
        player = await caller(request)
        assert player is not None
        try:
            answered = await getattr(runtime.challenges, act)(request.path_params["challenge_id"], player)
        except Refused as refusal:
            raise answers.refused(refusal) from refusal
        except RulesError as refusal:  # the match could not be created after all
            raise ApiError(422, refusal.code, refusal.message) from refusal
        return json_response(answered)

    return answer


async def player_events(request: Request) -> Response:
    """The caller's events as Server-Sent Events: ``event: <type>``, ``id: <event id>`` (resume with
    Last-Event-ID), ``data: <JSON>``. Without Last-Event-ID, from the events of the last ``TTL_S``
    seconds: every challenge still open is among them. Its seats in the matches started among its
    kept events are followed too: ``turn`` and ``match_finished`` frames, without an id. While it is
    open, its player's matchmaking tickets do not lapse (docs/matchmaking.md)."""
    player = await caller(request)
    assert player is not None
    last = request.headers.get("last-event-id")
    if last is not None and not _EVENT_ID.fullmatch(last):
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID is an event's id, as the stream sent it")
    after = last or f"{int((time.time() - challenges.TTL_S) * 1000)}-0"
    caps = request.app.state.stream_caps
    counted = caps.take(request.headers.get("authorization", ""), None, address_of(request.scope))
    runtime, hub = runtime_of(request), request.app.state.hub
    turns = _Turns(hub)

    async def frames(after: str) -> AsyncIterator[bytes]:
        quiet_since, read = time.monotonic(), "0-0"  # every kept event is read: its matches are followed
        heard = 0.0
        while not hub.closing:
            if time.monotonic() - heard >= HEARD_EVERY_S:  # an open stream: its player is connected
                heard = time.monotonic()
                await runtime.matchmaker.heard(player.id)
            found = await runtime.challenges.events(player.id, read, 50)
            sent = []
            for event_id, raw in found:
                read, kind = event_id, event_type(raw)
                new = later(event_id, after)
                if kind == "match_started":
                    started = msgspec.json.decode(raw, type=MatchStarted)
                    await turns.follow(started.match_id, started.seat, told_before=not new)
                if new:
                    after = event_id
                    sent.append(b"event: %s\nid: %s\ndata: %s\n\n" % (kind.encode(), event_id.encode(), raw))
            sent += turns.frames()
            for frame in sent:
                yield frame
            if sent:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > KEEPALIVE_S:
                quiet_since = time.monotonic()
                yield sse.Events.keepalive
            if len(found) < 50:
                await turns.wait(POLL_S)
        yield sse.GOODBYE  # the gateway is stopping: the client reconnects, with Last-Event-ID

    def done() -> None:
        caps.give(counted)
        turns.close()

    return sse.Counted(frames(after), done)


class _Seen(msgspec.Struct):
    version: int
    status: str
    legal: list[Any] = []


class _Turns:
    """The player's seats in its started matches, each followed through the gateway's hub as its
    seat's stream is (services/gateway/hub.py): a ``turn`` when a view newer than the last one told
    has legal commands for the seat, ``match_finished`` once it is finished (then left)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.seats: dict[str, tuple[Listener, int]] = {}  # match id -> its listener, the version last told

    async def follow(self, match_id: str, seat: int, told_before: bool) -> None:
        """Follow the seat; one whose start the client heard before (a stream resumed) is left at
        once if it has finished: its end was told then, or the client has long moved on."""
        if match_id in self.seats:
            return
        self.seats[match_id] = (await self.hub.attach(match_id, seat, -1), -1)
        raw = self.seats[match_id][0].raw
        if told_before and raw and _seen.decode(raw).status == "finished":
            self._leave(match_id)

    async def wait(self, timeout_s: float) -> None:
        """Until a followed seat is offered a view (the hub wakes its listener), or ``timeout_s``."""
        waits = [asyncio.ensure_future(listener.wake.wait()) for listener, _ in self.seats.values()]
        if not waits:
            await asyncio.sleep(timeout_s)
            return
        try:
            await asyncio.wait(waits, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()

    def frames(self) -> list[bytes]:
        found = []
        for match_id, (listener, told) in list(self.seats.items()):
            listener.wake.clear()  # before its state is read: an offer after this wakes ``wait`` again
            if listener.lost:
                self._leave(match_id)
                continue
            if listener.version <= told or not listener.raw:
                continue
            seen = _seen.decode(listener.raw)
            self.seats[match_id] = (listener, seen.version)
            assert listener.seat is not None
            if seen.status == "finished":
                self._leave(match_id)
                found.append(_frame(MatchFinished(match_id, listener.seat, seen.version, msgspec.Raw(listener.raw))))
            elif seen.legal:
                found.append(_frame(Turn(match_id, listener.seat, seen.version, msgspec.Raw(listener.raw))))
        return found

    def _leave(self, match_id: str) -> None:
        listener, _ = self.seats.pop(match_id)
        self.hub.detach(match_id, listener)

    def close(self) -> None:
        for match_id in list(self.seats):
            self._leave(match_id)


_seen = msgspec.json.Decoder(_Seen)


def _frame(event: Turn | MatchFinished) -> bytes:
    kind = "turn" if isinstance(event, Turn) else "match_finished"
    return b"event: %s\ndata: %s\n\n" % (kind.encode(), encode(event))


ROUTES = [
    Route("/v1/bots", list_bots),
    Route("/v1/challenges", create_challenge, methods=["POST"]),
    Route("/v1/challenges/{challenge_id}", get_challenge),
    Route("/v1/challenges/{challenge_id}/accept", _answer("accept"), methods=["POST"]),
    Route("/v1/challenges/{challenge_id}/decline", _answer("decline"), methods=["POST"]),
    Route("/v1/challenges/{challenge_id}/cancel", _answer("cancel"), methods=["POST"]),
    Route("/v1/events", player_events),
]
