"""Challenges of bot accounts (``keys.challenge``: the asked match as JSON, its status and, once
accepted, its match id), docs/bots.md. A challenge lapses unless answered in time; an answered
one is kept a while for its players to read. Its status moves from ``pending`` once, under WATCH:
a bot accepting while its challenger cancels, one of them wins and the other is told what it met."""

from __future__ import annotations

from dataclasses import dataclass

from redis.exceptions import WatchError

from services.store import keys
from services.store.clients import Events

PENDING = "pending"
ATTEMPTS = 20


@dataclass(frozen=True, slots=True)
class Stored:
    asked: bytes  # the challenge as asked (JSON), never changed
    status: str
    match_id: str  # "" until accepted


class ChallengeBook:
    def __init__(self, redis: Events) -> None:
        self.redis = redis

    async def add(self, challenge_id: str, asked: bytes, ttl_s: int) -> None:
        """A pending challenge, gone ``ttl_s`` from now unless answered."""
        key = keys.challenge(challenge_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping={"asked": asked, "status": PENDING})
            pipe.expire(key, ttl_s)
            await pipe.execute()

    async def get(self, challenge_id: str) -> Stored | None:
        fields = await self.redis.hgetall(keys.challenge(challenge_id))
        if not fields:
            return None
        return Stored(fields[b"asked"], fields[b"status"].decode(), fields.get(b"match", b"").decode())

    async def answer(self, challenge_id: str, status: str, kept_s: int) -> Stored | None:
        """Move a pending challenge to ``status``, kept ``kept_s`` from now: the challenge as it was
        before (None: lapsed or never asked); if it was not pending, nothing changed."""
        key = keys.challenge(challenge_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            for _ in range(ATTEMPTS):
                try:
                    await pipe.watch(key)
                    fields = await pipe.hgetall(key)
                    if not fields:
                        return None
                    before = Stored(fields[b"asked"], fields[b"status"].decode(), fields.get(b"match", b"").decode())
                    if before.status != PENDING:
                        return before
                    pipe.multi()
                    pipe.hset(key, mapping={"status": status})
                    pipe.expire(key, kept_s)
                    await pipe.execute()
                    return before
                except WatchError:
                    continue
        raise WatchError(f"challenge {challenge_id} changed under every attempt")

    async def settle(self, challenge_id: str, status: str, match_id: str) -> None:
        """What an accepted challenge came to: its match, or ``failed`` (the key lapses as ``answer`` set it)."""
        await self.redis.hset(keys.challenge(challenge_id), mapping={"status": status, "match": match_id})
