"""The API's own messages (API.md) as msgspec Structs: decoded strictly, answered, and the OpenAPI source."""

from __future__ import annotations

from typing import Any

import msgspec


class Strict(msgspec.Struct, forbid_unknown_fields=True):
    pass


class CreateMatch(Strict):
    game: str
    seats: int
    options: dict[str, Any] = {}
    bots: list[int] = []
    bot: str | None = None  # an addition to API.md: which bot plays the bot seats (default greedy if any)
    seat_entropy: bool = False  # an addition: the opening waits for each played seat's entropy (docs/AUDIT.md)
    # online play (docs/online-play.md): seats left for registered players to join (created with a
    # player token), and whether the match is unlisted and joined by its invite code instead
    open: list[int] = []
    private: bool = False
    clock: dict[str, Any] | None = None  # {"per_move_s": 60, "bank_s": 300, "limit": 3, "forfeit": false}


class SeatToken(msgspec.Struct):
    seat: int
    token: str


class MatchCreated(msgspec.Struct, omit_defaults=True):
    match_id: str
    seats: list[SeatToken]  # the seats' tokens, but not those of open seats
    spectator_token: str
    seed_commitment: str
    invite: str | None = None  # a private match's invite code


class ErrorDetail(msgspec.Struct):
    code: str
    message: str


class ErrorBody(msgspec.Struct, omit_defaults=True):
    error: ErrorDetail
    version: int | None = None  # on a 409: the current version
    # on a 409 stale_version, when the gateway holds it: the seat's ViewEnvelope at ``version``, as
    # its stream will send it (the client chooses again at once, without waiting for the stream);
    # typed in the OpenAPI document as its game's (services/gateway/openapi.py)
    view: msgspec.Raw | None = None


class Accepted(msgspec.Struct, omit_defaults=True):
    version: int
    events: list[Any]  # the appended events as this seat may see them
    # tavern-receipt/1 of entry ``version`` (docs/AUDIT.md, section 4): keep it, and `tavern audit
    # --receipt VERSION:RECEIPT` refuses an export cut short or rewritten past it; absent only on the
    # replay of an answer kept (Idempotency-Key) by a gateway from before receipts
    receipt: str | None = None


class OptionInfo(msgspec.Struct):
    """A match option: the values it takes, its default and what it does."""

    name: str
    choices: list[str | int | bool]
    default: str | int | bool
    description: str


class GameInfo(msgspec.Struct):
    id: str
    name: str
    min_seats: int
    max_seats: int
    options: list[OptionInfo]
    bots: list[str]
    # JSON Schemas (2020-12, each with its own $defs) of its commands, events, view and view envelope,
    # the same as /openapi.json's "<game id>.Command", ".Event", ".View", ".ViewEnvelope"
    schemas: dict[str, Any]
    rules_version: int  # the game's rules version: the schemas are this version's


class Health(msgspec.Struct):
    status: str


def error(code: str, message: str, version: int | None = None, view: bytes | None = None) -> bytes:
    shown = None if view is None else msgspec.Raw(view)
    return msgspec.json.encode(ErrorBody(ErrorDetail(code, message), version, shown))
