"""The one path of a command sent by a client, whatever carried it (POST /commands, a WebSocket
message): the caller's seat, its rates, its Idempotency-Key, the command decoded, submitted, and
the answer as POST /commands gives it (the WebSocket frames the same status and body)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from projections.i18n import N_, texts
from services.commands.folds import MatchLost
from services.commands.handling import BadCommand, decode_command
from services.commands.matches import Match
from services.commands.outcomes import Accepted, Ended, Stale
from services.gateway import access, answers, asgi, language, outage
from services.gateway.access import ApiError
from services.gateway.rate_limit import address_of, refusal
from services.gateway.schemas import error
from services.ops import logs
from services.runtime import Runtime
from services.store.bucket import RateLimited
from services.store.outage import redis_error

log = logs.get("tavern.gateway")
IDEMPOTENCY_KEY = re.compile(r"[!-~]{1,200}")
Header = tuple[bytes, bytes]
Caller = Callable[[], Awaitable[tuple[Match, int | None]]]  # the match and the caller's seat, or ApiError


@dataclass(frozen=True, slots=True)
class Sent:
    """A command as its transport received it."""

    body: bytes
    idempotency_key: str | None
    key_name: str  # what the transport calls the key, for the message refusing a malformed one
    exact: bool = False  # every stale expected_version is a 409 (POST's Prefer: handling=strict)


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: bytes
    headers: tuple[Header, ...] = ()


async def take(scope: asgi.Scope, authorization: str, caller: Caller, sent: Sent) -> Reply:
    """The answer to ``sent``; never raises."""
    try:
        return await _take(scope, authorization, caller, sent)
    except ApiError as problem:  # with its headers (a 429's Retry-After)
        lang = language.of_scope(scope)
        said = error(problem.code, problem.said(texts(lang)))
        return Reply(problem.status, said, (*asgi.refusal_headers(problem), (b"content-language", lang.encode())))
    except outage.REDIS_DOWN as problem:
        redis_error("command", problem)
        outage.logged(problem)
        return Reply(503, outage.BODY, (outage.RETRY_AFTER,))
    except MatchLost as lost:
        gone = access.gone(lost)
        return Reply(gone.status, error(gone.code, gone.message))
    except Exception as problem:
        redis_error("command", problem)
        log.exception("command_failed", match_id=scope.get("path_params", {}).get("match_id"))
        return Reply(500, error("internal", "the server failed; the command may or may not have been taken"))


async def _take(scope: asgi.Scope, authorization: str, caller: Caller, sent: Sent) -> Reply:
    app = scope["app"]
    runtime: Runtime = app.state.runtime
    match, seat = await caller()
    if seat is None:
        raise ApiError(403, "spectator", "a spectator token cannot send commands")
    limit = app.state.rate.commands(address_of(scope), authorization, match.id)
    key = sent.idempotency_key
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(400, "bad_idempotency_key", "{header} is 1 to 200 printable ASCII characters",
                       header=sent.key_name)
    try:
        command, expected = decode_command(match, sent.body, runtime.settings.limits.json_depth)
    except BadCommand as problem:
        runtime.metrics.command(match.game.id, "undecodable", "bad_request", "bad_command")
        raise ApiError(400, "bad_command", str(problem)) from problem
    try:
        outcome = await runtime.handler.submit(match, seat, command, expected, key, exact=sent.exact, limit=limit)
    except RateLimited as limited:  # the token's bucket shared by every gateway, found empty by the append
        raise refusal(limited.wait_ms, N_("commands")) from None
    # ended as Redis says, but neither in Redis nor archived: lost (a restart), not ended
    lost = isinstance(outcome, Ended) and not await runtime.store.holds(match.id)
    if lost and not (await runtime.history.current(match)).archived:
        raise MatchLost(match.id)
    if isinstance(outcome, Accepted):
        return Reply(*answers.of(outcome))
    # a refusal, said in the seat's player's language (else the request's)
    lang = language.of_scope(scope, await runtime.players.language(match.players.get(seat)))
    view = None
    if isinstance(outcome, Stale):  # with the view it names: the client chooses again without a round
        view = await app.state.stale_views.at(runtime, app.state.hub, match, seat, outcome.version)
    return Reply(*answers.of(outcome, texts(lang), view), ((b"content-language", lang.encode()),))
