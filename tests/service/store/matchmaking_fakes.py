"""Stand-ins for what the matchmaker makes its tables with (tests/service/store/test_concurrent_matchers.py,
tests/bench/bench_matchmaker.py): the matches and the lobby's listings, and the players' ratings."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from services.store.ratings import Rating


class Tables:
    """Stands in for Matches, LobbyListings and Lobby.close: each table a matcher made, by its players, with the
    bots' count and the simulated time it was made at (``now``, set by the caller)."""

    def __init__(self) -> None:
        self.made: list[list[str]] = []
        self.bots: list[int] = []
        self.at: list[float] = []
        self.now = 0.0

    async def create(self, game: str, seats: int, options: Any, bots: list[int], **kept: Any) -> Any:
        self.made.append(sorted(kept["reserved"].values()))
        self.bots.append(len(bots))
        self.at.append(self.now)
        await asyncio.sleep(0)  # another matcher runs here, as another process would
        return SimpleNamespace(match=SimpleNamespace(id=f"m{len(self.made)}", created=self.now))

    async def add(self, *listed: Any, **kept: Any) -> None:
        pass

    async def get(self, match_id: str) -> None:
        return None  # a stand-in table is never waiting for its players: none is closed

    async def close(self, match_id: str) -> bool:
        return False


class Ratings:
    def __init__(self, ratings: dict[str, float]) -> None:
        self.ratings = ratings

    async def of(self, player_id: str, games: list[str]) -> dict[str, Rating]:
        return {game: Rating(self.ratings[player_id], 8.0, 1) for game in games}
