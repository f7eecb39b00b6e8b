"""The seats' entropy (docs/AUDIT.md), kept per match (``keys.entropy``) until the opening deal
folds it in: seat -> its contribution, each seat's given once."""

from __future__ import annotations

from services.store import keys
from services.store.clients import Events


class SeatEntropy:
    def __init__(self, redis: Events) -> None:
        self.redis = redis

    async def give(self, match_id: str, seat: int, entropy: str) -> bool:
        """Keep the seat's contribution: False if it had given one already (that one stays)."""
        return bool(await self.redis.hsetnx(keys.entropy(match_id), str(seat), entropy))

    async def given(self, match_id: str) -> dict[str, str]:
        """Seat (as a string) -> its contribution, for the seats that gave one."""
        stored = await self.redis.hgetall(keys.entropy(match_id))
        return {seat.decode(): entropy.decode() for seat, entropy in stored.items()}
