"""Who is calling: the match a path names and the seat its bearer token holds, or the API's error."""

from __future__ import annotations

from services.commands import tokens
from services.commands.folds import MatchLost
from services.commands.matches import Match
from services.runtime import Runtime


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.retry_after_s = retry_after_s  # sent as Retry-After (a 429, a 503)


def gone(lost: MatchLost) -> ApiError:
    return ApiError(410, "match_lost", "the store no longer holds this match (it was lost, e.g. in a restart)")


async def authorize(runtime: Runtime, match_id: str, authorization: str) -> tuple[Match, int | None]:
    """The match and the caller's seat (None for the spectator), or the API's 404/401/403."""
    match = await runtime.matches.get(match_id)
    if match is None:
        raise ApiError(404, "no_such_match", "no such match")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "no_token", "send Authorization: Bearer <seat or spectator token>")
    holder = match.holder(token.strip())
    if holder is None:
        raise ApiError(403, "wrong_token", "this token is not one of this match's")
    return match, None if holder == tokens.SPECTATOR else int(holder)
