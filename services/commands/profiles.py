"""Players' profiles (docs/online-play.md): a registered player's name, its ratings per game and
its recent finished matches, each with its standing and, for a public match, the spectator token
that replays it. The projector records a finished match on each of its players' lists
(services/store/played.py), and takes a public one off the lobby's list of matches being played."""

from __future__ import annotations

import msgspec

from domain.games import game_ids
from domain.kernel import Result
from services.commands.folds import Folded
from services.commands.lobby import Lobby
from services.commands.matches import Match
from services.commands.players import Players
from services.commands.ratings import Ratings, rated
from services.store.played import PlayedMatch, PlayedMatches
from services.store.ratings import Rating


class Profile(msgspec.Struct):
    player_id: str
    name: str
    bot: bool
    created: float
    ratings: dict[str, Rating]  # game id -> the player's rating, for the games it has a rated match of
    recent: list[PlayedMatch]  # the newest first


class Profiles:
    def __init__(self, played: PlayedMatches, players: Players, ratings: Ratings, lobby: Lobby) -> None:
        self.played = played
        self.players = players
        self.ratings = ratings
        self.lobby = lobby

    async def ended(self, match: Match, folded: Folded, result: Result) -> None:
        """The finished match on each registered player's list (a redo writes the same), off the
        list of matches being played."""
        await self.lobby.ended(match)
        if not match.players:
            return
        ranks = {standing.seat: standing for standing in result.standings}
        counted = rated(match, folded) is not None
        ended = str(result.details.get("ended", ""))
        for seat, player_id in sorted(match.players.items()):
            standing = ranks[seat]
            await self.played.record(player_id, PlayedMatch(
                match.id, match.game.id, folded.last_time, seat, match.setup.seats, standing.rank, standing.score,
                seat in result.winners, ended, counted, match.watch or None,
            ))  # fmt: skip

    async def of(self, player_id: str, recent: int) -> Profile | None:
        """The player's profile with its ``recent`` newest matches; None for no such player."""
        player = await self.players.get(player_id)
        if player is None:
            return None
        ratings = await self.ratings.of(player.id, game_ids())
        matches = await self.played.recent(player.id, recent)
        return Profile(player.id, player.name, player.bot, player.created, ratings, matches)
