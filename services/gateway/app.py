"""The Starlette gateway: every endpoint of API.md, plus /healthz, /livez, /readyz, /metrics and /openapi.json."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from domain.games import game_ids, get_game
from domain.kernel import RulesError
from projections.chain import export_lines
from projections.content import schema as content_schema
from projections.narration import narrate
from projections.replay import frames
from projections.upcasting import event_decoder
from projections.views import all_views, field
from services.commands import entropy, strict
from services.commands.folds import MatchLost
from services.commands.matches import Match
from services.commands.refused import Refused
from services.commands.schemas import CreateMatch, GameInfo, MatchCreated, OptionInfo, SeatToken, error
from services.gateway import access, contract, creators, health, intake, online, openapi, outage
from services.gateway.access import ApiError
from services.gateway.asgi import Endpoint, match_in
from services.gateway.command_endpoint import LEAF as COMMANDS
from services.gateway.command_endpoint import post_command
from services.gateway.content_endpoint import get_content
from services.gateway.presence import Presence, overlay
from services.gateway.rate_limit import RateLimiter, address_of
from services.gateway.sse import PRESENCE_S, Hub
from services.gateway.stream_endpoint import LEAF as STREAM
from services.gateway.stream_endpoint import get_stream
from services.gateway.traffic import counting, route_of
from services.gateway.ws_endpoint import ws_endpoint
from services.ops import logs
from services.ops.limits import Limits
from services.ops.metrics import CONTENT_TYPE, CREATED, Metrics
from services.ops.settings import Settings
from services.projector import worker
from services.runtime import Runtime

JSON = "application/json"
log = logs.get("tavern.gateway")


def json_response(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type=JSON)


def runtime_of(request: Request) -> Runtime:
    return request.app.state.runtime


async def authorize(request: Request) -> tuple[Match, int | None]:
    """The match and the caller's seat (None for the spectator), or the API's 404/401/403."""
    authorization = request.headers.get("authorization", "")
    return await access.authorize(runtime_of(request), request.path_params["match_id"], authorization)


@functools.cache  # its JSON schemas cost ~10 ms a game to build, and never change
def game_info(game_id: str) -> GameInfo:
    game = get_game(game_id)
    options = [OptionInfo(o.name, list(o.choices), o.default, o.description) for o in game.options]
    bots = ["random", *game.bots]
    schemas = {**contract.game_schemas(game.id), "content": content_schema()}
    return GameInfo(game.id, game.name, game.min_seats, game.max_seats, options, bots, schemas, game.rules_version)


async def list_games(request: Request) -> Response:
    return json_response([game_info(game_id) for game_id in game_ids()])


async def create_match(request: Request) -> Response:
    runtime = runtime_of(request)
    limits = runtime.settings.limits
    creator, address = creators.identify(request.headers.get("x-api-key"), limits), address_of(request.scope)
    await request.app.state.rate.creates(address, creator, request.headers.get("authorization"))
    try:
        asked = strict.decode(await request.body(), CreateMatch, limits.json_depth)
    except strict.Malformed as problem:
        raise ApiError(400, "bad_request", str(problem)) from problem
    host = await online.caller(request, required=False)
    creators.require(creator, host.id if host else None, limits)
    try:
        created = await runtime.matches.create(
            asked.game,
            asked.seats,
            asked.options,
            asked.bots,
            asked.bot,
            asked.seat_entropy,
            asked.open,
            host.id if host else None,
            asked.private,
            asked.clock,
            holders=creators.holders(address, creator, host.id if host else None, limits),
        )
    except RulesError as refusal:
        raise ApiError(400 if refusal.code == "unknown_game" else 422, refusal.code, refusal.message) from refusal
    except Refused as refusal:  # past a quota of open matches
        raise ApiError(refusal.status, refusal.code, refusal.message) from refusal
    await runtime.lobby.listed(created.match)
    await runtime.appended(created.match.id)
    CREATED.labels(created.match.game.id).inc()
    log.info("match_created", match_id=created.match.id, game=created.match.game.id, seats=asked.seats, bots=asked.bots)
    seats = [SeatToken(seat, token) for seat, token in enumerate(created.seat_tokens) if token is not None]
    body = MatchCreated(created.match.id, seats, created.spectator_token, created.match.seed_commitment, created.invite)
    return json_response(body, 201)


async def current_view(runtime: Runtime, match: Match, seat: int | None) -> bytes:
    """The stored view; computed from the log if the projector has not written it yet."""
    raw = await runtime.store.view(match.id, field(seat))
    if raw is None:
        folded = await runtime.history.load(match)
        players = await runtime.seating.of(match, folded)
        raw = all_views(match.game, match.id, folded.state, folded.version, match.setup.seats, players)[field(seat)]
    return raw


async def get_view(request: Request) -> Response:
    match, seat = await authorize(request)
    raw = await current_view(runtime_of(request), match, seat)
    hub: Hub = request.app.state.hub
    connected = hub.present.get(match.id)  # kept while this gateway streams the match
    if connected is None and hub.presence is not None:
        connected = await hub.presence.read(match.id)  # else as its hash says now
    return Response(overlay(raw, connected or frozenset()), media_type=JSON)


def int_param(request: Request, name: str, default: int | None) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError as problem:
        raise ApiError(400, "bad_query", f"{name} is an integer") from problem
    if abs(value) > strict.MAX_VERSION:
        raise ApiError(400, "bad_query", f"{name} is out of range")
    return value


async def log_so_far(request: Request) -> tuple[Match, int | None, Any, list, bool]:
    """The match, caller's seat, fold, records and whether the match is over (all is revealed)."""
    match, seat = await authorize(request)
    runtime = runtime_of(request)
    match = await runtime.history.current(match)
    folded = await runtime.history.load(match)
    records = await runtime.history.read(match, 0, folded.version)
    return match, seat, folded, records, match.game.result(folded.state) is not None


