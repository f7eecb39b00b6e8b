"""The few plain commands off the hot path (a match's meta, idempotency records, a view, the entropy
hash, a ping; online play's players, lobby, clocks and ratings) on a Redis Cluster, through the same
ClusterWire as the hot paths (cluster.py).

Not redis-py's async RedisCluster: while a primary was down (5.x-8.1), it failed commands with an
AttributeError from a connection it had half opened (the gateway's 500 instead of a 503), and it
sends a command again after a connection error, writes included. The methods are the redis-py
ones our callers use, with the same answers (bytes, RESP2).

Online play's keys that are not a match's own (players and their tokens, the lobby's lists, the
clocks' and abandonments' deadlines, the ratings, the lifecycle's lists, the quota's slots) stay
on the cluster too, beside the matches, rather than beside the queue: a player's token and the
ratings are kept nowhere else (the queue's Redis holds only what the streams can rebuild), and on
the cluster a write of them is WAIT-acknowledged and survives a failover like an append. The sets
every process polls are split into partitions over the slots (partitions.py), a player's keys sit
on its own slot. Their callers' pipelines (``pipeline``) are carried as redis-py's
are: without a transaction, the commands go out at once, split by slot; with one, a WATCH is
emulated, since a pipelined connection shared by every caller cannot hold a WATCH: ``watch``
reads each watched key's DUMP, and ``execute`` runs the queued commands in one script
(guarded.lua) only if every watched key still dumps the same, else raises WatchError as EXEC
would. A transaction's keys must share a slot (they do: one match's meta).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis.exceptions import WatchError

from services.store.cluster import ClusterWire, key_of

GUARDED = (Path(__file__).parent / "guarded.lua").read_text()


@dataclass(frozen=True, slots=True)
class Registered:
    """A script as run_scripts sends it (event_store.py): its source and SHA-1."""

    script: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.script.encode()).hexdigest())


def _pairs(flat: list[Any]) -> dict[bytes, bytes]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _flat(mapping: dict[Any, Any], scores: bool = False) -> list[Any]:
    """A mapping as a command's words: HSET's field value..., ZADD's score member..."""
    return [part for key, value in mapping.items() for part in ((value, key) if scores else (key, value))]


class Commands:
    """Each command our callers send, as its words and how its reply is read; ``_do`` runs or queues it."""

    def _do(self, words: list[Any], write: bool, parse: Callable[[Any], Any] | None = None) -> Any:
        raise NotImplementedError

    def get(self, key: str) -> Any:
        return self._do(["GET", key], False)

    def set(self, key: str, value: Any, ex: int | None = None, nx: bool = False) -> Any:
        words = ["SET", key, value, *(("EX", ex) if ex else ()), *(("NX",) if nx else ())]
        return self._do(words, True, lambda answer: answer is not None)

    def hget(self, key: str, name: str) -> Any:
        return self._do(["HGET", key, name], False)

    def hmget(self, key: str, names: list[str]) -> Any:
        return self._do(["HMGET", key, *names], False)

    def hgetall(self, key: str) -> Any:
        return self._do(["HGETALL", key], False, _pairs)

    def hset(self, key: str, mapping: dict[str, Any]) -> Any:
        return self._do(["HSET", key, *_flat(mapping)], True)

    def hsetnx(self, key: str, name: str, value: Any) -> Any:
        return self._do(["HSETNX", key, name, value], True, bool)

    def hdel(self, key: str, *names: str) -> Any:
        return self._do(["HDEL", key, *names], True)

    def xadd(self, key: str, fields: dict[str, Any], maxlen: int, approximate: bool = True) -> Any:
        return self._do(["XADD", key, "MAXLEN", "~" if approximate else "=", maxlen, "*", *_flat(fields)], True)

    def exists(self, *names: str) -> Any:  # the names of one match: one slot
        return self._do(["EXISTS", *names], False)

    def delete(self, *names: str) -> Any:  # the names of one match: one slot
        return self._do(["DEL", *names], True)

    def expire(self, key: str, seconds: int) -> Any:
        return self._do(["EXPIRE", key, seconds], True, bool)

    def sadd(self, key: str, *members: Any) -> Any:
        return self._do(["SADD", key, *members], True)

    def zadd(self, key: str, mapping: dict[Any, float], nx: bool = False) -> Any:
        return self._do(["ZADD", key, *(("NX",) if nx else ()), *_flat(mapping, scores=True)], True)

    def zrem(self, key: str, *members: Any) -> Any:
        return self._do(["ZREM", key, *members], True)

    def zscore(self, key: str, member: Any) -> Any:
        return self._do(["ZSCORE", key, member], False, lambda answer: None if answer is None else float(answer))


