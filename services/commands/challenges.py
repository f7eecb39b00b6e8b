"""Challenges of bot accounts (docs/bots.md): a registered person asks a bot for a match (game,
seats, options, rated or not, clock); the bot accepts or declines, the person may cancel, and an
unanswered challenge lapses after ``TTL_S``.

An accepted challenge is a lobby match hosted by the bot, kept off the lobby's pages: the bot's
seat token is in its answer, the challenger's seat is kept for the challenger, who joins it (and
hears its own token, as any joiner) and so starts it; seats beyond the two are the match's bots.
Whatever concerns a player is also put on its own events (services/store/player_events.py),
which its event stream sends."""

from __future__ import annotations

import secrets
import time
from typing import Any

import msgspec

from domain.games import online_game
from domain.kernel import RulesError
from services.commands import clocks
from services.commands.clocks import ClockOption
from services.commands.matches import Matches
from services.commands.player_events import MatchFinished, MatchStarted, RematchOffered, TournamentTable, Turn, encode
from services.commands.players import Player, Players
from services.commands.refused import Refused
from services.ops import logs
from services.store.challenges import PENDING, ChallengeBook
from services.store.lobby import LobbyListings
from services.store.player_events import PlayerEvents

log = logs.get("tavern.challenges")
TTL_S = 60  # a challenge nobody answers lapses: the challenger is not kept waiting on a bot that is away
ANSWERED_KEPT_S = 600  # an answered challenge is kept for its players to read what came of it


class NewChallenge(msgspec.Struct, forbid_unknown_fields=True):
    bot: str  # the bot account's player id
    game: str
    seats: int = 2  # seats beyond two are the match's bots (such a match is never rated)
    options: dict[str, Any] = {}
    rated: bool = True
    clock: dict[str, Any] | None = None
    seat: int = 0  # the challenger's seat; the bot takes the lowest other one


class Challenge(msgspec.Struct):
    challenge_id: str
    challenger: str  # player ids
    challenger_name: str
    bot: str
    bot_name: str
    game: str
    seats: int
    options: dict[str, Any]
    rated: bool
    clock: ClockOption | None
    seat: int  # the challenger's
    bot_seat: int
    created: float
    expires: float  # unanswered by then, it lapses
    status: str = PENDING  # pending, accepted, declined, cancelled, failed
    match_id: str | None = None  # once accepted


class Accepted(msgspec.Struct):
    challenge_id: str
    match_id: str
    seat: int
    token: str  # the bot's seat token: the only time it is ever sent


class Answered(msgspec.Struct):
    challenge_id: str
    status: str


# what a player's event stream carries (each ``type`` its SSE ``event:`` name), docs/bots.md
class ChallengeEvent(msgspec.Struct, tag="challenge"):
    challenge: Challenge


class ChallengeAccepted(msgspec.Struct, tag="challenge_accepted"):
    challenge_id: str
    match_id: str
    seat: int  # the challenger's: join it (POST /v1/matches/{id}/join) to start the match


class ChallengeDeclined(msgspec.Struct, tag="challenge_declined"):
    challenge_id: str


class ChallengeCancelled(msgspec.Struct, tag="challenge_cancelled"):
    challenge_id: str


PlayerEvent = (
    ChallengeEvent
    | ChallengeAccepted
    | ChallengeDeclined
    | ChallengeCancelled
    | MatchStarted
    | RematchOffered
    | TournamentTable
    | Turn
    | MatchFinished
)


