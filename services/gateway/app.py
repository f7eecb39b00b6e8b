"""The Starlette gateway: every endpoint of API.md, plus /healthz, /livez, /readyz, /metrics and /openapi.json."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import AsyncIterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from domain.games import game_ids, get_game
from domain.kernel import RulesError, undo
from projections import feed
from projections.chain import export_lines
from projections.content import schema as content_schema
from projections.i18n import DEFAULT, texts
from projections.receipts import HEAD_FORMAT, SIGNING_KEY_PATH, SigningKey, public_hex
from projections.replay import frames
from projections.upcasting import event_decoder
from projections.views import all_views, field
from services.commands import entropy, strict
from services.commands.folds import MatchLost
from services.commands.matches import Match
from services.commands.refused import Refused
from services.gateway import (
    access,
    answers,
    asgi,
    contract,
    creators,
    health,
    intake,
    language,
    notify,
    online,
    openapi,
    outage,
    reads,
)
from services.gateway.access import ApiError
from services.gateway.asgi import Endpoint, match_in
from services.gateway.asyncapi import PATH as ASYNCAPI
from services.gateway.asyncapi import document as streams_document
from services.gateway.bots import ROUTES as BOT_ROUTES
from services.gateway.chat import ROUTES as CHAT_ROUTES
from services.gateway.command_endpoint import LEAF as COMMANDS
from services.gateway.command_endpoint import post_command
from services.gateway.content_endpoint import get_content
from services.gateway.cors import Cors, methods
from services.gateway.endpoints import JSON, int_query, json_body, json_response, runtime_of
from services.gateway.hub import PRESENCE_S, Hub
from services.gateway.inbox import ROUTES as INBOX_ROUTES
from services.gateway.matchmaking import ROUTES as MATCHMAKING_ROUTES
from services.gateway.presence import overlay
from services.gateway.rate_limit import RateLimiter, address_of
from services.gateway.schemas import CreateMatch, GameInfo, MatchCreated, OptionInfo, SeatToken, error
from services.gateway.stale_view import StaleViews
from services.gateway.stream_caps import StreamCaps
from services.gateway.stream_endpoint import LEAF as STREAM
from services.gateway.stream_endpoint import get_stream
from services.gateway.tournaments import ROUTES as TOURNAMENT_ROUTES
from services.gateway.traffic import Routes, counting
from services.gateway.ws_endpoint import ws_endpoint
from services.ops import logs
from services.ops.limits import Limits
from services.ops.metrics import CONTENT_TYPE, CREATED, Metrics
from services.ops.settings import Settings
from services.runtime import Runtime

log = logs.get("tavern.gateway")


async def authorize(request: Request) -> tuple[Match, int | None]:
    """The match and the caller's seat (None for the spectator), or the API's 404/401/403."""
    authorization = request.headers.get("authorization", "")
    return await access.authorize(runtime_of(request), request.path_params["match_id"], authorization)


@functools.cache  # its JSON schemas cost ~10 ms a game to build, and never change
def game_info(game_id: str, lang: str = DEFAULT) -> GameInfo:
    """The game's name and its options' descriptions in ``lang`` (docs/i18n.md)."""
    game, said = get_game(game_id), texts(lang)
    options = [OptionInfo(o.name, list(o.choices), o.default, said._(o.description) if o.description else "")
               for o in game.options]
    bots = ["random", *game.bots]
    schemas = {**contract.game_schemas(game.id), "content": content_schema()}
    return GameInfo(game.id, said._(game.name), game.min_seats, game.max_seats, options, bots, schemas,
                    game.rules_version)


async def list_games(request: Request) -> Response:
    lang = language.choose(request.query_params, request.headers.get("accept-language"),
                           await online.player_setting(request))
    return texts_response([game_info(game_id, lang) for game_id in game_ids()], lang)


async def create_match(request: Request) -> Response:
    runtime = runtime_of(request)
    limits = runtime.settings.limits
    creator, address = creators.identify(request.headers.get("x-api-key"), limits), address_of(request.scope)
    await request.app.state.rate.creates(address, creator, request.headers.get("authorization"))
    asked = await json_body(request, CreateMatch)
    host = await online.caller(request, required=False)
    creators.require(creator, host.id if host else None, limits)
    if host is not None and host.bot and asked.open:  # docs/bots.md: a bot hosts no lobby match
        raise ApiError(403, "bot_lobby", "a bot account plays through challenges, not the lobby")
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
        raise access.by_rule(400 if refusal.code == "unknown_game" else 422, refusal) from refusal
    except Refused as refusal:  # past a quota of open matches
        raise answers.refused(refusal) from refusal
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
        undoer = undo.undoer(match.game, folded.state, folded.last_move)
        raw = all_views(match.game, match.id, folded.state, folded.version, match.setup.seats, players,
                        undoer)[field(seat)]
    return raw


async def get_view(request: Request) -> Response:
    match, seat = await authorize(request)
    raw = await current_view(runtime_of(request), match, seat)
    hub: Hub = request.app.state.hub
    connected = hub.present.get(match.id)  # kept while this gateway streams the match
    if connected is None and hub.presence is not None:
        connected = await hub.presence.read(match.id)  # else as its hash says now
    return Response(overlay(raw, connected or frozenset()), media_type=JSON)


async def match_language(request: Request, match: Match, seat: int | None) -> str:
    """The language of the texts for this caller: the setting of the player holding its seat wins over
    its Accept-Language (language.py)."""
    player = match.players.get(seat) if seat is not None else None
    setting = await runtime_of(request).players.language(player)
    return language.choose(request.query_params, request.headers.get("accept-language"), setting)


def texts_response(value: Any, lang: str) -> Response:
    """An answer with texts in ``lang``: it says so, and that the language was negotiated."""
    response = json_response(value)
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = language.VARY_WITH_TOKEN
    return response


async def log_so_far(request: Request) -> tuple[Match, int | None, Any, list, bool]:
    """The match, caller's seat, fold, records and whether the match is over (all is revealed)."""
    match, seat = await authorize(request)
    runtime = runtime_of(request)
    match = await runtime.history.current(match)
    folded = await runtime.history.load(match)
    records = await runtime.history.read(match, 0, folded.version)
    return match, seat, folded, records, match.game.result(folded.state) is not None


