"""The fold of each match's log, cached per process: a load reads only the tail since the cache."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from projections.chain import effective_seed
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


class Folds:
    def __init__(self, store: EventStore, capacity: int = 4096) -> None:
        self.store = store
        self._cache: OrderedDict[str, Folded] = OrderedDict()
        self._capacity = capacity

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
        return Folded(last.envelope.version, state, last.hash, last.envelope.time, seed, timed)

    def cached(self, match: Match) -> Folded | None:
        return self._cache.get(match.id)

    async def load(self, match: Match) -> Folded:
        """The fold of the whole log as it is now."""
        folded = self._cache.get(match.id) or self.start(match)
        records = await self.store.read(match.id, folded.version)
        return self.keep(match, self.apply(match, folded, records))

    async def load_many(self, matches: list[Match], known: dict[str, Tail] | None = None) -> list[Folded]:
        """The folds of several matches' logs. ``known``: tails already read (claim.lua) of some;
        the others' are read in one round trip, as are those of matches the cache has not seen
        up to the tail's start (a new process, or another worker moved the checkpoint)."""
        known = known or {}
        starts = [self._cache.get(match.id) or self.start(match) for match in matches]
        tails: dict[str, list[Record]] = {}
        since: dict[str, int] = {}
        for match, folded in zip(matches, starts, strict=True):
            tail = known.get(match.id)
            if tail is not None and tail.after <= folded.version:
                tails[match.id] = [record for record in tail.records if record.envelope.version > folded.version]
            else:
                since[match.id] = folded.version
        if since:
            tails |= await self.store.read_tails(since)
        return [
            self.keep(match, self.apply(match, folded, tails[match.id]))
            for match, folded in zip(matches, starts, strict=True)
        ]

    def keep(self, match: Match, folded: Folded) -> Folded:
        """Cache a fold unless a newer one is cached already (concurrent loads race harmlessly)."""
        cached = self._cache.get(match.id)
        if cached is None or cached.version < folded.version:
            self._cache[match.id] = folded
            if len(self._cache) > self._capacity:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(match.id)
        return folded
