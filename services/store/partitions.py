"""The sets every process polls, split so that no one key carries them all: each family (the
lobby's lists, the clocks' and abandonments' deadlines, the lifecycle's lists, the deferred
marks) is ``count`` partitions ``tavern:<family>:{pNN}``, each hash-tagged on its own so that a
Redis Cluster spreads them over its slots. A match (or any member) sits in the partition its id
hashes to (CRC32, the same in every process and language); every process must use the same
``count`` (TAVERN_PARTITIONS), and changing it strands what the dropped partitions hold.

``Shares`` says which partitions one process sweeps, for one role (every process's sweeper, or
the workers' archiver): each process of the role beats in a registry, every partition goes to the
live process that wins it by rendezvous hashing (so N processes hold about P/N each, and a
process joining or leaving moves only its own share), and the winner holds it by a lease
(lease.lua, SET NX PX, renewed by its holder on each look): a partition is swept by one process
at a time, and a dead process's partitions are taken over once its beat and its leases have
lapsed, within a lease and a look. The registry is the one key of a role: written once a look by
each process, whatever the number of matches."""

from __future__ import annotations

import hashlib
import heapq
import secrets
import struct
import time
import zlib
from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script

_LEASE = script(Path(__file__).parent / "lease.lua")
DEEP = 100  # a merged page from further than this seeks its start instead of reading up to it


class Partitions:
    def __init__(self, count: int) -> None:
        self.count = count

    def of(self, member: str) -> int:
        """The partition ``member`` (a match id, a player id) sits in."""
        return zlib.crc32(member.encode()) % self.count

    def bucket(self, member: str, count: int) -> int:
        """Which of ``count`` buckets of its partition ``member`` sits in: the hash's next digits."""
        return zlib.crc32(member.encode()) // self.count % count

    def key(self, family: str, member: str) -> str:
        """The key of ``family``'s partition that holds ``member``."""
        return keys.partition(family, self.of(member))

    def keys(self, family: str, partitions: list[int] | None = None) -> list[str]:
        """The keys of these partitions of ``family`` (None: all of them)."""
        return [keys.partition(family, p) for p in (range(self.count) if partitions is None else partitions)]


class Shares:
    """The partitions this process sweeps in ``role`` (module docstring)."""

    def __init__(
        self, redis: Any, partitions: Partitions, role: str, lease_s: float, link: resp.Link | None = None
    ) -> None:
        """``lease_s``: at least three times as long as the role's sweeps are apart, since a lease
        is renewed when its holder sweeps."""
        self.redis = redis
        self.link = link or link_to(redis)
        self.partitions = partitions
        self.role = role
        self.lease_s = lease_s
        self.me = secrets.token_hex(8)  # this process in the registry and on its leases
        self._script = redis.register_script(_LEASE)
        self._held: list[int] = []
        self._looked = -float("inf")  # monotonic time of the last look

    @property
    def registry(self) -> str:
        return keys.sweepers(self.role)

    def lease(self, partition: int) -> str:
        return keys.partition(keys.lease(self.role), partition)

    async def held(self) -> list[int]:
        """The partitions this process sweeps now; looked at again (beat, renewed, taken, given
        back) once a third of a lease has passed since the last look."""
        if time.monotonic() - self._looked >= self.lease_s / 3:
            await self.look()
        return self._held

    async def look(self) -> None:
        now = time.time()
        registry = self.registry
        for answer in await self.link.exchange([
            ["ZADD", registry, repr(now), self.me],
            ["ZREMRANGEBYSCORE", registry, "-inf", repr(now - 10 * self.lease_s)],  # long gone
        ]):
            reply(answer)
        (live,) = await self.link.exchange([["ZRANGEBYSCORE", registry, repr(now - self.lease_s), "+inf"]], reads=True)
        processes = {raw.decode() for raw in reply(live)} | {self.me}
        wanted = [p for p in range(self.partitions.count) if _winner(processes, p) == self.me]
        given = [p for p in self._held if p not in wanted]
        ms = str(round(self.lease_s * 1000))
        calls = [Call(self._script, [self.lease(p)], [self.me, ms]) for p in wanted]
        calls += [Call(self._script, [self.lease(p)], [self.me, "0"]) for p in given]
        answers = [reply(answer) for answer in await run_scripts(self.link, calls)] if calls else []
        self._held = [p for p, taken in zip(wanted, answers, strict=False) if taken == 1]
        self._looked = time.monotonic()

    async def leave(self) -> None:
        """Out of the registry, every lease given back: the others take this share at their next look."""
        calls = [Call(self._script, [self.lease(p)], [self.me, "0"]) for p in self._held]
        if calls:
            for answer in await run_scripts(self.link, calls):
                reply(answer)
        await self.link.exchange([["ZREM", self.registry, self.me]])
        self._held = []
        self._looked = -float("inf")


