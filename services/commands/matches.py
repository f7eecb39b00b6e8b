"""Matches: creation (seed, commitment, tokens, opening events) and their immutable meta, cached."""

from __future__ import annotations

import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.games import online_game
from domain.kernel import Game, Rng, RulesError, Setup
from domain.kernel.rng import DERIVATION
from projections.chain import CHARTER_FORMAT, Cause, Charter, charter_text, commitment, digest, effective_seed
from services.commands import clocks, tokens
from services.commands.clocks import ClockOption
from services.commands.open_matches import Holder, OpenMatches
from services.ops import logs
from services.store import archive
from services.store.event_store import GENESIS, EventStore, seal
from services.store.match_meta import MatchMetas
from services.store.seat_entropy import SeatEntropy

log = logs.get("tavern.matches")
LOST_KEPT = 100_000  # ids of matches known before Redis restarted, kept to answer 410 once


@dataclass(frozen=True, slots=True)
class Match:
    id: str
    game: Game
    setup: Setup
    seed: str = field(repr=False)  # server-side only: never in a view, event, error or log line before the end
    seed_commitment: str
    bots: tuple[int, ...]
    bot_kind: str
    token_hashes: dict[str, str] = field(repr=False)  # holder ("0", ..., "spectator") -> SHA-256 of its token
    rules_version: int = 1  # the game's rules version when the match was created
    charter: str = ""  # what the match committed to at creation (projections/chain.py); "" before charters
    entropy_seats: tuple[int, ...] = ()  # the seats whose entropy the opening waits for (docs/AUDIT.md)
    # online play (docs/online-play.md): seat -> registered player id; a lobby match is "open" until
    # it starts (its meta changes until then, so it is not cached), then "started"
    players: dict[int, str] = field(default_factory=dict)
    reserved: dict[int, str] = field(default_factory=dict)  # open seats kept for these players (a rematch)
    lobby: str = ""
    open_seats: tuple[int, ...] = ()
    host: str = ""  # the player id of whoever created it with open seats
    invite: str = field(default="", repr=False)  # SHA-256 of a private match's invite code
    created: float = 0.0
    clock: ClockOption | None = None
    # "abandoned": closed by the meta's mark (an earlier version's idle limit; today an Abandoned
    # event ends it, services/commands/timeouts.py): it takes no more commands
    ended: str = ""
    archived: bool = False  # its log is in the archive, no longer in Redis (services/commands/history.py)
    quota: tuple[str, ...] = ()  # the holders whose open-matches quota it counts in (open_matches.py)
    unrated: bool = False  # created as not rated (a challenge's ``rated: false``, docs/bots.md): no rating moves
    # a public match's spectator token, public like the match: the lobby's live list and the
    # players' profiles answer it, to watch it live and replay it (docs/online-play.md); "" if private
    watch: str = field(default="", repr=False)

    @property
    def genesis(self) -> str:
        """The ``prev`` of entry 1: the charter's SHA-256."""
        return digest(self.charter.encode()) if self.charter else GENESIS

    def holder(self, token: str) -> str | None:
        return tokens.identify(token, self.token_hashes)


@dataclass(frozen=True, slots=True)
class Created:
    match: Match
    seat_tokens: list[str | None]  # None for an open seat (only whoever joins it gets its token) and a lobby's bot
    spectator_token: str
    invite: str | None = None  # a private match's invite code


def _bot_kind(game: Game, requested: str | None) -> str:
    if requested is None:
        return "greedy" if "greedy" in game.bots else "random"
    if requested != "random" and requested not in game.bots:
        raise RulesError("unknown_bot", "{game} has no {kind!r} bot", game=game.name, kind=requested)
    return requested


