"""Command handling: decode, decide against the current fold, append conditionally, say what came of it
(services/commands/outcomes.py).

A conflict (another command appended first: normal in simultaneous phases) means: reload the
tail, decide again, a bounded number of times. A refused command appends nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Union, get_args

import msgspec

from domain.kernel import Command, Rng, RulesError
from domain.kernel.online import SERVICE_COMMANDS, Reclaim, bot_seats
from domain.kernel.undo import Undo, undo_for
from projections.chain import Cause
from projections.i18n import N_
from projections.receipts import receipt
from services.commands.folds import Folded, Folds, MatchLost
from services.commands.matches import Match
from services.commands.outcomes import Accepted, Contention, Ended, Outcome, Rejected, Stale, decode, encode
from services.commands.stale import unchanged_for
from services.commands.strict import MAX_VERSION, REFUSED, nesting_within
from services.ops import logs
from services.ops.limits import JSON_DEPTH
from services.ops.metrics import Metrics
from services.store.bucket import Bucket, RateLimited
from services.store.event_store import EventStore, seal
from services.store.idempotency import Idempotency
from services.store.outage import UNSURE
from services.store.rate_limits import RateLimits

log = logs.get("tavern.commands")


class BadCommand(Exception):
    """Not a command of this game (the gateway answers 400 bad_command)."""


_typed: dict[str, msgspec.json.Decoder] = {}  # game id -> a decoder of its commands
# game id -> a decoder of its commands with an expected_version, and each such command's own class
_versioned: dict[str, tuple[msgspec.json.Decoder, dict[type, type]]] = {}
_VERSION = Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION)] | None


def _with_version(command_type: Any) -> tuple[msgspec.json.Decoder, dict[type, type]]:
    """A decoder of the union's commands each with an ``expected_version`` member (a subclass of
    each command's Struct, the same tag), and the command class of each subclass."""
    own = {}
    for kind in get_args(command_type) or (command_type,):
        variant = msgspec.defstruct(kind.__name__, [("expected_version", _VERSION, None)], bases=(kind,))
        own[variant] = kind
    return msgspec.json.Decoder(Union[tuple(own)]), own  # noqa: UP007 (a union built at run time)


def decode_command(match: Match, body: bytes, depth: int = JSON_DEPTH) -> tuple[Command, int | None]:
    """The command and its ``expected_version``; BadCommand for anything msgspec refuses, or
    anything nested deeper than ``depth``."""
    if not nesting_within(body, depth):
        raise BadCommand(f"JSON nested more than {depth} deep")
    game = match.game
    # most commands: decoded straight into their Struct, not through a dict (a tenth of the
    # gateway's own CPU per command); anything refused is tried and worded by the path below
    try:
        if b"expected_version" not in body:
            decoder = _typed.get(game.id) or _typed.setdefault(game.id, msgspec.json.Decoder(game.command_type))
            return decoder.decode(body), None
        versioned, own = _versioned.get(game.id) or _versioned.setdefault(game.id, _with_version(game.command_type))
        sent = versioned.decode(body)
        kind: Any = own[type(sent)]  # a command Struct of the game's union
        return kind(**{name: getattr(sent, name) for name in kind.__struct_fields__}), sent.expected_version
    except REFUSED:
        pass
    try:
        raw = msgspec.json.decode(body)
        if not isinstance(raw, dict):
            raise BadCommand("a command is a JSON object")
        expected = raw.pop("expected_version", None)
        if expected is not None and (type(expected) is not int or not 0 <= expected <= MAX_VERSION):
            raise BadCommand("expected_version is a non-negative integer")
        return msgspec.convert(raw, match.game.command_type), expected
    except REFUSED as problem:
        raise BadCommand(str(problem) or type(problem).__name__) from problem


