"""The composition root: one process's connections (services/store/connections.py), every store
repository, the caches, the handler, projector, archiver, bots and the projector's upkeep, built
once from its Settings. It only wires: the gateway's lifespan and ``tavern worker`` take what
they need from it and build nothing of their own; below the entrypoints, nothing imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from domain.games import game_ids
from services.commands import egress
from services.commands.bots import Bots
from services.commands.challenges import Challenges
from services.commands.chat import Chat
from services.commands.folds import Folds
from services.commands.handling import Handler
from services.commands.hibernation import Hibernation
from services.commands.history import History
from services.commands.inbox import Inbox
from services.commands.lobby import Lobby
from services.commands.matches import Matches
from services.commands.matchmaker import Matchmaker
from services.commands.notifications import Notifier
from services.commands.open_matches import OpenMatches
from services.commands.players import Players
from services.commands.profiles import Profiles
from services.commands.ratings import Ratings
from services.commands.seating import Seating
from services.commands.timeouts import Timeouts
from services.commands.tournaments import Tournaments
from services.ops import metrics, signing
from services.ops.metrics import Metrics
from services.ops.settings import DEFAULT_VAPID_KEY, Settings
from services.ops.vapid import vapids
from services.projector import jobs
from services.projector.archiver import Archiver
from services.projector.projector import Projector
from services.projector.upkeep import SWEEP_EVERY_S, Upkeep
from services.store import archive, rq_workers
from services.store.bench_floor import BenchFloor
from services.store.challenges import ChallengeBook
from services.store.chat import ChatLog
from services.store.connections import Connections, EmbeddedServer
from services.store.deadlines import Deadlines
from services.store.delivery_jobs import DeliveryJobs
from services.store.drain_jobs import DrainJobs
from services.store.event_store import EventStore
from services.store.evictions import Evictions
from services.store.hibernation import Beds
from services.store.inbox import Inboxes
from services.store.lifecycle import Lifecycle
from services.store.lobby import LobbyListings
from services.store.match_meta import MatchMetas
from services.store.matchmaking import Pools
from services.store.moderation import OpenReports
from services.store.notices import Notices
from services.store.notifications import NotificationBook
from services.store.outage import REDIS_DOWN
from services.store.partitions import Partitions, Shares
from services.store.played import PlayedMatches
from services.store.player_events import PlayerEvents
from services.store.players import PlayerRegistry
from services.store.presence import Presence
from services.store.projector_queue import ProjectorQueue
from services.store.quota import QuotaSlots
from services.store.rate_limits import RateLimits
from services.store.ratings import RatingBook
from services.store.seat_entropy import SeatEntropy
from services.store.tournaments import TournamentBook
from services.store.unmarked import Unmarked
from services.store.view_writes import ViewWrites

__all__ = ["REDIS_DOWN", "Runtime"]  # REDIS_DOWN: services/store/outage.py's, as the gateway imports it


class Runtime:
    def __init__(self, settings: Settings, server: EmbeddedServer | None = None) -> None:
        self.settings = settings
        self.connections = wired = Connections(settings, server)
        self.events: Any = wired.events  # the raw clients, for the tests' looks into Redis
        self.queue_async: Any = wired.queue
        # the projector's notices to the gateways' streams, and the views they announce
        self.notices = Notices(wired.events, settings.redis_timeout_s, wired.events_link)
        # the projector's RQ jobs, on each queue instance
        self.jobs = [DrainJobs(rq, jobs.drain_job, index) for index, rq in enumerate(wired.rqs)]
        self.server = wired.server  # the embedded Redis, which another Runtime of this process may share
        same = wired.same
        self.metrics = Metrics()
        metrics.prime(game_ids())
        self.store = EventStore(
            wired.events,
            settings.idempotency_ttl_s,
            marks_dirty=same,
            link=wired.events_link,
            refusal_ttl_s=settings.idempotency_refusal_ttl_s,
            acked=wired.acked,
        )
        # the projector's bookkeeping, a match's on one queue instance by its hash; where it sits
        # beside the logs, a claim brings their tails along
        self.projector_queues = [ProjectorQueue(q.client, q.link, q.waiter, tails=same) for q in wired.queues]
        self.projector_queue = self.projector_queues[0]  # the workers' heartbeats are kept on the first
        # the sets every process polls, in partitions: each process sweeps its share, in two roles
        # (every process's sweeper, every second; the workers' archiver, every TAVERN_ARCHIVE_EVERY_S),
        # whose leases, renewed as they sweep, last three sweeps at least
        partitions = Partitions(settings.partitions)

        def shares(role: str, every_s: float) -> Shares:
            return Shares(wired.events, partitions, role, max(settings.lease_s, 3 * every_s), wired.events_link)

        self.sweeping = shares("sweep", SWEEP_EVERY_S)
        self.archiving = shares("archive", settings.archive_every_s)
        self.lifecycle = Lifecycle(wired.events, partitions, self.archiving, settings.asleep_buckets, wired.events_link)
        self.upkeep = Upkeep(
            self.projector_queues,
            self.lifecycle,
            [
                Unmarked(wired.events, partitions, self.sweeping, wired.events_link, index)
                for index in range(len(wired.queues))
            ],
            self.jobs,
            wired.run_id,
            self.forget_all,
            apart=not same,
        )
        self.appended = self.upkeep.appended  # after an append: the handler's projection hook, and the gateway's
        # on the shards (a bucket under the hash tag of whom it counts), never on the queue's Redis
        self.rate_limits = RateLimits(wired.events, wired.events_link)
        self.bench_floor = BenchFloor(wired.events)  # the benchmark's yardstick (TAVERN_BENCH=1 only)
        self.archive = archive.opened(
            settings.archive_dir, settings.archive_s3_bucket, settings.archive_s3_endpoint, settings.archive_s3_prefix
        )
        # the open-matches quota's slots lapse once a match would have been ended as idle, and are
        # given back to a full creator once their match has been idle TAVERN_OPEN_MATCHES_IDLE_S
        # idle matches being played leave Redis for the archive until next read (hibernation.py)
        self.hibernation = None if self.archive is None else Hibernation(
            Beds(wired.events, wired.events_link, wired.acked),
            self.lifecycle,
            self.archive,
            self.sweeping,
            settings.hibernate_after_s,
            settings.archive_every_s,
            self.appended,
        )
        wake = None if self.hibernation is None else self.hibernation.wake
        metas = MatchMetas(wired.events)
        quota = OpenMatches(
            QuotaSlots(wired.events, wired.events_link),
            self.lifecycle,
            metas,
            settings.idle_limit_s,
            settings.limits.open_matches_idle_s,
        )
        self.matches = Matches(
            metas, SeatEntropy(wired.events), self.store, archived=self.archive, open_matches=quota, wake=wake
        )
        self.folds = Folds(self.store, on_lost=self.matches.forget)
        self.players = Players(PlayerRegistry(wired.events, partitions, wired.events_link))
        listings = LobbyListings(wired.events, partitions, self.archiving, wired.events_link)
        player_events = PlayerEvents(wired.events, wired.events_link)
        self.inbox = Inbox(Inboxes(wired.events, wired.events_link))
        self.lobby = Lobby(listings, metas, self.matches, self.players, self.folds, player_events)
        self.challenges = Challenges(ChallengeBook(wired.events), player_events, self.players, self.matches, listings)
        self.history = History(self.matches, self.store, self.folds)
        # table chat: beside the matches' keys, never in their logs
        listed = OpenReports(wired.events, partitions, wired.events_link)
        self.chat = Chat(ChatLog(wired.events, wired.events_link), settings.limits.chat_chars, self.archive, listed)
        # signs a finished match's export (gateway) and archive (worker): one key per deployment
        self.signer = signing.signing_key(settings.signing_key, settings.signing_key_file)
        self.handler = Handler(
            self.store, self.folds, self.metrics, settings.append_attempts, self.upkeep, wake, self.rate_limits
        )
        self.bots = Bots(self.handler)
        deadlines = Deadlines(wired.events, partitions, self.sweeping, wired.events_link)
        self.timeouts = Timeouts(deadlines, self.matches, self.folds, self.handler)
        self.archiver = None if self.archive is None else Archiver(
            Evictions(wired.events),
            self.lifecycle,
            self.matches,
            self.store,
            self.archive,
            settings.archive_grace_s,
            settings.idle_limit_s,
            self.timeouts.abandon_idle,
            self.lobby.close_waiting,
            self.signer,
            self.chat.archived,
        )
        self.seating = Seating(self.players)
        self.ratings = Ratings(RatingBook(wired.events, partitions, wired.events_link))
        self.profiles = Profiles(PlayedMatches(wired.events, wired.events_link), self.players, self.ratings, self.lobby)
        # every process forms tables from the pools in its upkeep's sweep (docs/matchmaking.md)
        pools = Pools(wired.events, wired.events_link)
        self.matchmaker = Matchmaker(pools, self.ratings, self.matches, listings, player_events, self.lobby.close)
        # notifications (docs/notifications.md): their deliveries' due times swept with the clocks'
        self.notifier = Notifier(
            NotificationBook(wired.events, partitions, self.sweeping, wired.events_link),
            self.players,
            self.presence(1.0).read,
            vapids(settings.vapid_key or DEFAULT_VAPID_KEY, settings.vapid_subject),
            settings.notify_lease_s,
            settings.notify_retry_s,
            egress.networks(settings.notify_networks),
        )
        self.notifier.jobs = DeliveryJobs(wired.notify_rq, jobs.deliver_job)
        self.tournaments = Tournaments(
            TournamentBook(wired.events, partitions, self.sweeping, wired.events_link),
            self.matches,
            self.folds,
            self.ratings,
            listings,
            self.players,
            player_events,
            self.archive,
            settings.archive_grace_s,
        )
        self.projector = Projector(
            self.matches,
            self.folds,
            self.projector_queue,
            self.lifecycle,
            ViewWrites(self.store, self.lifecycle),
            self.bots,
            settings.lease_s,
            settings.tick_s,
            settings.min_tick_s,
            seating=self.seating,
            timeouts=self.timeouts,
            ratings=self.ratings,
            inbox=self.inbox,
            notifier=self.notifier,
            tournaments=self.tournaments,
            profiles=self.profiles,
        )
        self._delivering: rq_workers.Serving | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._archiving: asyncio.Task[None] | None = None

    def presence(self, ttl_s: float) -> Presence:
        """The gateway's record of its open streams' seats (a gateway of its own name), each
        lapsing ``ttl_s`` after its last refresh."""
        wired = self.connections
        return Presence(wired.events, wired.events_link, secrets.token_hex(6), ttl_s)

    def host_jobs(self) -> None:
        """Make this runtime the one this process's RQ jobs run on (after ``start``)."""
        assert self.loop is not None, "start() first"
        jobs.host(jobs.Host(self.loop, self.projector, self.projector_queues, self.jobs, self.notifier))

    def stop_jobs(self) -> None:
        """The process is stopping: a drain job waiting for work lets go now (thread-safe: a flag)."""
        self.projector.stopping = True

    def start_thread_worker(self) -> rq_workers.Serving:
        """An RQ worker in a thread of this process (the gateway's, on the embedded default)."""
        self.host_jobs()
        wired = self.connections
        rq = wired.rq_queue(wired.rq_connection(rq_workers.ThreadWorker.dequeue_s + 10))
        deliveries = wired.rq_queue(wired.rq_connection(rq_workers.ThreadWorker.dequeue_s + 10), notify=True)
        self._delivering = rq_workers.start_delivery_worker(deliveries)
        return rq_workers.start_thread_worker(rq, self.projector_queue, self.stop_jobs)

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.ratings.migrate(game_ids())
        if self.hibernation is None:
            self.upkeep.start(self.duty)
        else:
            self.upkeep.start(self.duty, self.hibernation.tick)

    async def duty(self, now: float) -> None:
        """Every process's part in its upkeep's sweep, each second: the clocks' deadlines, the
        matchmaker's tables, the notifications due, the tournaments' deadlines (hibernation, where it
        is on, is a duty of its own)."""
        await self.timeouts.sweep(now)
        await self.matchmaker.sweep(now)
        await self.notifier.sweep(now)
        await self.tournaments.sweep(now)

    def start_archiving(self) -> None:
        """In a worker: archive and evict finished matches, end idle ones (projector/archiver.py)."""
        if self.archiver is not None:
            assert self.loop is not None, "start() first"
            self._archiving = self.loop.create_task(self.archiver.run_forever(self.settings.archive_every_s))

    async def stop(self) -> None:
        self.upkeep.stop()
        if self._delivering is not None:
            self._delivering.stop()
            await asyncio.to_thread(self._delivering.thread.join, 5)
        if self._archiving is not None:
            self._archiving.cancel()
        for shares in (self.sweeping, self.archiving):
            with contextlib.suppress(*REDIS_DOWN):  # else the leases lapse by themselves
                await shares.leave()  # its share to the others at once, not after a lease
        await self.connections.close()

    def forget_all(self) -> None:
        """Empty the process's caches (its Redis restarted: they hold what it no longer does)."""
        self.matches.clear(known=self.folds.clear())  # any of them found gone: 410 once
        self.handler.forget_tips()
