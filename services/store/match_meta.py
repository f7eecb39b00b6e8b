"""Each match's meta (``keys.meta``): a hash of strings written at its creation. A lobby match's
fields change until it starts, each change read, decided and written under WATCH (``edit``): two
players racing for its last seat, one wins and the other is decided again on what it wrote."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from redis.exceptions import WatchError

from services.store import keys
from services.store.clients import Events


class Edit(Protocol):
    """What ``edit`` writes: fields set, fields removed."""

    @property
    def fields(self) -> Mapping[str, str]: ...

    @property
    def removed(self) -> Sequence[str]: ...


E = TypeVar("E", bound=Edit)


class MatchMetas:
    def __init__(self, redis: Events) -> None:
        self.redis = redis

    async def write(self, match_id: str, fields: Mapping[str, str]) -> None:
        await self.redis.hset(keys.meta(match_id), mapping=dict(fields))

    async def read(self, match_id: str) -> dict[str, str] | None:
        """Every field, or None for a match Redis does not hold."""
        return _decoded(await self.redis.hgetall(keys.meta(match_id))) or None

    async def field(self, match_id: str, name: str) -> str | None:
        raw = await self.redis.hget(keys.meta(match_id), name)
        return None if raw is None else raw.decode()

    async def fields_of(self, match_ids: Iterable[str], names: list[str]) -> list[list[str | None]]:
        """The named fields of each match (None where absent), in the order of ``match_ids``."""
        found = await asyncio.gather(*(self.redis.hmget(keys.meta(match_id), names) for match_id in match_ids))
        return [[None if raw is None else raw.decode() for raw in fields] for fields in found]

    async def set_field(self, match_id: str, name: str, value: str) -> None:
        await self.redis.hset(keys.meta(match_id), mapping={name: value})

    async def set_once(self, match_id: str, name: str, value: str) -> bool:
        """Set the field unless it is set already: whether this call set it."""
        return bool(await self.redis.hsetnx(keys.meta(match_id), name, value))

    async def keep_for(self, match_id: str, seconds: int) -> None:
        """The meta leaves Redis ``seconds`` from now."""
        await self.redis.expire(keys.meta(match_id), seconds)

    async def edit(self, match_id: str, decide: Callable[[dict[str, str] | None], E], attempts: int) -> E | None:
        """Read the meta (None: no such match), ``decide`` an edit and write it unless the meta
        changed meanwhile, then read and decide again: the edit written, or None if the meta
        changed under every one of ``attempts``. What ``decide`` raises is raised, nothing written."""
        key = keys.meta(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            for _ in range(attempts):
                try:
                    await pipe.watch(key)
                    decided = decide(_decoded(await pipe.hgetall(key)) or None)
                    pipe.multi()
                    if decided.fields:
                        pipe.hset(key, mapping=dict(decided.fields))
                    if decided.removed:
                        pipe.hdel(key, *decided.removed)
                    await pipe.execute()
                    return decided
                except WatchError:
                    continue
        return None


def _decoded(raw: dict[bytes, bytes]) -> dict[str, str]:
    return {name.decode(): value.decode() for name, value in raw.items()}