async def events(request: Request) -> Response:
    after = max(0, int_param(request, "after", 0) or 0)
    match, seat = await authorize(request)
    runtime = runtime_of(request)
    match = await runtime.history.current(match)
    records = await runtime.history.read(match, after)
    finished = match.game.result((await runtime.history.load(match)).state) is not None
    decode = event_decoder(match.game, match.rules_version)
    out = []
    for record in records:
        envelope = record.envelope
        item: dict[str, Any] = {"version": envelope.version, "type": envelope.type, "time": envelope.time}
        cause = envelope.command
        item["narration"] = narrate(match.game, decode(envelope.event), seat, whole=finished)
        if finished:
            item |= {"event": envelope.event, "command": cause, "prev": envelope.prev, "hash": record.hash}
        else:
            # no hashes while running: a hash of a hidden pick could be matched by trying every card
            item["event"] = match.game.event_view(decode(envelope.event), seat)
            own = cause.seat is not None and cause.seat == seat
            item["command"] = {
                "id": cause.id,
                "seat": cause.seat,
                "idempotency_key": cause.idempotency_key if own else None,
            }
        out.append(item)
    return json_response(out)


async def replay(request: Request) -> Response:
    match, seat, _, records, finished = await log_so_far(request)
    viewer = int_param(request, "seat", seat) if finished else None
    if viewer is not None and not 0 <= viewer < match.setup.seats:
        raise ApiError(400, "bad_query", "no such seat")
    decode = event_decoder(match.game, match.rules_version)
    events = [decode(record.envelope.event) for record in records]
    return json_response(list(frames(match.game, match.setup, events, viewer, finished)))


async def export(request: Request) -> Response:
    match, _, _, records, finished = await log_so_far(request)
    if not finished:
        raise ApiError(409, "match_running", "a match is exported once it is finished (the seed is revealed then)")
    if match.archived:  # the archive holds the very bytes this would build
        body = await runtime_of(request).history.archived_export(match)
    else:
        body = export_lines(match.charter, match.seed, [(record.body, record.hash) for record in records])
    return Response(body, media_type="application/x-ndjson")


async def give_entropy(request: Request) -> Response:
    match, seat = await authorize(request)
    runtime = runtime_of(request)
    try:
        body, depth = await request.body(), runtime.settings.limits.json_depth
        given = await entropy.contribute(runtime.matches, runtime.folds, match, seat, body, depth)
    except entropy.Refused as refusal:
        raise ApiError(refusal.status, refusal.code, refusal.message) from refusal
    if given.opened:
        await runtime.appended(match.id)
    return json_response(given)


async def metrics(request: Request) -> Response:
    return Response(runtime_of(request).metrics.text(), headers={"Content-Type": CONTENT_TYPE})


async def openapi_json(request: Request) -> Response:
    return Response(request.app.state.openapi, media_type=JSON)


class Floor(msgspec.Struct, forbid_unknown_fields=True):
    type: str
    card: str = ""
    expected_version: int | None = None


_floor = msgspec.json.Decoder(Floor)


async def bench_floor(request: Request) -> Response:
    """The floor of any event-sourced write over HTTP (decode one command, one XADD): the
    benchmark's yardstick, served only with TAVERN_BENCH=1."""
    command = _floor.decode(await request.body())
    entry = await runtime_of(request).events.xadd("bench:{floor}", {"b": command.type}, maxlen=1000, approximate=True)
    return json_response({"id": entry.decode()})


async def api_error(request: Request, problem: Exception) -> Response:
    if isinstance(problem, MatchLost):
        problem = access.gone(problem)
    assert isinstance(problem, ApiError)
    headers = {"retry-after": str(problem.retry_after_s)} if problem.retry_after_s is not None else None
    return Response(error(problem.code, problem.message), problem.status, headers, media_type=JSON)


