"""What a player's event stream carries besides challenges (docs/bots.md): its matches started,
the rematches offered to it and its tournaments' tables (kept on the player's events), and, made
by the stream itself from the seat's views, its turns and its matches' ends. Each ``type`` is its
SSE ``event:`` name."""

from __future__ import annotations

from typing import Any

import msgspec


class MatchStarted(msgspec.Struct, tag="match_started"):
    match_id: str
    game: str
    seat: int  # the player's: its token is the one its join (or its challenge's accept) answered


class RematchOffered(msgspec.Struct, tag="rematch_offered"):
    match_id: str  # the finished match
    rematch: str  # the new one, a seat kept for the player: POST /v1/matches/{match_id}/rematch joins it
    game: str
    by: str  # the player id of whoever asked first


class TournamentTable(msgspec.Struct, tag="tournament_table"):
    """A round of a tournament started with a table for the player (docs/tournaments.md)."""

    tournament_id: str
    round: int
    match_id: str
    game: str
    seat: int  # kept for the player: it takes it with POST /v1/matches/{match_id}/join


class Turn(msgspec.Struct, tag="turn"):
    match_id: str
    seat: int
    version: int
    view: msgspec.Raw  # the seat's view envelope (as GET /v1/matches/{id}/view), with legal commands


class MatchFinished(msgspec.Struct, tag="match_finished"):
    match_id: str
    seat: int
    version: int
    view: msgspec.Raw  # the seat's last view, its ``result`` set


encode = msgspec.json.Encoder().encode


def event_type(raw: bytes) -> str:
    """An event's ``type`` (its SSE event name), read from its JSON."""
    return str(msgspec.json.decode(raw, type=dict[str, Any])["type"])
