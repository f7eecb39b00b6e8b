"""Seat entropy (docs/AUDIT.md): a match created with ``"seat_entropy": true`` deals nothing until
every played seat has sent ``POST /v1/matches/{id}/entropy {"entropy": "..."}``. The server's seed
was committed before any contribution, so it cannot steer the deal; no seat knows the seed, so no
seat can either. The contributions are written on the opening entries, where the auditor finds them."""

from __future__ import annotations

import msgspec

from services.commands import strict
from services.commands.folds import Folds
from services.commands.matches import Match, Matches
from services.commands.refused import Refused
from services.ops.limits import JSON_DEPTH


class Contribution(msgspec.Struct, forbid_unknown_fields=True):
    entropy: str


class Contributed(msgspec.Struct):
    seat: int
    waiting_for: list[int]  # the seats whose entropy is still missing
    opened: bool  # True once the opening deal is in the log


async def contribute(
    matches: Matches, folds: Folds, match: Match, seat: int | None, body: bytes, depth: int = JSON_DEPTH
) -> Contributed:
    """Keep one seat's contribution; the last one missing opens the match (the caller then has its
    views projected). Refused otherwise."""
    if seat is None:
        raise Refused("forbidden", "spectator", "a spectator has no entropy to give")
    try:
        given = strict.decode(body, Contribution, depth)
    except strict.Malformed as problem:
        raise Refused("invalid", "bad_request", str(problem)) from problem
    if not 1 <= len(given.entropy) <= 256:
        raise Refused("invalid", "bad_request", "entropy is 1 to 256 characters")
    if seat not in match.entropy_seats:
        raise Refused("unprocessable", "entropy_not_expected", "this match does not wait for this seat's entropy")
    if (await folds.load(match)).version > 0:
        raise Refused("unprocessable", "match_started", "the opening deal is done: entropy is taken before it only")
    if not await matches.entropy.give(match.id, seat, given.entropy):
        raise Refused("unprocessable", "entropy_already_given", "this seat has sent its entropy")
    entropy = await matches.entropy.given(match.id)
    missing = [other for other in match.entropy_seats if str(other) not in entropy]
    if not missing:
        await matches.open(match, entropy)  # False when a concurrent last contribution won
    return Contributed(seat, missing, not missing)