async def events(request: Request) -> Response:
    after = max(0, int_query(request, "after", 0, -strict.MAX_VERSION, strict.MAX_VERSION))
    match, seat = await authorize(request)
    runtime = runtime_of(request)
    match = await runtime.history.current(match)
    # from a little earlier: whether a command has an entry hidden from the seat shows in its first ones
    records = await runtime.history.read(match, max(0, after - feed.LOOKBACK))
    decode = event_decoder(match.game, match.rules_version)
    entries = [(record.envelope, decode(record.envelope.event)) for record in records]
    if not feed.starts_a_command(entries, after):  # a command longer than the look-back: read it whole
        records = await runtime.history.read(match, 0)
        entries = [(record.envelope, decode(record.envelope.event)) for record in records]
    finished = match.game.result((await runtime.history.load(match)).state) is not None

    def hashes(n: int) -> dict[str, Any]:
        return {"prev": records[n].envelope.prev, "hash": records[n].hash}

    lang = await match_language(request, match, seat)
    names = await runtime.seating.names(match)
    return texts_response(feed.items(match.game, entries, seat, after, finished, hashes, lang, names), lang)


async def replay(request: Request) -> Response:
    match, seat, _, records, finished = await log_so_far(request)
    viewer = int_query(request, "seat", seat, -strict.MAX_VERSION, strict.MAX_VERSION) if finished else None
    if viewer is not None and not 0 <= viewer < match.setup.seats:
        raise ApiError(400, "bad_query", "no such seat")
    decode = event_decoder(match.game, match.rules_version)
    events = [decode(record.envelope.event) for record in records]
    lang = await match_language(request, match, seat)
    names = await runtime_of(request).seating.names(match)
    return texts_response(list(frames(match.game, match.setup, events, viewer, finished, lang, names)), lang)


