"""The fold of each match's log, cached per process: a load reads only the tail since the cache,
and the cached entry with it, so that it notices when Redis holds less than the cache (a restart
without persistence, a failover to a replica behind): the cache is then dropped, never served."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from projections.chain import effective_seed
from projections.undo import own_move
from projections.upcasting import event_decoder
from services.commands import clocks
from services.commands.clocks import SeatClock
from services.commands.matches import Match
from services.store.event_store import EventStore, Record


@dataclass(frozen=True, slots=True)
class Tail:
    """A match's entries after version ``after``, read ahead (claim.lua)."""

    after: int
    records: list[Record]


@dataclass(frozen=True, slots=True)
class Folded:
    version: int
    state: Any
    last_hash: str  # the hash of the entry at ``version``: the next entry's ``prev``
    last_time: float = 0.0
    seed: str = ""  # what the rules draw from: the match seed with any seat entropy folded in (never shown)
    clocks: tuple[SeatClock, ...] = ()  # of a match with a clock: each seat's (services/commands/clocks.py)
    last_move: tuple[int, int] | None = None  # the seat and event count of the log's last command, a seat's own


class MatchLost(Exception):
    """Redis no longer holds the match this process knew (API: 410 ``match_lost``)."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"the match {match_id} is no longer stored")
        self.match_id = match_id


RECENT = 8  # folds kept of each match's latest versions (a stale expected_version is judged against them)


class Folds:
    def __init__(self, store: EventStore, capacity: int = 4096, on_lost: Callable[[str], None] | None = None) -> None:
        self.store = store
        self._cache: OrderedDict[str, Folded] = OrderedDict()
        # match id -> its latest folds by version, the newest last, each one as it was kept: the
        # versions a client may have seen as views (the projector's writes are folds of the same
        # log at command boundaries, and this process keeps one after each command it appends)
        self._recent: dict[str, dict[int, Folded]] = {}
        self._capacity = capacity
        self.on_lost = on_lost  # told the id of a match whose log Redis lost (the meta cache drops it)

    def clear(self) -> list[str]:
        """Forget every fold (Redis restarted: what it holds now is read again); the ids forgotten."""
        known = list(self._cache)
        self._cache.clear()
        self._recent.clear()
        return known

    def start(self, match: Match) -> Folded:
        start = clocks.start(match.clock, match.setup.seats) if match.clock else ()
        return Folded(0, match.game.initial(match.setup), match.genesis, 0.0, match.seed, start)

    def apply(self, match: Match, folded: Folded, records: list[Record]) -> Folded:
        if not records:
            return folded
        game = match.game
        decode = event_decoder(game, match.rules_version)
        state, seed, timed = folded.state, folded.seed, folded.clocks
        run: list[Any] = []  # the events of one command so far (a clock moves once per command)
        for n, record in enumerate(records):
            event = decode(record.envelope.event)
            state = game.evolve(state, event)
            if record.envelope.command.entropy:  # the opening, once every seat gave its entropy
                seed = effective_seed(match.seed, record.envelope.command.entropy)
            if match.clock is not None:
                run.append(event)
                following = records[n + 1] if n + 1 < len(records) else None
                if following is None or following.envelope.command.id != record.envelope.command.id:
                    timed = clocks.advance(game, match.clock, timed, state, record.envelope.time, run)
                    run = []
        last = records[-1]
        cause = last.envelope.command
        entries = sum(1 for _ in takewhile(lambda r: r.envelope.command.id == cause.id, reversed(records)))
        move = own_move(cause, entries)  # what its seat may take back (projections/undo.py)
        return Folded(last.envelope.version, state, last.hash, last.envelope.time, seed, timed, move)

    def cached(self, match: Match) -> Folded | None:
        return self._cache.get(match.id)

    def at(self, match: Match, version: int) -> Folded | None:
        """The fold at ``version``, if it is among the latest this process kept."""
        return self._recent.get(match.id, {}).get(version)

    async def load(self, match: Match) -> Folded:
        """The fold of the whole log as it is now; MatchLost if Redis holds less of it than the cache."""
        folded = self._cache.get(match.id) or self.start(match)
        # the cached entry too: the same round trip says whether Redis still holds what was folded
        records = await self.store.read(match.id, max(0, folded.version - 1))
        if not _intact(folded, records):
            self.lost(match.id)
            raise MatchLost(match.id)
        return self.keep(match, self.apply(match, folded, _past(folded, records)))

    def lost(self, match_id: str) -> None:
        self._cache.pop(match_id, None)
        self._recent.pop(match_id, None)
        if self.on_lost is not None:
            self.on_lost(match_id)

    async def load_many(self, matches: list[Match], known: dict[str, Tail] | None = None) -> list[Folded]:
        """The folds of several matches' logs. ``known``: tails already read (claim.lua) of some;
        the others' are read in one round trip, as are those of matches the cache has not seen
        up to the tail's start (a new process, or another worker moved the checkpoint). A match
        whose log Redis lost is folded again from what it holds."""
        known = known or {}
        starts = [self._cache.get(match.id) or self.start(match) for match in matches]
        tails: dict[str, list[Record]] = {}
        since: dict[str, int] = {}
        for index, (match, folded) in enumerate(zip(matches, starts, strict=True)):
            tail = known.get(match.id)
            if tail is not None and tail.after <= folded.version:
                if _continues(folded, tail):
                    tails[match.id] = _past(folded, tail.records)
                    continue
                self.lost(match.id)  # the log is not the one folded (Redis came back older): again
                starts[index] = self.start(match)
            since[match.id] = max(0, starts[index].version - 1)  # the cached entry too, checked
        if since:
            read = await self.store.read_tails(since)
            lost = {}
            for index, match in enumerate(matches):
                if match.id in read:
                    if not _intact(starts[index], read[match.id]):
                        self.lost(match.id)
                        starts[index] = self.start(match)
                        lost[match.id] = 0
                    tails[match.id] = _past(starts[index], read[match.id])
            if lost:  # read from the start: what was read began at the version the cache held
                tails.update(await self.store.read_tails(lost))
        return [
            self.keep(match, self.apply(match, folded, tails[match.id]))
            for match, folded in zip(matches, starts, strict=True)
        ]

    def keep(self, match: Match, folded: Folded) -> Folded:
        """Cache a fold unless a newer one is cached already (concurrent loads race harmlessly)."""
        cached = self._cache.get(match.id)
        if cached is None or cached.version < folded.version:
            self._cache[match.id] = folded
            recent = self._recent.setdefault(match.id, {})
            recent[folded.version] = folded
            if len(recent) > RECENT:
                del recent[next(iter(recent))]
            if len(self._cache) > self._capacity:
                self._recent.pop(self._cache.popitem(last=False)[0], None)
        else:
            self._cache.move_to_end(match.id)
        return folded


def _intact(folded: Folded, records: list[Record]) -> bool:
    """Whether ``records``, read from the folded version on, start with the folded entry unchanged."""
    if folded.version == 0:
        return True
    return bool(records) and records[0].envelope.version == folded.version and records[0].hash == folded.last_hash


def _continues(folded: Folded, tail: Tail) -> bool:
    """Whether ``tail`` (read after a version at or below the folded one) is of the log folded: it
    holds the folded entry unchanged, or, read from just past it, its first entry chains onto it; a
    log that ends below the fold, or whose entries differ, is not (Redis came back older)."""
    if folded.version == 0:
        return True
    if tail.after == folded.version:
        return not tail.records or tail.records[0].envelope.prev == folded.last_hash
    at = folded.version - tail.after - 1  # the folded entry's place in the tail
    return len(tail.records) > at and tail.records[at].hash == folded.last_hash


def _past(folded: Folded, records: list[Record]) -> list[Record]:
    return [record for record in records if record.envelope.version > folded.version]