ROUTES = [
    Route("/v1/games", list_games),
    Route("/v1/games/{game_id}/content", get_content),
    Route("/v1/matches", create_match, methods=["POST"]),
    Route("/v1/matches/{match_id}/commands", Endpoint(post_command), methods=["POST"]),
    Route("/v1/matches/{match_id}/view", get_view),
    Route("/v1/matches/{match_id}/stream", Endpoint(get_stream), methods=["GET"]),
    Route("/v1/matches/{match_id}/events", events),
    Route("/v1/matches/{match_id}/replay", replay),
    Route("/v1/matches/{match_id}/export", export),
    Route("/v1/matches/{match_id}/entropy", give_entropy, methods=["POST"]),
    *online.ROUTES,
    Route("/healthz", health.healthz),
    Route("/livez", health.livez),
    Route("/readyz", health.readyz),
    Route("/metrics", metrics),
    Route("/openapi.json", openapi_json),
    WebSocketRoute("/v1/matches/{match_id}/ws", ws_endpoint),
]
# the web client, mounted at "/" after every other route: a mount there answers every path it reaches
WEB = Mount("/", StaticFiles(directory=Path(__file__).parent / "web", html=True), name="web")


def create_app(settings: Settings, runtime: Runtime | None = None, embedded_worker: bool | None = None) -> Starlette:
    """The gateway; with an embedded Redis (or ``embedded_worker``) an RQ worker runs in a thread."""
    runtime = runtime or Runtime(settings)
    run_worker = settings.embedded if embedded_worker is None else embedded_worker
    routes = list(ROUTES)
    if os.environ.get("TAVERN_BENCH") == "1":
        routes.append(Route("/bench/floor", bench_floor, methods=["POST"]))
    routes.append(WEB)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def current(match_id: str, seat: int | None) -> bytes | None:
            match = await runtime.matches.get(match_id)
            try:
                return None if match is None else await current_view(runtime, match, seat)
            except MatchLost:
                return None

        limits = settings.limits
        seen = Presence(runtime.events, runtime.links[0], runtime.notices, secrets.token_hex(6), PRESENCE_S)
        hub = Hub(runtime.events, current, runtime.metrics, send_timeout_s=limits.stream_send_timeout_s,
                  retry_ms=limits.stream_retry_ms, notices=runtime.notices, seen=seen)
        app.state.runtime, app.state.hub = runtime, hub
        # global keys: beside the queue, not on a cluster; through the queue's own link
        app.state.rate = RateLimiter(runtime.queue_async, limits, runtime.queue_link)
        app.state.openapi = msgspec.json.encode(openapi.document())
        await runtime.start()
        await hub.start(settings.start_s)  # a gateway that cannot subscribe does not start
        thread_worker = None
        if run_worker:
            worker.install(runtime)
            thread_worker = worker.start_thread_worker(runtime)
            runtime.start_archiving()
        try:
            yield
        finally:
            if thread_worker is not None:
                thread_worker.stop()
                # let its job end while the loop still runs: a job that posted a drain to a loop
                # being shut down raced the loop's own cancelling of its tasks
                await asyncio.to_thread(thread_worker.thread.join, 5)
            await hub.stop()
            await runtime.stop()

    handlers = {ApiError: api_error, MatchLost: api_error, **dict.fromkeys(outage.REDIS_DOWN, outage.handler)}
    gateway = Gateway(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    gateway.metrics = runtime.metrics
    gateway.limits = settings.limits
    return gateway


WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BARE = {("POST", COMMANDS): post_command, ("GET", STREAM): get_stream}


class Gateway(Starlette):
    """Starlette, but the requests of every move go straight to their bare endpoints (asgi.py),
    with the scope Starlette's router would have given them. Every request is held to its limits
    first (intake.py): its headers, and its body read whole."""

    limits = Limits()

    metrics: Metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        try:
            intake.check_headers(scope, self.limits)
            if scope["method"] in WITH_BODY:
                receive = intake.replay(await intake.read_body(scope, receive, self.limits), receive)
        except ApiError as problem:
            await intake.refuse_and_close(send, problem)
            return
        path, method = scope["path"], scope["method"]
        leaf = path.rpartition("/")[2]
        match_id = match_in(path, leaf)
        handle = BARE.get((method, leaf))
        if handle is post_command and match_id is not None:  # counts its own requests
            scope["app"], scope["path_params"] = self, {"match_id": match_id}
            return await handle(scope, receive, send)
        counted = counting(self.metrics, route_of(path, leaf, match_id), method, send)
        if handle is not None and match_id is not None:
            scope["app"], scope["path_params"] = self, {"match_id": match_id}
            return await handle(scope, receive, counted)
        await super().__call__(scope, receive, counted)