class Matches:
    """Creates matches and finds them; a match's meta never changes, so it is cached."""

    def __init__(
        self,
        metas: MatchMetas,
        entropy: SeatEntropy,
        store: EventStore,
        capacity: int = 8192,
        archived: archive.Archive | None = None,
        open_matches: OpenMatches | None = None,
        wake: Callable[[str], Awaitable[bool]] | None = None,
    ) -> None:
        self.metas = metas
        self.wake = wake  # brings a hibernated match back: whether Redis holds it now (hibernation.py)
        self.entropy = entropy  # the seats' contributions before the opening (entropy.py)
        self.store = store
        self.archive = archived
        self.open_matches = open_matches
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._capacity = capacity
        # the ids known when Redis restarted: one of them found gone is answered 410 once (then 404),
        # whether a request or the restart's own notice reached this process first
        self._lost: set[str] = set()

    async def create(
        self,
        game_id: str,
        seats: int,
        options: dict[str, Any],
        bots: list[int],
        bot_kind: str | None = None,
        seat_entropy: bool = False,
        open_seats: list[int] | None = None,
        host: str | None = None,
        private: bool = False,
        clock: dict[str, Any] | None = None,
        reserved: dict[int, str] | None = None,
        holders: tuple[Holder, ...] = (),
        rated: bool = True,
        public: bool | None = None,
    ) -> Created:
        """A new match; with ``holders``, once it has a slot of each of their open-matches quotas
        (else ``Refused`` 429, and nothing written). ``public`` (by default: it has open seats and
        no invite, as the lobby's, the matchmaker's and the tournaments' have) makes it watchable."""
        game, quota = online_game(game_id), self.open_matches
        setup = game.setup(seats, options)
        clock_option = clocks.option(clock)
        if any(not 0 <= seat < seats for seat in bots):
            raise RulesError("bad_bots", "bots must name seats 0 to {last}", last=seats - 1)
        lobby = _lobby(seats, bots, open_seats or [], host, private, seat_entropy, set(reserved or {}))
        seed = secrets.token_hex(32)
        # a classic creation hands its creator every seat; with open seats the host holds its own
        # seat only: a bot seat has no token (the service plays it), so no answer can carry one
        held = set(range(seats)) - set(lobby.open_seats) - (set(bots) if lobby.open_seats else set())
        seat_tokens = [tokens.new_token() if seat in held else None for seat in range(seats)]
        spectator = tokens.new_token()
        hashes = {str(seat): tokens.digest(token) for seat, token in enumerate(seat_tokens) if token is not None}
        hashes[tokens.SPECTATOR] = tokens.digest(spectator)
        match_id = secrets.token_hex(8)
        # with seat entropy the opening deal waits for every played (not bot) seat's contribution
        waits_for = sorted(set(range(seats)) - set(bots)) if seat_entropy else []
        charter = Charter(
            CHARTER_FORMAT,
            match_id,
            game.id,
            game.rules_version,
            seats,
            setup.options,
            commitment(seed),
            DERIVATION,
            waits_for,
        )
        match = Match(
            id=match_id,
            game=game,
            setup=setup,
            seed=seed,
            seed_commitment=charter.seed_commitment,
            bots=tuple(sorted(set(bots))),
            bot_kind=_bot_kind(game, bot_kind),
            token_hashes=hashes,
            rules_version=game.rules_version,
            charter=charter_text(charter),
            entropy_seats=tuple(waits_for),
            players=lobby.players,
            lobby="open" if lobby.open_seats else "",
            open_seats=lobby.open_seats,
            host=host or "",
            reserved={seat: player for seat, player in (reserved or {}).items() if seat in lobby.open_seats},
            invite=tokens.digest(lobby.invite) if lobby.invite else "",
            created=time.time(),
            clock=clock_option,
            quota=tuple(held.name for held in holders if held.quota > 0) if quota is not None else (),
            unrated=not rated,
            watch=spectator if (bool(lobby.open_seats) and not private if public is None else public) else "",
        )
        if quota is not None and match.quota:
            await quota.take(match.id, holders)
        try:
            await self.metas.write(match.id, to_fields(match))
            if not match.lobby and not waits_for:
                opened = await self.open(match)
                assert opened, "a fresh random id has an empty log"
        except BaseException:
            await self.give_back(match)  # if this fails too, the slot is found stale later
            raise
        if match.lobby:
            return Created(match, seat_tokens, spectator, lobby.invite)  # opened once its seats are filled
        self._remember(match)
        return Created(match, seat_tokens, spectator)

    async def open(self, match: Match, entropy: dict[str, str] | None = None) -> bool:
        """Append the opening events, drawn at version 0 from the seed with any entropy folded in;
        False if the log is not empty (someone opened it first)."""
        game = match.game
        opening = game.begin(game.initial(match.setup), Rng(effective_seed(match.seed, entropy), 0))
        records = seal(opening, 1, match.genesis, Cause(entropy=entropy))
        opened = (await self.store.append(match.id, 0, records, None, b"")).outcome == "ok"
        if opened:
            log.info("match_started", match_id=match.id, game=game.id, version=len(records))
        return opened

    async def get(self, match_id: str) -> Match | None:
        match = self._cache.get(match_id)
        if match is not None:
            self._cache.move_to_end(match_id)
            return match
        fields = await self.metas.read(match_id)
        if fields is None and self.wake is not None and _archivable(match_id) and await self.wake(match_id):
            fields = await self.metas.read(match_id)  # it was asleep (services/commands/hibernation.py)
        # no meta in Redis: the archive's, if any (services/projector/archiver.py)
        if fields is None and self.archive is not None and _archivable(match_id):
            stored = await self.archive.get(archive.meta_name(match_id))
            if stored is not None:
                match = from_fields(match_id, json.loads(stored)["fields"], archived=True)
                self._remember(match)
                return match
        if fields is None:
            return None
        self._lost.discard(match_id)  # Redis holds it still (it came back with it)
        match = from_fields(match_id, fields)
        if match.lobby != "open":  # an open lobby's seats still change
            self._remember(match)
        return match

    async def give_back(self, match: Match) -> None:
        """The match was closed before it ended (its lobby host left), or its creation failed: its
        open-matches slots are free again."""
        if self.open_matches is not None and match.quota:
            await self.open_matches.release(match.id, match.quota)

    def forget(self, match_id: str) -> None:
        """Drop a cached meta: the match has left Redis since (history.py finds it in the archive)."""
        self._cache.pop(match_id, None)

    def clear(self, known: Iterable[str] = ()) -> None:
        """Forget every meta (Redis restarted); these and ``known`` ids, if found gone, are lost."""
        if len(self._lost) > LOST_KEPT:
            self._lost.clear()  # a bound: a restart after restarts, of ids nobody asked for again
        self._lost.update(self._cache, known)
        self._cache.clear()

    def lost(self, match_id: str) -> None:
        """Redis was found not to hold the match any more, with nobody told: the next to ask is, once."""
        self._cache.pop(match_id, None)
        self._lost.add(match_id)

    def lost_once(self, match_id: str) -> bool:
        """Whether a match Redis no longer holds was known here before it restarted: True once."""
        if match_id in self._lost:
            self._lost.discard(match_id)
            return True
        return False

    def _remember(self, match: Match) -> None:
        self._cache[match.id] = match
        if len(self._cache) > self._capacity:
            self._cache.popitem(last=False)


