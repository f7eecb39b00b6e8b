"""The API's messages as typed msgspec Structs, their fields those of /openapi.json's components
(the repository's tests/clients/test_python.py holds them to it). What depends on the game (a
view, a command, an event) stays a dict: the game's schemas are in GET /v1/games."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

JSON = dict[str, Any]


class SeatToken(msgspec.Struct, frozen=True):
    seat: int
    token: str


class MatchCreated(msgspec.Struct, frozen=True):
    match_id: str
    seats: list[SeatToken]
    spectator_token: str
    seed_commitment: str
    invite: str | None = None

    def token(self, seat: int) -> str:
        return next(given.token for given in self.seats if given.seat == seat)


class ErrorDetail(msgspec.Struct, frozen=True):
    code: str
    message: str


class ErrorBody(msgspec.Struct, frozen=True):
    error: ErrorDetail
    version: int | None = None
    view: ViewEnvelope | None = None  # a 409 stale_version's: the seat's view at ``version``, if given


class TablePlayer(msgspec.Struct, frozen=True):
    seat: int
    name: str | None
    bot: bool
    connected: bool
    clock: JSON | None = None
    taken: str | None = None  # why a bot plays a person's seat: "left", "timeouts", "conceded"
    player_id: str | None = None  # the registered player's (GET /v1/players/{id}/profile); None for an anonymous seat


class ScoreLine(msgspec.Struct, frozen=True):
    """One scoring category of a finished match (named in the game's content ``scoring``): points per seat."""

    category: str
    points: list[int]


class ViewEnvelope(msgspec.Struct, frozen=True):
    """A seat's (or the spectator's) view of a match: ``<game>.ViewEnvelope``."""

    match_id: str
    game: str
    version: int
    seat: int | None
    status: Literal["waiting", "active", "finished"]
    view: JSON
    legal: list[JSON]
    result: JSON | None
    breakdown: list[ScoreLine] | None = None  # once finished: the scores by category, adding up to each score
    undo: bool = False  # this seat may send {"type": "Undo"}: take back its last move
    players: list[TablePlayer] = []

    @property
    def finished(self) -> bool:
        return self.status == "finished"


class Accepted(msgspec.Struct, frozen=True):
    """A command's 200: ``<game>.Accepted``."""

    version: int
    events: list[JSON]
    receipt: str | None = None


class PresenceFrame(msgspec.Struct, frozen=True):
    """Who has an open stream now."""

    match_id: str
    version: int
    players: list[TablePlayer]


class WsAnswerFrame(msgspec.Struct, frozen=True, tag_field="kind", tag="answer"):
    """The answer to a command sent on the socket: what POST .../commands would answer."""

    id: str | int | None
    status: int
    body: JSON

    def accepted(self) -> Accepted | None:
        return msgspec.convert(self.body, Accepted) if self.status == 200 else None


class WsViewFrame(msgspec.Struct, frozen=True, tag_field="kind", tag="view"):
    view: ViewEnvelope


class WsPresenceFrame(msgspec.Struct, frozen=True, tag_field="kind", tag="presence"):
    presence: PresenceFrame


WsServerFrame = WsViewFrame | WsPresenceFrame | WsAnswerFrame


class PlayerCreated(msgspec.Struct, frozen=True):
    player_id: str
    name: str
    token: str
    language: str  # the language chosen for the player's texts ("": each request's Accept-Language)
    bot: bool = False  # a bot account (docs/bots.md)


class Joined(msgspec.Struct, frozen=True):
    match_id: str
    seat: int
    token: str
    started: bool


class Started(msgspec.Struct, frozen=True):
    match_id: str
    bots: list[int]