class ClusterClient(Commands):
    def __init__(self, link: ClusterWire, acked: ClusterWire) -> None:
        self.link = link  # reads
        self.acked = acked  # writes: WAIT-acknowledged like the appends (a match created is kept)

    def _do(self, words: list[Any], write: bool, parse: Callable[[Any], Any] | None = None) -> Any:
        return self._run(words, write, parse)

    async def _run(self, words: list[Any], write: bool, parse: Callable[[Any], Any] | None) -> Any:
        (answer,) = await (self.acked.exchange([words]) if write else self.link.exchange([words], reads=True))
        answer = _raised(answer)
        return parse(answer) if parse else answer

    def register_script(self, source: str) -> Registered:
        return Registered(source)

    async def ping(self) -> bool:
        answer: bytes = await self._run(["PING"], False, None)
        return answer == b"PONG"

    def pipeline(self, transaction: bool = True) -> Pipeline:
        return Pipeline(self, transaction)

    async def aclose(self) -> None:
        pass  # the connections are the links', closed with them


class Pipeline(Commands):
    """redis-py's asyncio Pipeline as our callers use it: queued commands, ``watch`` (while watching,
    commands run at once), ``multi``, ``execute`` (module docstring)."""

    def __init__(self, client: ClusterClient, transaction: bool) -> None:
        self.client = client
        self.transaction = transaction
        self._reset()

    def _reset(self) -> None:
        self.queued: list[tuple[list[Any], Callable[[Any], Any] | None]] = []
        self.watched: dict[Any, bytes] = {}  # key -> its DUMP when watched (b"": none)
        self.watching = False

    async def __aenter__(self) -> Pipeline:
        return self

    async def __aexit__(self, *_: Any) -> None:
        self._reset()

    def _do(self, words: list[Any], write: bool, parse: Callable[[Any], Any] | None = None) -> Any:
        if self.watching:
            return self.client._run(words, write, parse)
        self.queued.append((words, parse))
        return self

    async def watch(self, *names: Any) -> None:
        dumps = await self.client.link.exchange([["DUMP", name] for name in names], reads=True)
        self.watched.update((name, _raised(dump) or b"") for name, dump in zip(names, dumps, strict=True))
        self.watching = True

    def multi(self) -> None:
        self.watching = False

    async def execute(self) -> list[Any]:
        queued, watched = self.queued, self.watched
        self._reset()
        if not queued:
            return []
        if not self.transaction:
            answers = await self.client.acked.exchange([words for words, _ in queued])
        else:
            names = [*watched, *(key_of(words) for words, _ in queued)]
            commands = [part for words, _ in queued for part in (len(words), *words)]
            script = ["EVAL", GUARDED, len(names), *names, len(watched), *watched.values(), *commands]
            (answers,) = await self.client.acked.exchange([script])
            if answers is None:
                raise WatchError("a watched key changed")
            answers = _raised(answers)
        answers = [_raised(answer) for answer in answers]
        return [parse(answer) if parse else answer for (_, parse), answer in zip(queued, answers, strict=True)]


def _raised(answer: Any) -> Any:
    if isinstance(answer, Exception):
        raise answer
    return answer