async def earliest(link: resp.Link, names: list[str], high: float, count: int) -> list[str]:
    """Up to ``count`` members scored at most ``high`` in these zsets (partitions of one family),
    the lowest first (ties by member, as one zset orders them)."""
    commands = [["ZRANGEBYSCORE", name, "-inf", repr(high), "WITHSCORES", "LIMIT", 0, count] for name in names]
    return _merged(await link.exchange(commands, True) if commands else [], 0, count)


async def page(link: resp.Link, names: list[str], offset: int, count: int, deep: int = DEEP) -> list[str]:
    """Members ``offset`` to ``offset + count`` of these zsets merged, the lowest score first (ties
    by member): the page one zset of them all would give. Past ``deep``, the first member's score
    is found by bisection (``_seek``) rather than by reading every member before it."""
    if offset <= deep:
        commands = [["ZRANGE", name, 0, offset + count - 1, "WITHSCORES"] for name in names]
        return _merged(await link.exchange(commands, True), offset, count)
    sought = await _seek(link, names, offset)
    if sought is None:
        return []
    score, before = sought
    skip = offset - before  # the members scored ``score`` (ties) ahead of the page
    commands = [["ZRANGEBYSCORE", name, repr(score), "+inf", "WITHSCORES", "LIMIT", 0, skip + count] for name in names]
    return _merged(await link.exchange(commands, True), skip, count)


async def _seek(link: resp.Link, names: list[str], offset: int) -> tuple[float, int] | None:
    """The score of the member at ``offset`` across these zsets and how many are scored below it
    (None: there are not that many): bisection over the doubles between the lowest and highest
    scores, in their order as integers (``_rank``), each step one round trip of a ZCOUNT per zset:
    at most 64 steps."""
    ends = await link.exchange([["ZRANGE", name, end, end, "WITHSCORES"] for name in names for end in (0, -1)], True)
    scores = [score for answer in ends for _, score in with_scores(reply(answer))]
    if not scores:
        return None
    # at most ``offset`` members scored up to ``low``, more up to ``high``
    low, high = _rank(min(scores)) - 1, _rank(max(scores))
    if await _up_to(link, names, _double(high)) <= offset:
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if await _up_to(link, names, _double(middle)) > offset:
            high = middle
        else:
            low = middle
    return _double(high), await _up_to(link, names, _double(low))


def _rank(score: float) -> int:
    """The double's place among the doubles, as an integer (its bits, negatives mirrored)."""
    bits = int(struct.unpack("<q", struct.pack("<d", score))[0])
    return bits if bits >= 0 else -(bits & 0x7FFF_FFFF_FFFF_FFFF)


def _double(rank: int) -> float:
    bits = rank if rank >= 0 else (-rank) | -0x8000_0000_0000_0000
    (score,) = struct.unpack("<d", struct.pack("<q", bits))
    return float(score)


async def _up_to(link: resp.Link, names: list[str], score: float) -> int:
    """How many members of these zsets are scored ``score`` or less."""
    answers = await link.exchange([["ZCOUNT", name, "-inf", repr(score)] for name in names], True)
    return sum(int(reply(answer)) for answer in answers)


def _merged(replies: list[Any], offset: int, count: int) -> list[str]:
    scored = [(score, member) for answer in replies for member, score in with_scores(reply(answer))]
    return [member.decode() for _, member in heapq.nsmallest(offset + count, scored)[offset:]]


def with_scores(answer: list[Any]) -> list[tuple[bytes, float]]:
    """A WITHSCORES reply as (member, score) pairs: flat from a Redis (RESP2), already paired from
    the embedded fakeredis."""
    if answer and isinstance(answer[0], list):
        return [(member, float(score)) for member, score in answer]
    return [(member, float(score)) for member, score in zip(answer[::2], answer[1::2], strict=True)]


def _winner(processes: set[str], partition: int) -> str:
    """Rendezvous hashing: the process whose hash with the partition is highest."""
    return max(processes, key=lambda process: hashlib.sha1(f"{process}:{partition}".encode()).digest())