@dataclass(frozen=True, slots=True)
class _Lobby:
    open_seats: tuple[int, ...]
    players: dict[int, str]
    invite: str | None


def _lobby(
    seats: int,
    bots: list[int],
    open_seats: list[int],
    host: str | None,
    private: bool,
    seat_entropy: bool,
    reserved: set[int],
) -> _Lobby:
    """Check a creation's open seats: the host (a registered player) keeps exactly one seat; with
    no host (the matchmaker's or a tournament's table), every seat but the bots' is open and kept
    for its player."""
    if not open_seats:
        if private:
            raise RulesError("bad_open", "a private match has open seats to invite players to")
        kept = sorted(set(range(seats)) - set(bots))
        return _Lobby((), {kept[0]: host} if host and len(kept) == 1 else {}, None)
    every_seat_kept = bool(reserved) and reserved == set(open_seats) == set(range(seats)) - set(bots)
    if host is None and every_seat_kept and not (private or seat_entropy):
        return _Lobby(tuple(sorted(reserved)), {}, None)
    if host is None:
        raise RulesError("no_host", "a match with open seats is created with a player token (POST /v1/players)")
    chosen = sorted(set(open_seats))
    if len(chosen) != len(open_seats) or any(not 0 <= seat < seats for seat in chosen) or set(chosen) & set(bots):
        raise RulesError("bad_open", "open names distinct seats 0 to {last} that are not bots", last=seats - 1)
    kept = sorted(set(range(seats)) - set(bots) - set(chosen))
    if len(kept) != 1:
        raise RulesError("bad_open", "the host keeps exactly one seat: every other seat is open or a bot")
    if seat_entropy:
        raise RulesError("bad_open", "seat entropy is not offered with open seats")
    return _Lobby(tuple(chosen), {kept[0]: host}, secrets.token_urlsafe(12) if private else None)


