"""Matches: creation (seed, commitment, tokens, opening events) and their immutable meta, cached."""

from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from domain.games import get_game
from domain.kernel import Game, Rng, RulesError, Setup
from domain.kernel.rng import DERIVATION
from projections.chain import CHARTER_FORMAT, Charter, charter_text, commitment, digest, effective_seed
from services.commands import tokens
from services.ops import logs
from services.store import archive, keys
from services.store.event_store import GENESIS, Cause, EventStore, seal

log = logs.get("tavern.matches")


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
    ended: str = ""  # "abandoned": closed by the archiver (idle too long), it takes no more commands
    archived: bool = False  # its log is in the archive, no longer in Redis (services/commands/history.py)

    @property
    def genesis(self) -> str:
        """The ``prev`` of entry 1: the charter's SHA-256."""
        return digest(self.charter.encode()) if self.charter else GENESIS

    def holder(self, token: str) -> str | None:
        return tokens.identify(token, self.token_hashes)


@dataclass(frozen=True, slots=True)
class Created:
    match: Match
    seat_tokens: list[str]
    spectator_token: str


def _bot_kind(game: Game, requested: str | None) -> str:
    if requested is None:
        return "greedy" if "greedy" in game.bots else "random"
    if requested != "random" and requested not in game.bots:
        raise RulesError("unknown_bot", f"{game.name} has no {requested!r} bot")
    return requested


class Matches:
    """Creates matches and finds them; a match's meta never changes, so it is cached."""

    def __init__(
        self, redis: Any, store: EventStore, capacity: int = 8192, archived: archive.Archive | None = None
    ) -> None:
        self.redis = redis
        self.store = store
        self.archive = archived
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._capacity = capacity

    async def create(
        self,
        game_id: str,
        seats: int,
        options: dict[str, Any],
        bots: list[int],
        bot_kind: str | None = None,
        seat_entropy: bool = False,
    ) -> Created:
        game = get_game(game_id)
        setup = game.setup(seats, options)
        if any(not 0 <= seat < seats for seat in bots):
            raise RulesError("bad_bots", f"bots must name seats 0 to {seats - 1}")
        seed = secrets.token_hex(32)
        seat_tokens = [tokens.new_token() for _ in range(seats)]
        spectator = tokens.new_token()
        hashes = {str(seat): tokens.digest(token) for seat, token in enumerate(seat_tokens)}
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
        )
        await self.redis.hset(keys.meta(match.id), mapping=to_fields(match))
        if not waits_for:
            opened = await self.open(match)
            assert opened, "a fresh random id has an empty log"
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
        fields = await self.redis.hgetall(keys.meta(match_id))
        # no meta in Redis: the archive's, if any (services/projector/archiver.py)
        if not fields and self.archive is not None and _archivable(match_id):
            stored = await self.archive.get(archive.meta_name(match_id))
            if stored is not None:
                match = _from_fields(match_id, json.loads(stored)["fields"], archived=True)
                self._remember(match)
                return match
        if not fields:
            return None
        match = _from_fields(match_id, {k.decode(): v.decode() for k, v in fields.items()})
        self._remember(match)
        return match

    def forget(self, match_id: str) -> None:
        """Drop a cached meta: the match has left Redis since (history.py finds it in the archive)."""
        self._cache.pop(match_id, None)

    def _remember(self, match: Match) -> None:
        self._cache[match.id] = match
        if len(self._cache) > self._capacity:
            self._cache.popitem(last=False)


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
    }
    fields.update({f"token:{holder}": digest for holder, digest in match.token_hashes.items()})
    if match.ended:
        fields["ended"] = match.ended
    return fields


def _from_fields(match_id: str, fields: dict[str, str], archived: bool = False) -> Match:
    return Match(
        id=match_id,
        game=get_game(fields["game"]),
        setup=Setup(seats=int(fields["seats"]), options=json.loads(fields["options"])),
        seed=fields["seed"],
        seed_commitment=fields["seed_commitment"],
        bots=tuple(json.loads(fields["bots"])),
        bot_kind=fields["bot_kind"],
        token_hashes={k.removeprefix("token:"): v for k, v in fields.items() if k.startswith("token:")},
        rules_version=int(fields.get("rules_version", "1")),
        charter=fields.get("charter", ""),
        entropy_seats=tuple(json.loads(fields.get("entropy_seats", "[]"))),
        ended=fields.get("ended", ""),
        archived=archived,
    )
