"""Who is calling: the match a path names and the seat its bearer token holds, or the API's error."""

from __future__ import annotations

from domain.kernel import RulesError
from projections.i18n import N_, Texts
from services.commands import tokens
from services.commands.folds import MatchLost
from services.commands.matches import Match
from services.runtime import Runtime


class ApiError(Exception):
    """An answer other than 2xx: its status, stable code and message. The message is a catalog id
    (projections/i18n/) with ``{name}`` placeholders filled from ``params``; ``message`` is it in
    English, ``said(texts)`` in the caller's language."""

    def __init__(
        self, status: int, code: str, message: str, retry_after_s: int | None = None, **params: object
    ) -> None:
        super().__init__(message.format(**params) if params else message)
        self.status, self.code, self.message = status, code, str(self)
        self.template, self.params = message, params
        self.retry_after_s = retry_after_s  # sent as Retry-After (a 429, a 503)

    def said(self, texts: Texts) -> str:
        return texts._(self.template, **self.params)


def by_rule(status: int, refusal: RulesError) -> ApiError:
    """The API's answer to a refusal by a rule (its code, its message to be said in the caller's language)."""
    problem = ApiError(status, refusal.code, refusal.message)
    problem.template, problem.params = refusal.template, refusal.params
    return problem


LOST = N_("the store no longer holds this match (it was lost, e.g. in a restart)")  # 410, and a stream's last word


def gone(lost: MatchLost) -> ApiError:
    return ApiError(410, "match_lost", LOST)


async def authorize(runtime: Runtime, match_id: str, authorization: str) -> tuple[Match, int | None]:
    """The match and the caller's seat (None for the spectator), or the API's 404/410/401/403."""
    match = await runtime.matches.get(match_id)
    if match is None:
        if runtime.matches.lost_once(match_id):  # known here before Redis restarted without it
            raise gone(MatchLost(match_id))
        raise ApiError(404, "no_such_match", "no such match")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "no_token", "send Authorization: Bearer <seat or spectator token>")
    holder = match.holder(token.strip())
    if holder is None:
        raise ApiError(403, "wrong_token", "this token is not one of this match's")
    return match, None if holder == tokens.SPECTATOR else int(holder)