def _archivable(match_id: str) -> bool:
    """A match id as ``create`` makes them: a path that names anything else is not looked up."""
    return len(match_id) == 16 and all(c in "0123456789abcdef" for c in match_id)


def to_fields(match: Match) -> dict[str, str]:
    fields = {
        "game": match.game.id,
        "seats": str(match.setup.seats),
        "options": json.dumps(match.setup.options),
        "bots": json.dumps(list(match.bots)),
        "bot_kind": match.bot_kind,
        "seed": match.seed,
        "seed_commitment": match.seed_commitment,
        "rules_version": str(match.rules_version),
        "charter": match.charter,
        "entropy_seats": json.dumps(list(match.entropy_seats)),
        "lobby": match.lobby,
        "open_seats": json.dumps(list(match.open_seats)),
        "host": match.host,
        "invite": match.invite,
        "created": repr(match.created),
        "clock": json.dumps(msgspec.to_builtins(match.clock)),
    }
    fields.update({f"player:{seat}": player for seat, player in match.players.items()})
    fields.update({f"reserved:{seat}": player for seat, player in match.reserved.items()})
    fields.update({f"token:{holder}": digest for holder, digest in match.token_hashes.items()})
    if match.ended:
        fields["ended"] = match.ended
    if match.quota:
        fields["quota"] = json.dumps(list(match.quota))
    if match.unrated:
        fields["unrated"] = "1"
    if match.watch:
        fields["watch"] = match.watch
    return fields


def quota_of(field: str | None) -> tuple[str, ...]:
    """A meta's ``quota`` field (JSON: the holders of the slots the match takes), none if unset."""
    return tuple(json.loads(field or "[]"))


def from_fields(match_id: str, fields: dict[str, str], archived: bool = False) -> Match:
    return Match(
        id=match_id,
        game=online_game(fields["game"]),
        setup=Setup(seats=int(fields["seats"]), options=json.loads(fields["options"])),
        seed=fields["seed"],
        seed_commitment=fields["seed_commitment"],
        bots=tuple(json.loads(fields["bots"])),
        bot_kind=fields["bot_kind"],
        token_hashes={k.removeprefix("token:"): v for k, v in fields.items() if k.startswith("token:")},
        rules_version=int(fields.get("rules_version", "1")),
        charter=fields.get("charter", ""),
        entropy_seats=tuple(json.loads(fields.get("entropy_seats", "[]"))),
        players={int(k.removeprefix("player:")): v for k, v in fields.items() if k.startswith("player:")},
        reserved={int(k.removeprefix("reserved:")): v for k, v in fields.items() if k.startswith("reserved:")},
        lobby=fields.get("lobby", ""),
        open_seats=tuple(json.loads(fields.get("open_seats", "[]"))),
        host=fields.get("host", ""),
        invite=fields.get("invite", ""),
        created=float(fields.get("created", "0")),
        clock=clocks.option(json.loads(fields.get("clock", "null"))),
        ended=fields.get("ended", ""),
        archived=archived,
        quota=quota_of(fields.get("quota")),
        unrated=fields.get("unrated") == "1",
        watch=fields.get("watch", ""),
    )
