"""The projector: fold each dirty match from where the views stand and write every seat's view
and the spectator's together with the new checkpoint (promote.lua), then publish a notice: for a
whole batch of claimed matches, one round trip claims them (and, where their logs live on the
queue's Redis, brings their tails along; else one more reads them) and one writes their views.

Coalescing spreads a job's cost over many events and matches: an append marks its match dirty
(a zset member, so a busy match is marked once however many commands arrive, scored by when it
turned dirty); a job is queued only when no drain job is running (dirty.lua, release.lua), and one
job drains up to ``batch`` dirty matches at a time, those dirty longest first, as long as there
are any, for up to ``budget_s``.
A match is claimed under a lease (claim.lua): a worker killed mid-projection leaves the claim to
expire, the next job puts it back at the front and projects it again from the log; the views
of a version are a pure function of the log, so the redo writes the same views.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.kernel.online import bot_seats
from projections.views import all_views
from services.commands.bots import Bots
from services.commands.folds import Folded, Folds, Tail
from services.commands.matches import Match, Matches
from services.commands.ratings import Ratings, rated
from services.commands.seating import Seating
from services.commands.timeouts import Timeouts, deserted
from services.ops import logs, metrics
from services.projector import notices
from services.store import keys, resp
from services.store.batching import Batched
from services.store.event_store import Call, EventStore, ViewsAt, marking, records_of, reply, run_scripts, script

log = logs.get("tavern.projector")
SCRIPTS_DIR = Path(__file__).parent  # claim.lua, release.lua, mark.lua


@dataclass(frozen=True, slots=True)
class Drained:
    again: bool  # the budget ran out with work left: queue the next drain job
    helper: bool  # a full batch was seen: queue one more job, for another worker to share the load


class Projector:
    def __init__(
        self,
        matches: Matches,
        folds: Folds,
        store: EventStore,
        queue: Any,
        bots: Bots,
        lease_s: float = 5.0,
        tick_s: float = 0.0,
        min_tick_s: float = 0.0,
        tails_in_claim: bool = False,
        batch: int = 64,
        parallel: int = 4,
        link: resp.Link | None = None,
        waiter: resp.Link | None = None,
        seating: Seating | None = None,
        timeouts: Timeouts | None = None,
        ratings: Ratings | None = None,
    ) -> None:
        self.ratings = ratings  # counts each rated match once it has finished
        self.seating = seating  # the envelope's players (names, bots, streams, clocks)
        self.timeouts = timeouts  # keeps each clocked match's next deadline
        self.parallel = parallel  # drain jobs at once, at most, when there is a backlog
        self.bots = bots
        self.matches = matches
        self.folds = folds
        self.store = store
        self.queue = queue
        self.link = link or resp.Pooled(queue)  # claims and marks
        self.waiter = waiter or resp.Pooled(queue)  # the BLPOP for a wake-up: a connection of its own
        self.lease_s = lease_s
        self.tick_s = tick_s
        self.min_tick_s = min_tick_s
        # the logs live on the queue's Redis: a claim brings the claimed matches' tails along
        self.tails_in_claim = tails_in_claim
        self.batch = batch
        self._claim = queue.register_script(script(SCRIPTS_DIR / "claim.lua"))
        self._release = queue.register_script(script(SCRIPTS_DIR / "release.lua"))
        self._dirty = queue.register_script(marking(SCRIPTS_DIR / "mark.lua"))
        self._marks = Batched(self._mark_all)
        self._projected: dict[str, int] = {}  # match id -> version this process last wrote

    async def mark_dirty(self, match_id: str) -> bool:
        """After an append; True if a drain job must be queued (none is running to see it). The
        marks of commands answered meanwhile go in one mark.lua call. (Where the projector's keys
        live on the events' Redis, append.lua marks its match itself.)"""
        return await self._marks(match_id)

    async def _mark_all(self, match_ids: list[str]) -> list[bool]:
        args = [time.time(), *dict.fromkeys(match_ids)]
        (enqueue,) = await run_scripts(self.link, [Call(self._dirty, [keys.DIRTY, keys.ACTIVE, keys.WAKE], args)])
        return [bool(reply(enqueue))] * len(match_ids)

    async def drain(self, budget_s: float = 2.0, linger_s: float = 0.2) -> Drained:
        """Project dirty matches until none is left (for ``linger_s``) or the budget is spent.

        While a drain job runs, appends queue no further jobs (dirty.lua): under load one RQ job
        projects thousands of events of many matches, instead of paying RQ's ~57 Redis commands
        and a dequeue per command. Lingering a moment before letting go keeps a busy server on
        the same job between bursts."""
        token = secrets.token_hex(8)
        deadline = time.monotonic() + budget_s
        idle_since: float | None = None
        backlog = False
        projected: list[str] = []  # claimed and done with: the next claim lets them go
        while True:
            step = time.monotonic()
            args = [time.time(), self.lease_s, self.batch, token, int(self.tails_in_claim), *projected]
            call = Call(self._claim, [keys.DIRTY, keys.CLAIMED, keys.ACTIVE], args)
            (answer,) = await run_scripts(self.link, [call])
            claimed, tails = reply(answer)
            projected = []
            if claimed:
                idle_since = None
                backlog = backlog or len(claimed) == self.batch
                projected = [raw.decode() for raw in claimed]
                read = zip(projected, tails, strict=True) if tails else ()  # none where the logs live apart
                known = {match_id: Tail(after, records_of(entries)) for match_id, (after, entries) in read}
                await self.project(projected, known)
                if time.monotonic() > deadline:
                    async with self.queue.pipeline(transaction=False) as pipe:
                        pipe.zrem(keys.CLAIMED, *projected).zrem(keys.ACTIVE, token).zcard(keys.ACTIVE)
                        *_, running = await pipe.execute()
                    return Drained(again=True, helper=backlog and running < self.parallel)
                # Under load, wait out the tick before the next claim: the commands that arrive
                # meanwhile share one projection and one view per stream. The tick grows with the
                # load (the share of a full batch this step claimed): few busy matches are
                # projected almost at once, their latency being the cycle of every player; many
                # wait up to the whole tick, where the CPU saved matters more; none waits less than
                # the shortest tick, below which steps of a match or two would cost the worker
                # more than they save. When idle, a command is projected at once (the first claim
                # after the wake-up does not wait).
                await asyncio.sleep(self.tick(len(claimed)) - (time.monotonic() - step))
                continue
            now = time.monotonic()
            idle_since = idle_since or now
            if now - idle_since < linger_s:
                (woken,) = await self.waiter.exchange([["BLPOP", keys.WAKE, linger_s]])  # dirty.lua wakes us
                reply(woken)
            elif not await self._release(keys=[keys.DIRTY, keys.ACTIVE], args=[token]):
                return Drained(again=False, helper=False)

    def tick(self, claimed: int) -> float:
        """The pause between drain steps after one that claimed ``claimed`` matches (some): its
        share of a full batch of ``tick_s``, at least ``min_tick_s``, at most ``tick_s``."""
        return min(self.tick_s, max(self.min_tick_s, self.tick_s * claimed / self.batch))

    async def project(self, match_ids: list[str], known: dict[str, Tail]) -> None:
        """Fold the claimed matches and write the views of those that moved (one round trip with
        one notice; one more first for tails the claim did not bring), then let their bots act."""
        started = time.perf_counter()
        matches = [match for match_id in match_ids if (match := await self.matches.get(match_id)) is not None]
        moved = [
            (match, folded)
            for match, folded in zip(matches, await self.folds.load_many(matches, known), strict=True)
            if folded.version > self._projected.get(match.id, 0)
        ]
        if not moved:
            return
        written = list(await asyncio.gather(*(self._views_at(match, folded) for match, folded in moved)))
        notice = notices.encode(
            [
                notices.Written(views.match_id, views.version, folded.last_time, views.fields)
                for views, (_, folded) in zip(written, moved, strict=True)
            ]
        )
        results = [match.game.result(folded.state) for match, folded in moved]
        live = [
            ["ZADD", keys.live(match.game.id), repr(folded.last_time), match.id]
            for (match, folded), result in zip(moved, results, strict=True)
            if result is None
        ]
        if self.tails_in_claim:  # the projector's keys beside the views: listed in the views' write
            await self.store.write_views(written, keys.NOTICES, notice, live)
        else:  # on the queue's Redis, beside the views' write: neither waits for the other
            await asyncio.gather(self.store.write_views(written, keys.NOTICES, notice), self._exchange(live))
        finished = [
            (match, folded, result)
            for (match, folded), result in zip(moved, results, strict=True)
            if result is not None
        ]
        if finished:
            await self._finished(finished)
        metrics.PROJECTION.observe(time.perf_counter() - started)
        for match, folded in moved:
            if self.timeouts is not None and match.clock is not None:
                await self.timeouts.track(match, folded)
            if self.timeouts is not None and deserted(match, folded.state):
                await self.timeouts.deserted(match, time.time())
            if self.ratings is not None and match.players and (counted := rated(match, folded)) is not None:
                await self.ratings.record(match.game.id, counted)
        turns = [(match, views, folded.state) for (match, folded), views in zip(moved, written, strict=True)]
        await asyncio.gather(
            *(self._bots(match, views, state) for match, views, state in turns if match.bots or bot_seats(state))
        )
        if len(self._projected) > 100_000:
            self._projected.clear()  # only a cache: a miss costs one recompute of the views
        for views in written:
            log.debug("projected", match_id=views.match_id, version=views.version)
            self._projected[views.match_id] = views.version  # only now: a failed bot turn is redone

    async def _exchange(self, commands: list[list[Any]]) -> None:
        for answer in await self.link.exchange(commands) if commands else ():
            reply(answer)

    async def _finished(self, finished: list[tuple[Match, Folded, Any]]) -> None:
        """List the finished matches for the archiver (once each: a redo does not count one twice)."""
        now = time.time()
        commands: list[list[Any]] = []
        for match, _, _ in finished:
            commands.append(["ZREM", keys.live(match.game.id), match.id])
            commands.append(["ZADD", keys.FINISHED, "NX", repr(now), match.id])
            # its creators' open-matches slots, given back (beside the queue, as the listings)
            commands += [["ZREM", keys.open_matches(holder), match.id] for holder in match.quota]
        answers = iter([reply(answer) for answer in await self.link.exchange(commands)])  # every one checked
        for match, folded, result in finished:
            _, listed, *_ = (next(answers) for _ in range(2 + len(match.quota)))
            if listed:  # listed just now: a redo does not count it twice
                if result.details.get("ended") == "abandoned":  # services/commands/timeouts.py
                    metrics.ABANDONED.labels(match.game.id).inc()
                    log.info("match_abandoned", match_id=match.id, game=match.game.id, version=folded.version)
                    continue
                metrics.FINISHED.labels(match.game.id).inc()
                winners = list(result.winners)
                log.info(
                    "match_finished", match_id=match.id, game=match.game.id, version=folded.version, winners=winners
                )

    async def _bots(self, match: Match, views: ViewsAt, state: Any) -> None:
        with logs.bind(match_id=match.id):
            await self.bots.play(match, views.version, views.fields, state)

    async def _views_at(self, match: Match, folded: Folded) -> ViewsAt:
        players = await self.seating.of(match, folded) if self.seating is not None else None
        views = all_views(match.game, match.id, folded.state, folded.version, match.setup.seats, players)
        return ViewsAt(match.id, folded.version, views)