class Challenges:
    def __init__(
        self, book: ChallengeBook, events: PlayerEvents, players: Players, matches: Matches, listings: LobbyListings
    ) -> None:
        self.book = book
        self.player_events = events
        self.players = players
        self.matches = matches
        self.listings = listings

    async def challenge(self, challenger: Player, asked: NewChallenge) -> Challenge:
        """A pending challenge, on the bot's events; a RulesError if the match asked for is not one."""
        if challenger.bot:
            raise Refused("forbidden", "bot_challenger", "a bot account answers challenges, it does not make them")
        bot = await self.players.get(asked.bot)
        if bot is None or not bot.bot:
            raise Refused("not_found", "no_such_bot", "no bot account has this id")
        online_game(asked.game).setup(asked.seats, asked.options)  # raises what creating it would
        clock = clocks.option(asked.clock)
        if not 0 <= asked.seat < asked.seats:
            raise RulesError("bad_seat", "seat names a seat 0 to {last}", last=asked.seats - 1)
        if asked.rated and asked.seats != 2:
            raise RulesError("rated_needs_two", "a rated challenge is for two seats: any further seat is a bot")
        now = time.time()
        challenge = Challenge(
            secrets.token_hex(8), challenger.id, challenger.name, bot.id, bot.name, asked.game, asked.seats,
            asked.options, asked.rated, clock, asked.seat, 1 if asked.seat == 0 else 0, now, now + TTL_S,
        )  # fmt: skip
        await self.book.add(challenge.challenge_id, encode(challenge), TTL_S)
        await self.player_events.push(bot.id, encode(ChallengeEvent(challenge)))
        log.info("challenged", challenge=challenge.challenge_id, player=challenger.id, bot=bot.id, game=asked.game)
        return challenge

    async def get(self, challenge_id: str, player: Player) -> Challenge:
        """The challenge as it stands, to its challenger or its bot only."""
        return await self._found(challenge_id, player)

    async def accept(self, challenge_id: str, bot: Player) -> Accepted:
        challenge = await self._answer(challenge_id, bot, "accepted", mine=lambda c: c.bot)
        try:
            others = [seat for seat in range(challenge.seats) if seat not in (challenge.seat, challenge.bot_seat)]
            created = await self.matches.create(
                challenge.game, challenge.seats, challenge.options, others, open_seats=[challenge.seat], host=bot.id,
                clock=msgspec.to_builtins(challenge.clock) if challenge.clock else None,
                reserved={challenge.seat: challenge.challenger}, rated=challenge.rated,
            )  # fmt: skip
        except BaseException:
            await self.book.settle(challenge_id, "failed", "")
            raise
        match = created.match
        # listed as waiting (not on the lobby's pages): closed like any lobby match if its challenger never comes
        await self.listings.add(match.id, match.game.id, match.created, public=False)
        await self.book.settle(challenge_id, "accepted", match.id)
        told = ChallengeAccepted(challenge_id, match.id, challenge.seat)
        await self.player_events.push(challenge.challenger, encode(told))
        token = created.seat_tokens[challenge.bot_seat]
        assert token is not None, "the host's seat has its token"
        log.info("challenge_accepted", challenge=challenge_id, match_id=match.id, bot=bot.id)
        return Accepted(challenge_id, match.id, challenge.bot_seat, token)

    async def decline(self, challenge_id: str, bot: Player) -> Answered:
        challenge = await self._answer(challenge_id, bot, "declined", mine=lambda c: c.bot)
        await self.player_events.push(challenge.challenger, encode(ChallengeDeclined(challenge_id)))
        log.info("challenge_declined", challenge=challenge_id, bot=bot.id)
        return Answered(challenge_id, "declined")

    async def cancel(self, challenge_id: str, challenger: Player) -> Answered:
        challenge = await self._answer(challenge_id, challenger, "cancelled", mine=lambda c: c.challenger)
        await self.player_events.push(challenge.bot, encode(ChallengeCancelled(challenge_id)))
        log.info("challenge_cancelled", challenge=challenge_id, player=challenger.id)
        return Answered(challenge_id, "cancelled")

    async def events(self, player_id: str, after: str, count: int) -> list[tuple[str, bytes]]:
        return await self.player_events.events(player_id, after, count)

    async def _answer(self, challenge_id: str, player: Player, status: str, mine: Any) -> Challenge:
        """Move the challenge from pending to ``status``, if ``mine(challenge)`` is the player."""
        challenge = await self._found(challenge_id, player)
        if mine(challenge) != player.id:
            raise Refused("forbidden", "not_yours", "only its bot answers a challenge, only its challenger cancels it")
        before = await self.book.answer(challenge_id, status, ANSWERED_KEPT_S)
        if before is None:
            raise Refused("not_found", "no_such_challenge", "no such challenge (an unanswered one lapses)")
        if before.status != PENDING:
            raise Refused("conflict", "challenge_answered", "this challenge is {status} already", status=before.status)
        return challenge

    async def _found(self, challenge_id: str, player: Player) -> Challenge:
        stored = await self.book.get(challenge_id)
        if stored is None:
            raise Refused("not_found", "no_such_challenge", "no such challenge (an unanswered one lapses)")
        challenge = msgspec.json.decode(stored.asked, type=Challenge)
        if player.id not in (challenge.challenger, challenge.bot):
            raise Refused("not_found", "no_such_challenge", "no such challenge (an unanswered one lapses)")
        challenge.status, challenge.match_id = stored.status, stored.match_id or None
        return challenge
