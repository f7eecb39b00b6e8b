"""The view envelopes of API.md: what each seat (and a spectator) sees of a state, with its legal
commands and the result. Pure: the worker writes these, the gateway serves them as they are."""

from __future__ import annotations

from dataclasses import dataclass
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
    return _Table.of(game, state, version).envelope(match_id, seat, view, players, undoer)


@dataclass(frozen=True, slots=True)
class _Table:
    """What every seat's envelope of one state shares, asked of the rules once for all of them."""

    game: Game
    state: Any
    version: int
    result: Result | None
    breakdown: ScoreLines | None
    bots: set[Seat]

    @classmethod
    def of(cls, game: Game, state: Any, version: int) -> _Table:
        result = game.result(state)
        scored = None if result is None else game.breakdown(state)
        return cls(game, state, version, result, scored, bot_seats(state))

    def envelope(self, match_id: str, seat: Seat | None, view: Any, players: Any, undoer: Seat | None) -> ViewEnvelope:
        game, state, version, result = self.game, self.state, self.version, self.result
        # nothing is legal before the opening deal (a lobby filling, seats still giving entropy), nor to
        # a seat a bot plays for its player: its moves are the bot's until the player sends Reclaim
        playing = result is None and version > 0 and seat not in self.bots
        legal = game.legal(state, seat) if seat is not None and playing else []
        if view is None:
            view = game.view(state, seat)
        undo = playing and seat is not None and seat == undoer
        return ViewEnvelope(match_id, game.id, version, seat, status(version, result), view, legal, result,
                            breakdown=self.breakdown, undo=undo, players=players or [])


def field(seat: Seat | None) -> str:
    """The name a seat's view is stored under."""
    return SPECTATOR_FIELD if seat is None else f"s:{seat}"


def all_views(
    game: Game, match_id: str, state: Any, version: int, seats: int, players: list[TablePlayer] | None = None,
    undoer: Seat | None = None,
) -> dict[str, bytes]:
    """Every seat's envelope and the spectator's, JSON-encoded, by storage field."""
    envelopes = Envelopes(game, match_id, state, version, players)
    views = zip(viewers(seats), _shared_once(game.all_views(state, seats)), strict=True)
    return {field(seat): envelopes.encoded(seat, undoer, view) for seat, view in views}


class Envelopes:
    """The envelopes of one state, JSON-encoded, one at a time: what they share (the rules'
    result, the table of players) asked and encoded once for all of them (``all_views``; the
    views of 409s, services/gateway/stale_view.py)."""

    def __init__(
        self, game: Game, match_id: str, state: Any, version: int, players: list[TablePlayer] | None
    ) -> None:
        self.match_id = match_id
        self.table = _Table.of(game, state, version)
        self.players = msgspec.Raw(msgspec.json.encode(players)) if players else None

    def encoded(self, seat: Seat | None, undoer: Seat | None, view: Any = None) -> bytes:
        """``seat``'s envelope; ``view``, when given, is its view built already."""
        return msgspec.json.encode(self.table.envelope(self.match_id, seat, view, self.players, undoer))


def _shared_once(views: list[Any]) -> list[Any]:
    """The views with each field that all of them hold as the same object (a game's public panels,
    built once for every seat: most of a view's bytes) encoded once, as the bytes it encodes to:
    an envelope's encoding then copies them, where it would encode them again for every seat."""
    first = views[0]
    if len(views) < 2 or not isinstance(first, msgspec.Struct):
        return views
    columns = zip(*map(msgspec.structs.astuple, views), strict=True)
    shared = {
        name: msgspec.Raw(msgspec.json.encode(column[0]))
        for name, column in zip(first.__struct_fields__, columns, strict=True)
        if isinstance(column[0], _CONTAINERS) and column[0] and all(value is column[0] for value in column)
    }
    return [msgspec.structs.replace(view, **shared) for view in views] if shared else views


_CONTAINERS = (tuple, list, dict, msgspec.Struct)  # worth encoding once: a number or a name is not