async def export(request: Request) -> Response:
    match, _, _, records, finished = await log_so_far(request)
    if not finished:
        raise ApiError(409, "match_running", "a match is exported once it is finished (the seed is revealed then)")
    if match.archived:  # the archive holds the very bytes this would build
        body = await runtime_of(request).history.archived_export(match)
    else:
        bodies = [(record.body, record.hash) for record in records]
        body = export_lines(match.charter, match.seed, bodies, runtime_of(request).signer)
    return Response(body, media_type="application/x-ndjson")


async def give_entropy(request: Request) -> Response:
    match, seat = await authorize(request)
    runtime = runtime_of(request)
    try:
        body, depth = await request.body(), runtime.settings.limits.json_depth
        given = await entropy.contribute(runtime.matches, runtime.folds, match, seat, body, depth)
    except Refused as refusal:
        raise answers.refused(refusal) from refusal
    if given.opened:
        await runtime.appended(match.id)
    return json_response(given)


async def signing_key(request: Request) -> Response:
    """The public half of the key that signs finished matches' exports (docs/AUDIT.md, section 4)."""
    return json_response(SigningKey("Ed25519", public_hex(runtime_of(request).signer), HEAD_FORMAT))


async def metrics(request: Request) -> Response:
    return Response(runtime_of(request).metrics.text(), headers={"Content-Type": CONTENT_TYPE})


async def openapi_json(request: Request) -> Response:
    return Response(request.app.state.openapi, media_type=JSON)


async def asyncapi_json(request: Request) -> Response:
    return Response(request.app.state.asyncapi, media_type=JSON)


class Floor(msgspec.Struct, forbid_unknown_fields=True):
    type: str
    card: str = ""
    expected_version: int | None = None


_floor = msgspec.json.Decoder(Floor)


async def bench_floor(request: Request) -> Response:
    """The floor of any event-sourced write over HTTP (decode one command, one XADD): the
    benchmark's yardstick, served only with TAVERN_BENCH=1."""
    command = _floor.decode(await request.body())
    return json_response({"id": await runtime_of(request).bench_floor.add(command.type)})


async def api_error(request: Request, problem: Exception) -> Response:
    if isinstance(problem, MatchLost):
        problem = access.gone(problem)
    assert isinstance(problem, ApiError)
    lang = language.choose(request.query_params, request.headers.get("accept-language"), strict=False)
    headers = {"content-language": lang, "vary": language.VARY}
    if problem.retry_after_s is not None:
        headers["retry-after"] = str(problem.retry_after_s)
    return Response(error(problem.code, problem.said(texts(lang))), problem.status, headers, media_type=JSON)


WEB_METHODS = "GET, HEAD"  # what the web client's files take (StaticFiles' 405 does not say)


