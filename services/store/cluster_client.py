"""The few plain commands off the hot path (a match's meta, idempotency records, a view, the entropy
hash, a ping) on a Redis Cluster, through the same ClusterWire as the hot paths (cluster.py).

Not redis-py's async RedisCluster: while a primary was down (5.x-8.1), it failed commands with an
AttributeError from a connection it had half opened (the gateway's 500 instead of a 503), and it
sends a command again after a connection error, writes included. The methods are the redis-py
ones our callers use, with the same answers (bytes, RESP2)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from services.store.cluster import ClusterWire


@dataclass(frozen=True, slots=True)
class Registered:
    """A script as run_scripts sends it (event_store.py): its source and SHA-1."""

    script: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.script.encode()).hexdigest())


class ClusterClient:
    def __init__(self, link: ClusterWire, acked: ClusterWire) -> None:
        self.link = link  # reads
        self.acked = acked  # writes: WAIT-acknowledged like the appends (a match created is kept)

    async def _read(self, *command: Any) -> Any:
        return _raised((await self.link.exchange([list(command)], reads=True))[0])

    async def _write(self, *command: Any) -> Any:
        return _raised((await self.acked.exchange([list(command)]))[0])

    def register_script(self, source: str) -> Registered:
        return Registered(source)

    async def ping(self) -> bool:
        return await self._read("PING") == b"PONG"

    async def get(self, key: str) -> bytes | None:
        return await self._read("GET", key)

    async def set(self, key: str, value: Any, ex: int | None = None, nx: bool = False) -> bool:
        command = ["SET", key, value, *(("EX", ex) if ex else ()), *(("NX",) if nx else ())]
        return await self._write(*command) is not None

    async def mget(self, keys: list[str]) -> list[bytes | None]:  # the keys of one match: one slot
        return await self._read("MGET", *keys)

    async def hget(self, key: str, name: str) -> bytes | None:
        return await self._read("HGET", key, name)

    async def hmget(self, key: str, names: list[str]) -> list[bytes | None]:
        return await self._read("HMGET", key, *names)

    async def hgetall(self, key: str) -> dict[bytes, bytes]:
        flat = await self._read("HGETALL", key)
        return dict(zip(flat[::2], flat[1::2], strict=True))

    async def hset(self, key: str, mapping: dict[str, Any]) -> int:
        return await self._write("HSET", key, *(part for pair in mapping.items() for part in pair))

    async def hsetnx(self, key: str, name: str, value: Any) -> bool:
        return bool(await self._write("HSETNX", key, name, value))

    async def xadd(self, key: str, fields: dict[str, Any], maxlen: int, approximate: bool = True) -> bytes:
        trim = ["MAXLEN", "~" if approximate else "=", maxlen]
        return await self._write("XADD", key, *trim, "*", *(part for pair in fields.items() for part in pair))

    async def exists(self, *names: str) -> int:  # the names of one match: one slot
        return await self._read("EXISTS", *names)

    async def delete(self, *names: str) -> int:  # the names of one match: one slot
        return await self._write("DEL", *names)

    async def sadd(self, key: str, *members: Any) -> int:
        return await self._write("SADD", key, *members)

    async def srem(self, key: str, *members: Any) -> int:
        return await self._write("SREM", key, *members)

    async def smembers(self, key: str) -> set[bytes]:
        return set(await self._read("SMEMBERS", key))

    async def aclose(self) -> None:
        pass  # the connections are the links', closed with them


def _raised(answer: Any) -> Any:
    if isinstance(answer, Exception):
        raise answer
    return answer
