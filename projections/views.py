"""The view envelopes of API.md: what each seat (and a spectator) sees of a state, with its legal
commands and the result. Pure: the worker writes these, the gateway serves them as they are."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Command, Game, Result, ScoreLines, Seat, viewers
from domain.kernel.online import bot_seats

SPECTATOR_FIELD = "spectator"


class TablePlayer(msgspec.Struct, frozen=True):
    """Who sits at a seat, as every seat may see it (docs/online-play.md)."""

    seat: Seat
    name: str | None  # a registered player's name; None for an anonymous seat
    bot: bool  # played by a bot: from the start, or since it left, conceded or timed out too often
    connected: bool  # has an open stream: set by the gateway as it sends the envelope (false as stored)
    clock: Any = None  # {"deadline": unix seconds | None, "bank_s": seconds} in a match with a clock
    taken: str | None = None  # a person's seat a bot plays: why ("left", "timeouts", "conceded")
    player_id: str | None = None  # the registered player's (its profile); None for an anonymous seat


class ViewEnvelope(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    version: int
    seat: Seat | None
    status: str  # "waiting" | "active" | "finished"
    view: Any
    legal: list[Command]
    result: Result | None
    # the finished match's scores by category (Game.breakdown), each seat's adding up to its score
    breakdown: ScoreLines | None = None
    undo: bool = False  # this seat may send Undo: take back its last command (docs/online-play.md)
    players: list[TablePlayer] = []  # last: the gateway sets who is connected there (services/gateway/presence.py)


def status(version: int, result: Result | None) -> str:
    """A match's status at ``version``, whose ``result`` (``game.result``) is given."""
    if version == 0:
        return "waiting"  # nothing dealt yet
    return "finished" if result is not None else "active"


def envelope(
    game: Game,
    match_id: str,
    state: Any,
    version: int,
    seat: Seat | None,
    view: Any = None,
    players: list[TablePlayer] | None = None,
    undoer: Seat | None = None,
) -> ViewEnvelope:
    """The envelope of ``seat``; ``view``, when given, is ``game.view(state, seat)`` built already;
    ``undoer``: the seat that may take back its last command (domain/kernel/undo.py), if any."""
    result = game.result(state)
    # nothing is legal before the opening deal (a lobby filling, seats still giving entropy), nor to
    # a seat a bot plays for its player: its moves are the bot's until the player sends Reclaim
    playing = result is None and version > 0 and seat not in bot_seats(state)
    legal = game.legal(state, seat) if seat is not None and playing else []
    if view is None:
        view = game.view(state, seat)
    shown = players or []
    scored = None if result is None else game.breakdown(state)
    undo = playing and seat is not None and seat == undoer
    return ViewEnvelope(match_id, game.id, version, seat, status(version, result), view, legal, result,
                        breakdown=scored, undo=undo, players=shown)


def field(seat: Seat | None) -> str:
    """The name a seat's view is stored under."""
    return SPECTATOR_FIELD if seat is None else f"s:{seat}"


def all_views(
    game: Game, match_id: str, state: Any, version: int, seats: int, players: list[TablePlayer] | None = None,
    undoer: Seat | None = None,
) -> dict[str, bytes]:
    """Every seat's envelope and the spectator's, JSON-encoded, by storage field."""
    encode = msgspec.json.encode
    return {
        field(seat): encode(envelope(game, match_id, state, version, seat, view, players, undoer))
        for seat, view in zip(viewers(seats), game.all_views(state, seats), strict=True)
    }