async def http_error(request: Request, problem: Exception) -> Response:
    """Starlette's own refusals, a path no route has (404) or a method its route does not take
    (405, with Allow), as the API's JSON error: the code is the status's name (not_found...)."""
    assert isinstance(problem, HTTPException)
    status = HTTPStatus(problem.status_code)
    headers = dict(problem.headers or {})
    found = request.app.labels.matching(request.scope)
    if found is not None and status == HTTPStatus.NOT_FOUND:  # the web client's mount took a route's path
        status, headers["Allow"] = HTTPStatus.METHOD_NOT_ALLOWED, ", ".join(sorted(found[0].methods or ()))
    if status == HTTPStatus.METHOD_NOT_ALLOWED:
        headers.setdefault("Allow", WEB_METHODS)
        message = f"{request.method} is not allowed here; allowed: {headers['Allow']}"
    elif status == HTTPStatus.NOT_FOUND:
        message = f"no such route or file: {request.url.path}"
    else:
        message = problem.detail
    code = status.phrase.lower().replace(" ", "_").replace("-", "_")
    return Response(error(code, message), status, headers, media_type=JSON)


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
    *INBOX_ROUTES,
    *online.ROUTES,
    *notify.ROUTES,
    *BOT_ROUTES,
    *CHAT_ROUTES,
    *MATCHMAKING_ROUTES,
    *TOURNAMENT_ROUTES,
    Route("/healthz", health.healthz),
    Route("/livez", health.livez),
    Route("/readyz", health.readyz),
    Route("/metrics", metrics),
    Route(SIGNING_KEY_PATH, signing_key),
    Route("/openapi.json", openapi_json),
    Route(ASYNCAPI, asyncapi_json),
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
            except MatchLost:  # noticed for a stream: whoever asks next hears 410 once
                runtime.matches.lost(match_id)
                return None

        limits = settings.limits
        hub = Hub(runtime.notices, current, runtime.metrics, send_timeout_s=limits.stream_send_timeout_s,
                  retry_ms=limits.stream_retry_ms, seen=runtime.presence(PRESENCE_S))
        app.state.runtime, app.state.hub = runtime, hub
        app.state.rate = RateLimiter(runtime.rate_limits, limits)
        app.state.stale_views = StaleViews()
        app.state.stream_caps = StreamCaps(limits)
        published = openapi.document()
        app.state.openapi = msgspec.json.encode(published)
        app.state.asyncapi = msgspec.json.encode(streams_document(published))  # its payloads are published's
        await runtime.start()
        await hub.start(settings.start_s)  # a gateway that cannot subscribe does not start
        thread_worker = None
        if run_worker:
            thread_worker = runtime.start_thread_worker()
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

    handlers: dict[Any, Any] = {ApiError: api_error, MatchLost: api_error, HTTPException: http_error}
    handlers.update(dict.fromkeys(outage.REDIS_DOWN, outage.handler))
    gateway = Gateway(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    gateway.metrics = runtime.metrics
    gateway.limits = settings.limits
    gateway.labels = Routes(routes)
    cors = Cors(gateway.dispatch, settings.cors_origins, methods(routes)) if settings.cors_origins else None
    gateway.entry = cors or gateway.dispatch
    return gateway


WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BARE = {("POST", COMMANDS): post_command, ("GET", STREAM): get_stream}


class Gateway(Starlette):
    """Starlette, but the requests of every move go straight to their bare endpoints (asgi.py),
    with the scope Starlette's router would have given them. Every request is held to its limits
    first (intake.py): its headers, and its body read whole; a read, to the reads' rates (reads.py)."""

    limits = Limits()

    metrics: Metrics
    labels: Routes
    entry: Any  # dispatch, behind CORS when origins are allowed (cors.py)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.entry(scope, receive, send)

    async def dispatch(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        try:
            intake.check_headers(scope, self.limits)
            if scope["method"] in WITH_BODY:
                receive = intake.replay(await intake.read_body(scope, receive, self.limits), receive)
        except ApiError as problem:
            await intake.refuse_and_close(send, problem, scope)
            return
        path, method = scope["path"], scope["method"]
        leaf = path.rpartition("/")[2]
        match_id = match_in(path, leaf)
        handle = BARE.get((method, leaf))
        if handle is post_command and match_id is not None:  # counts its own requests
            scope["app"], scope["path_params"] = self, {"match_id": match_id}
            return await handle(scope, receive, send)
        counted = counting(self.metrics, self.labels.of(scope, leaf, match_id), method, send)
        if reads.counted(method, path):
            try:
                authorization = asgi.header(scope, b"authorization")
                await self.state.rate.reads(address_of(scope), authorization, reads.heavy(scope, leaf, match_id))
            except ApiError as problem:
                return await asgi.refuse(counted, problem, scope=scope)
            except outage.REDIS_DOWN as problem:
                return await outage.answer(counted, problem)
        if handle is not None and match_id is not None:
            scope["app"], scope["path_params"] = self, {"match_id": match_id}
            return await handle(scope, receive, counted)
        await super().__call__(scope, receive, counted)