class Handler:
    def __init__(
        self,
        store: EventStore,
        folds: Folds,
        metrics: Metrics,
        attempts: int,
        projection: Any,
        wake: Callable[[str], Awaitable[bool]] | None = None,
        rate: RateLimits | None = None,
    ) -> None:
        self.store = store
        self.rate = rate  # the buckets a client's command takes from when it reads before its append
        self.wake = wake  # brings a hibernated match back: whether Redis holds it now (hibernation.py)
        self.folds = folds
        self.metrics = metrics
        self.attempts = attempts
        # the time written on each entry, which the clocks fold: a test hands it simulated days
        self.now: Callable[[], float] = time.time
        # .appended(match_id, marked): after an append, make sure the projection will run
        self.projection = projection
        # match id -> the fold after the newest command of this process still being appended.
        # The next command is decided after it rather than waiting: simultaneous seats' commands
        # leave in the same pipeline, chained (append.lua checks the hash they follow), instead
        # of one round trip each behind a lock. If one fails, those chained after it fail too
        # and are decided again on a fresh read.
        self._tips: dict[str, Folded] = {}
        # match id -> set once the newest of those appends has its answer: a command sent for a
        # version that one moves past waits for it rather than being decided and appended in vain
        self._landing: dict[str, asyncio.Event] = {}

    def forget_tips(self) -> None:
        self._tips.clear()
        self._landing.clear()

    async def submit(
        self,
        match: Match,
        seat: int,
        command: Command,
        expected: int | None = None,
        idempotency: str | None = None,
        system: bool = False,
        exact: bool = False,
        limit: Bucket | None = None,
    ) -> Outcome:
        """``system``: sent by the service itself (a bot seat's move, a timeout), not by a client.
        ``exact``: a stale ``expected_version`` is Stale even where the seat's options are
        unchanged (services/commands/stale.py); always so for the service's own commands, whose
        version is the one their due time was judged at (a timeout, an abandonment).
        ``limit``: the sender's bucket, from which the command takes one token in its first call
        on the match's shard that reads or appends its log (the append's own call when the fold
        kept is current): RateLimited, nothing appended, when it holds none. A command decided
        from what this process holds (a stale 409) takes none: the gateway holds those."""
        command_id = secrets.token_hex(8)
        with logs.bind(match_id=match.id, seat=seat, command_id=command_id):
            outcome = await self._awake(
                match, seat, command, expected, idempotency, command_id, system, exact or system, [limit]
            )
            kind = type(command).__name__
            if isinstance(outcome, Accepted):
                self.metrics.command(match.game.id, kind, "accepted")
                log.info("command", type=kind, outcome="accepted")
            else:
                said = "refused" if isinstance(outcome, Rejected) else "conflict"
                self.metrics.command(match.game.id, kind, said, outcome.code)
                log.info("command", type=kind, outcome=said, code=outcome.code)
            return outcome

    async def _awake(self, match: Match, *decision: Any) -> Outcome:
        """``_submit``, and once more if the match was found asleep and woken (its log or meta gone
        from Redis: services/commands/hibernation.py): the command is decided on the log woken."""
        try:
            outcome = await self._submit(match, *decision)
        except MatchLost:
            if not await self._woken(match):
                raise
        else:
            if not isinstance(outcome, Ended) or not await self._woken(match):
                return outcome
        return await self._submit(match, *decision)

    async def _woken(self, match: Match) -> bool:
        return self.wake is not None and not (match.ended or match.archived) and await self.wake(match.id)

    async def _submit(
        self,
        match: Match,
        seat: int,
        command: Command,
        expected: int | None,
        idempotency: str | None,
        command_id: str,
        system: bool,
        exact: bool,
        limit: list[Bucket | None],
    ) -> Outcome:
        # limit[0]: the bucket, until a call has taken its token (then None: one a command, however
        # many reads and appends its conflicts cost; a list, as a woken match's second try shares it)
        if match.ended or match.archived:
            return Ended()
        idem_key = Idempotency(match.id, seat, idempotency) if idempotency is not None else None
        if idem_key is not None:
            prior = await self.store.recall(idem_key)
            if prior is not None:
                # the first try's append may have been cut off before it marked its match dirty
                await self.projection.appended(match.id)
                return await self._replayed(idem_key, prior)
        if isinstance(command, SERVICE_COMMANDS) and not system:
            return Rejected("system_command", N_("timeouts and abandonment are the service's to send"))
        game = match.game
        cause = Cause(command_id, seat, idempotency, command)
        # First try the cached fold without reading Redis: the append is conditional anyway, and
        # with one gateway per match the cache is usually current. Anything it says no to is
        # checked again against a fresh read before the client hears it.
        folded = self._tips.get(match.id) or self.folds.cached(match)
        for _ in range(self.attempts):
            fresh = folded is None or (expected is not None and expected > folded.version)
            if folded is None or fresh:  # (the same test, said so that the type checker sees folded set)
                await self._take(limit)
                try:
                    folded = await self.folds.load(match)
                except MatchLost:
                    self._tips.pop(match.id, None)
                    raise
            if expected is not None and expected != folded.version:
                # a version this process has seen passed is answered from what it knows, without
                # reading Redis: decided anyway if the seat's options are the same, else Stale
                # naming the newest version appended (never an append still in flight)
                then = None if exact or expected > folded.version else self.folds.at(match, expected)
                if then is None or not unchanged_for(game, seat, then.state, folded.state):
                    known = folded if fresh else self.folds.cached(match)
                    if not fresh and known is not None and expected == known.version:
                        # what the client saw, with appends of this process in flight after it
                        # (a seat's options changed by them, or every stale version refused):
                        # their answers say, with no fold, decision or append of its own, whether
                        # it is stale (they landed) or is decided on what it saw (they failed)
                        await self._landing[match.id].wait()  # (folded is the newest in flight's fold)
                        folded = self._tips.get(match.id) or self.folds.cached(match)
                        continue
                    elif known is None or (not fresh and expected > known.version):
                        folded = None  # past what this process knows: read what is appended
                        continue
                    else:
                        return Stale(known.version)
            deciding = time.perf_counter()
            try:
                if folded.version == 0 and match.lobby == "open":  # docs/online-play.md
                    raise RulesError("waiting_for_players", "the match starts once its open seats are filled")
                if folded.version == 0:  # the opening waits for the seats' entropy (docs/AUDIT.md)
                    raise RulesError("waiting_for_entropy", "the match opens once every seat has sent its entropy")
                if (not system and seat in bot_seats(folded.state) and not isinstance(command, Reclaim)
                        and game.result(folded.state) is None):
                    raise RulesError("seat_taken_over", "a bot plays this seat now (it left, conceded or timed "
                                     "out): send Reclaim to take it back, unless it conceded")
                # an undo takes back the log's last command: the service names its events (domain/kernel/undo.py)
                decided = undo_for(folded.last_move, seat) if isinstance(command, Undo) else command
                events = game.decide(folded.state, decided, seat, Rng(folded.seed, folded.version))
            except RulesError as refusal:
                self.metrics.decide_seconds.observe(time.perf_counter() - deciding)
                if not fresh:
                    folded = None
                    continue
                rejected = Rejected(refusal.code, refusal.message, refusal.template, refusal.params)
                if idem_key is None:
                    return rejected
                return decode(await self.store.remember(idem_key, encode(rejected)))
            self.metrics.decide_seconds.observe(time.perf_counter() - deciding)
            records = seal(events, folded.version + 1, folded.last_hash,
                           cause if decided is command else msgspec.structs.replace(cause, command=decided), self.now())
            version = folded.version + len(records)
            shown = [seen for event in events if (seen := game.event_view(event, seat)) is not None]
            last_hash = records[-1].hash if records else folded.last_hash
            accepted = Accepted(version, shown, receipt(match.seed, match.id, version, last_hash))
            after = self.folds.apply(match, folded, records)
            # the next command is decided after this one, unless this one was decided behind an
            # append in flight (an expected version): it fails if that one lands, so nothing chains on it
            tip = self._tips.get(match.id)
            chained = tip is None or tip is folded
            landing = asyncio.Event() if chained else None
            if landing is not None:
                self._tips[match.id] = after
                self._landing[match.id] = landing
            started = time.perf_counter()
            try:
                appended = await self.store.append(
                    match.id, folded.version, records, idem_key, encode(accepted), limit[0]
                )
            except UNSURE:
                # the append may have run (a reply lost, a WAIT short of replicas): have the match
                # projected in case it did, or its views would wait for the next command
                with contextlib.suppress(*UNSURE):
                    await self.projection.appended(match.id)
                raise
            finally:
                if self._tips.get(match.id) is after:
                    del self._tips[match.id]  # the newest in flight is done
                if landing is not None:  # its waiters (any that came while it was the newest)
                    if self._landing.get(match.id) is landing:
                        del self._landing[match.id]
                    landing.set()
            self.metrics.append_seconds.observe(time.perf_counter() - started)
            if appended.outcome == "ok":
                self.folds.keep(match, after)
                await self.projection.appended(match.id, appended.marked)
                return accepted
            if chained:
                self._tips.pop(match.id, None)  # those decided after this one fail as well
            if appended.outcome == "limited":  # nothing appended
                raise RateLimited(appended.version)
            if appended.outcome == "duplicate":
                assert idem_key is not None, "append.lua finds a duplicate only under a key"
                return await self._replayed(idem_key, appended.prior)
            if appended.outcome == "ended":  # abandoned (closed by the archiver) or archived (append.lua)
                return Ended()
            folded = None  # a conflict: reload the tail and decide again
            if expected is not None:
                return Stale(appended.version)
        return Contention()

    async def _take(self, limit: list[Bucket | None]) -> None:
        """A token from the bucket ``limit`` holds, unless a call took it already (then it holds None)."""
        if limit[0] is not None and self.rate is not None:
            wait_ms = await self.rate.take([limit[0]])
            if wait_ms:
                raise RateLimited(wait_ms)
            limit[0] = None

    async def _replayed(self, idem_key: Idempotency, kept: bytes) -> Outcome:
        """A kept outcome, answered again: an acceptance only once replicated as a fresh append is
        (EventStore.confirm); a refusal changed nothing, and a retry after its loss decides it again."""
        outcome = decode(kept)
        if isinstance(outcome, Accepted):
            await self.store.confirm(idem_key, kept)
        return outcome
