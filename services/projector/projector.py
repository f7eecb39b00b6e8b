"""The projector: fold each dirty match from where the views stand and write every seat's view
and the spectator's together with the new checkpoint (promote.lua), then publish each match's
notice on its own channel (services/store/notices.py: its version, no view; only the gateways
streaming it hear it): for a whole batch of claimed matches, one round trip claims them (and,
where their logs live on the queue's Redis, brings their tails along; else one more reads them)
and one writes their views.

Coalescing spreads a job's cost over many events and matches: an append marks its match dirty
(services/store/projector_queue.py: a busy match is marked once however many commands arrive)
and wakes the drain job that always runs on its queue instance, which drains up to ``batch``
dirty matches at a time, those dirty longest first, as long as there are any, for up to its budget.
A match is claimed under its job's lease, by one live job at a time (one marked dirty again
meanwhile is left to that job): a worker killed mid-projection leaves the claim to expire, the
next job puts it back at the front and projects it again from the log; the views of a version
are a pure function of the log, so the redo writes the same views.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import Any

from domain.kernel import undo
from domain.kernel.online import bot_seats
from projections.views import all_views
from services.commands import turns as seat_turns
from services.commands.bots import Bots
from services.commands.folds import Folded, Folds, Tail
from services.commands.inbox import Inbox
from services.commands.matches import Match, Matches
from services.commands.notifications import Notifier
from services.commands.profiles import Profiles
from services.commands.ratings import Ratings, rated
from services.commands.seating import Seating
from services.commands.timeouts import Timeouts, deserted
from services.commands.tournaments import Tournaments
from services.ops import logs, metrics
from services.projector.turns import seats_turned_due
from services.store import notices
from services.store.event_store import ViewsAt
from services.store.lifecycle import Ended, Lifecycle, Played
from services.store.projector_queue import ProjectorQueue
from services.store.view_writes import ViewWrites

log = logs.get("tavern.projector")
# A drain job's life: it projects, and waits for work, this long; then the next mark queues
# another (RQ's bookkeeping of a job, ~57 Redis commands, is paid once per budget, not per command)
DRAIN_BUDGET_S = 20.0
# how long a job without work waits before it asks whether it is the only one (then it stays)
RESIDENT_CHECK_S = 0.2


@dataclass(frozen=True, slots=True)
class Drained:
    again: bool  # the budget ran out with work left: queue the next drain job
    helper: bool  # a full batch was seen: queue one more job, for another worker to share the load


class Projector:
    def __init__(
        self,
        matches: Matches,
        folds: Folds,
        queue: ProjectorQueue,
        lifecycle: Lifecycle,
        writes: ViewWrites,
        bots: Bots,
        lease_s: float = 5.0,
        tick_s: float = 0.0,
        min_tick_s: float = 0.0,
        batch: int = 64,
        parallel: int = 4,
        seating: Seating | None = None,
        timeouts: Timeouts | None = None,
        ratings: Ratings | None = None,
        inbox: Inbox | None = None,
        notifier: Notifier | None = None,
        tournaments: Tournaments | None = None,
        profiles: Profiles | None = None,
    ) -> None:
        self.profiles = profiles  # a finished match on its players' profiles, off the lobby's live list
        self.notifier = notifier  # tells registered players of their turns, ends and clocks
        self.ratings = ratings  # counts each rated match once it has finished
        self.inbox = inbox  # each registered player's matches, its turn or not
        # match id -> its turns at the version this process last projected (a miss writes them again)
        self._seen_turns: dict[str, seat_turns.Turns] = {}
        self.tournaments = tournaments  # a tournament's table ended: its result recorded, its tournament advanced
        self.seating = seating  # the envelope's players (names, bots, streams, clocks)
        self.timeouts = timeouts  # keeps each clocked match's next deadline
        self.parallel = parallel  # drain jobs at once, at most, when there is a backlog
        self.bots = bots
        self.matches = matches
        self.folds = folds
        self.queue = queue
        self.lifecycle = lifecycle
        self.writes = writes
        self.lease_s = lease_s
        self.tick_s = tick_s
        self.min_tick_s = min_tick_s
        self.batch = batch
        # match id -> the version this process last wrote and its entry's hash
        self._projected: dict[str, tuple[int, str]] = {}
        self.stopping = False  # the process is stopping: a job waiting for work lets go at once

    async def drain(
        self, queue: ProjectorQueue | None = None, budget_s: float = DRAIN_BUDGET_S, linger_s: float | None = None
    ) -> Drained:
        """Project ``queue``'s dirty matches (this projector's own by default) until none is left
        for ``linger_s`` (None: a moment, then, if it is the only job left, until the budget is
        spent) or the budget is spent.

        Appends queue no jobs: one always runs per queue instance, and under load one RQ job
        projects thousands of events of many matches, instead of paying RQ's ~57 Redis commands
        and a dequeue per command. A job waits for work on the wake-up for the rest of its budget
        (in waits of a third of a lease, each ending in a claim that keeps its slot live), so a
        quiet server too keeps one job for many commands; the last to let go queues the next; a
        helper (``linger_s`` given) lets go sooner."""
        queue = queue or self.queue
        token = secrets.token_hex(8)
        deadline = time.monotonic() + budget_s
        every_s = self.lease_s / 3  # the slot renewed, lapsed claims put back, at least this often
        renewed_at = -every_s
        idle_since: float | None = None
        resident = False  # the one job of its queue instance, waiting for work through its budget
        backlog = False
        projected: list[str] = []  # claimed and done with: the next claim lets them go
        while True:
            step = time.monotonic()
            renew = step - renewed_at >= every_s
            claim = await queue.claim(token, self.lease_s, self.batch, projected, renew=renew)
            renewed_at = step if renew else renewed_at
            projected = claim.match_ids
            if projected:
                idle_since = None
                claimed_at = time.time()
                for since in claim.since:
                    if since:  # 0: put back after a lapsed claim, its wait unknown
                        metrics.PROJECTOR_WAIT.observe(max(0.0, claimed_at - since))
                backlog = backlog or len(projected) == self.batch
                # the tails the claim brought (none where the logs live apart from the queue)
                known = {match_id: Tail(after, records) for match_id, (after, records) in claim.tails.items()}
                await self.project(projected, known)
                if time.monotonic() > deadline:
                    running = await queue.stop(token)
                    return Drained(again=True, helper=backlog and running < self.parallel)
                # Under load, wait out the tick before the next claim: the commands that arrive
                # meanwhile share one projection and one view per stream. The tick grows with the
                # load (the share of a full batch this step claimed): few busy matches are
                # projected almost at once, their latency being the cycle of every player; many
                # wait up to the whole tick, where the CPU saved matters more; none waits less than
                # the shortest tick, below which steps of a match or two would cost the worker
                # more than they save. When idle, a command is projected at once (the first claim
                # after the wake-up does not wait). A step short of a full batch then waits for a
                # wake-up (a mark meanwhile left one) rather than claiming at once.
                await asyncio.sleep(self.tick(len(projected)) - (time.monotonic() - step))
                if len(projected) == self.batch:
                    continue
                if claim.others and linger_s is None and await queue.retire(token):
                    # no backlog, and another job runs: this one is surplus (a sweeper queued it as
                    # a job handed over to the next), and two would share every step to the end of
                    # their budgets, each claim paying for the other's (tests/service/projector/
                    # test_queue_calls.py); of two standing down at once, one stays
                    return Drained(again=False, helper=False)
            now = time.monotonic()
            idle_since = idle_since or now
            linger = linger_s if linger_s is not None else RESIDENT_CHECK_S
            until = deadline if resident else min(deadline, idle_since + linger)
            if now < until and not self.stopping:
                await queue.wait(token, min(until - now, every_s))  # a mark wakes us
                continue
            left = await queue.release(token)
            if left is None:
                continue  # a match turned dirty meanwhile
            if left == 0 and not self.stopping and now < deadline:
                # the only job left, a helper too (the job it helped may have stood down): it
                # stays, waiting for work for the rest of its budget (its slot back at its next
                # claim); where another holds a slot, that one stays
                resident, renewed_at, linger_s = True, -every_s, None
                continue
            # a job always runs: the last to let go at its budget's end queues the next (a
            # stopping process's leaves it to the sweepers)
            return Drained(again=left == 0 and not self.stopping, helper=False)

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
            # past what this process last wrote, or of another log (Redis came back older; the log
            # moved on from there): a fold at or below it is then written all the same
            if folded.version > 0 and self._projected.get(match.id) != (folded.version, folded.last_hash)
        ]
        if not moved:
            return
        # one match after another: a task each cost more than the seats' names they may wait for (cached
        # once read: services/commands/players.py)
        written = [await self._views_at(match, folded) for match, folded in moved]
        told = [notices.encode(at.version, folded.last_time) for at, (_, folded) in zip(written, moved, strict=True)]
        results = [match.game.result(folded.state) for match, folded in moved]
        played = [
            Played(match.game.id, match.id, folded.last_time)
            for (match, folded), result in zip(moved, results, strict=True)
            if result is None
        ]
        await self.writes.write(written, told, played)
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
            if match.players:  # whose turn it is, one answer for the inboxes and the notifications
                now = seat_turns.turns(match, folded)
                await self._turns(match, now)
                if self.notifier is not None:
                    await self._notify(self.notifier, match, folded, now)
        for match, folded, result in finished:
            if self.profiles is not None:
                await self.profiles.ended(match, folded, result)
            if self.tournaments is not None and match.players:
                try:
                    await self.tournaments.ended(match, result)
                except Exception:  # the views are written; the tournament's sweeper advances it soon all the same
                    log.exception("tournament_advance_failed", match_id=match.id)
        turns = [(match, views, folded.state) for (match, folded), views in zip(moved, written, strict=True)]
        await asyncio.gather(
            *(self._bots(match, views, state) for match, views, state in turns if match.bots or bot_seats(state))
        )
        if len(self._projected) > 100_000:
            self._projected.clear()  # only a cache: a miss costs one recompute of the views
            self._seen_turns.clear()
        for views, (_, folded) in zip(written, moved, strict=True):
            log.debug("projected", match_id=views.match_id, version=views.version)
            self._projected[views.match_id] = (views.version, folded.last_hash)  # only now: a failed bot turn is redone

    async def _finished(self, finished: list[tuple[Match, Folded, Any]]) -> None:
        """List the finished matches for the archiver (once each: a redo does not count one twice)."""
        # their creators' open-matches slots, given back (beside the queue, as the listings)
        listed = await self.lifecycle.finish([Ended(match.game.id, match.id, match.quota) for match, _, _ in finished])
        for (match, folded, result), first in zip(finished, listed, strict=True):
            if first:  # listed just now: a redo does not count it twice
                if result.details.get("ended") == "abandoned":  # services/commands/timeouts.py
                    metrics.ABANDONED.labels(match.game.id).inc()
                    log.info("match_abandoned", match_id=match.id, game=match.game.id, version=folded.version)
                    continue
                metrics.FINISHED.labels(match.game.id).inc()
                winners = list(result.winners)
                log.info(
                    "match_finished", match_id=match.id, game=match.game.id, version=folded.version, winners=winners
                )

    async def _turns(self, match: Match, now: seat_turns.Turns) -> None:
        """Whose turn it is now, compared with the version projected before: the inboxes of the
        match's registered players follow when it changed (services/commands/turns.py)."""
        if self.inbox is None:
            return
        if seat_turns.changed(self._seen_turns.get(match.id), now):
            await self.inbox.project(match, now)
        if now.finished:
            self._seen_turns.pop(match.id, None)
        else:
            self._seen_turns[match.id] = now

    async def _notify(self, notifier: Notifier, match: Match, folded: Folded, now: seat_turns.Turns) -> None:
        """The match's turns and end, told to its players (a failure here costs a notification, never
        a projection)."""
        try:
            turned = await seats_turned_due(notifier.book, match, now)
            await notifier.projected(match, folded, turned)
        except Exception:
            log.exception("notify_failed", match_id=match.id, version=folded.version)

    async def _bots(self, match: Match, views: ViewsAt, state: Any) -> None:
        with logs.bind(match_id=match.id):
            await self.bots.play(match, views.version, views.fields, state)

    async def _views_at(self, match: Match, folded: Folded) -> ViewsAt:
        players = await self.seating.of(match, folded) if self.seating is not None else None
        undoer = undo.undoer(match.game, folded.state, folded.last_move)
        views = all_views(match.game, match.id, folded.state, folded.version, match.setup.seats, players, undoer)
        return ViewsAt(match.id, folded.version, views)
