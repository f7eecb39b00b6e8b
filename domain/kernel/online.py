"""Online play over any game: concede, leave, timeouts, as commands and events of the match's log.

``online(game, bots)`` wraps a game's decide / evolve / result without touching its package: the
state is the game's own plus who conceded, who is played by a bot for good, and each seat's run
of timeouts. Being the rules' own commands and events, these acts are replayed and audited
(``tavern audit``) like any move.

- ``Concede``: the seat gives up. With one seat left standing the match ends and that seat wins;
  with more, the conceded seat is played by a bot to the end and ranks last.
- ``Leave``: the seat walks away from a running match; a bot plays it until it comes back.
- ``Reclaim``: a seat a bot plays since it left or timed out too often takes itself back (a
  conceded seat cannot: conceding is final). Until then its own view has no legal command.
- ``TimedOut``: a system command the service sends for a seat whose clock ran out (it has legal
  commands now). The bot the command names picks that seat's move, drawn from the rules' random
  stream so the audit picks it again (a bot decides from the view and a seed alone, within a fixed
  amount of work, never a clock); at the ``limit``-th timeout in a row the seat is taken over by a bot for good,
  or concedes if ``forfeit``. A seat acting itself ends its run of timeouts. The command names the
  bot's generation too (``bot_label``): a bot of another generation than this release's cannot
  pick its move again, so the rules refuse to decide it, and the audit takes it as any legal move
  (``alternatives``: the events of each).
- ``TakeVacation``: a system command the service sends, instead of ``TimedOut``, for a seat of a
  correspondence clock whose deadline passed while it has vacation days left of the ``allowance``
  the command names: ``VacationTaken``, one more day for the move it owes (the clock's fold adds it;
  services/commands/clocks.py). No move is played, the seat's run of timeouts is untouched.
- ``Undo``: the seat takes back its own last command, the log's last, where the game allows it
  (domain/kernel/undo.py): ``Undone``, and the state is the one before that command again.
- ``Abandon``: a system command the service sends once every played seat has gone and a grace
  period has passed; the match ends with no winner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import msgspec

from domain.kernel.errors import RulesError
from domain.kernel.game import AnyGame, Bot, Command, Event, Game, Result, ScoreLines, Seat, Setup, Standing
from domain.kernel.rng import Rng
from domain.kernel.undo import TRAIL, Step, Undo, Undone, nothing_revealed


class Concede(Command, frozen=True):
    pass


class Leave(Command, frozen=True):
    pass


class Reclaim(Command, frozen=True):
    pass


class TimedOut(Command, frozen=True):
    limit: int = 3  # timeouts in a row before the seat is given up
    forfeit: bool = False  # at the limit: concede (True) or be played by a bot for good (False)
    # the bot that picks the move: its kind (``Game.bots``, or "random"), with "@N" past its first
    # generation (``bot_label``); logs from before it was named were played by greedy, generation 1
    bot: str = "greedy"


class Abandon(Command, frozen=True):
    pass


class TakeVacation(Command, frozen=True):
    allowance: int  # the vacation days each seat may take in this match (its clock's ``vacation_days``)


class Abandoned(Event, frozen=True):
    pass


class Conceded(Event, frozen=True):
    seat: Seat


class TakenOver(Event, frozen=True):
    seat: Seat
    reason: str  # "left" | "timeouts"


class Reclaimed(Event, frozen=True):
    seat: Seat  # its player plays it again (it had left, or timed out too often)


class SeatTimedOut(Event, frozen=True):
    seat: Seat
    streak: int  # timeouts in a row, this one included


class StreakEnded(Event, frozen=True):
    seat: Seat  # acted itself after timing out


class VacationTaken(Event, frozen=True):
    seat: Seat
    day: int  # the seat's vacation days taken in this match, this one included


SERVICE_COMMANDS = (TimedOut, Abandon, TakeVacation)  # sent by the service only, never by a client
SYSTEM_EVENTS = (Conceded, TakenOver, Reclaimed, SeatTimedOut, StreakEnded, Abandoned, VacationTaken, Undone)


class OnlineState(msgspec.Struct, frozen=True):
    inner: Any
    seats: int
    conceded: tuple[Seat, ...] = ()  # in the order they conceded
    taken: tuple[Seat, ...] = ()  # played by a bot for good (left, conceded, or timed out too often)
    streaks: tuple[int, ...] = ()  # per seat: timeouts in a row
    left: tuple[Seat, ...] = ()  # walked away (Leave), as opposed to timed out or conceded
    abandoned: bool = False
    options: dict[str, Any] = {}  # the match's, for the bot that plays a timed-out seat
    vacations: tuple[int, ...] = ()  # per seat: vacation days taken (none taken: empty)
    trail: tuple[Step, ...] = ()  # the last events and the states they were folded onto (Undo)


# a kind, then "@" and a generation from 2 on (the first has no suffix: the logs from before generations)
_LABEL = re.compile(r"(?P<kind>[^@]+)(?:@(?P<generation>[2-9]|[1-9][0-9]+))?")


def bot_label(game: AnyGame, kind: str) -> str:
    """How a ``TimedOut`` names this release's bot of that kind: its kind, and its generation from
    the second on."""
    generation = _generation(game, kind)
    return kind if generation == 1 else f"{kind}@{generation}"


def _generation(game: AnyGame, kind: str) -> int:
    return game.bot_generations.get(kind, 1)  # a kind the game does not name: its first


def _read_label(label: str) -> tuple[str, int]:
    """The kind and generation a ``TimedOut``'s ``bot`` names."""
    found = _LABEL.fullmatch(label)
    if found is None:
        raise RulesError("bad_bot_label", "{label!r} names no bot: a kind, then @ and a generation from 2",
                         label=label)
    return found["kind"], int(found["generation"] or 1)


def bot_seats(state: Any) -> set[Seat]:
    """The seats the rules hand to a bot (for good), on top of those created as bots."""
    return set(state.taken) if isinstance(state, OnlineState) else set()


def taken_reason(state: Any, seat: Seat) -> str | None:
    """Why a bot plays a person's seat: "conceded", "left" or "timeouts" (None: it does not)."""
    if not isinstance(state, OnlineState) or seat not in state.taken:
        return None
    return "conceded" if seat in state.conceded else "left" if seat in state.left else "timeouts"


def left_seats(state: Any) -> set[Seat]:
    """The seats whose players walked away (Leave)."""
    return set(state.left) if isinstance(state, OnlineState) else set()


def vacation_days_taken(state: Any, seat: Seat) -> int:
    """The vacation days the seat has taken in this match (TakeVacation)."""
    return state.vacations[seat] if isinstance(state, OnlineState) and state.vacations else 0


def online(game: AnyGame, bots: Callable[[str, dict[str, Any]], Bot[Any]]) -> Game[OnlineState, Command, Event]:
    """The game with online play; ``bots(kind, options)`` makes a fresh bot of that kind for a match
    with those options (a RulesError if the game has none)."""

    def initial(setup: Setup) -> OnlineState:
        return OnlineState(game.initial(setup), setup.seats, streaks=(0,) * setup.seats, options=dict(setup.options))

    def evolve(state: OnlineState, event: Event) -> OnlineState:
        if isinstance(event, Undone):  # back to the state before the events taken back
            if not 0 < event.events <= len(state.trail):  # never decided so (the fold is total)
                return msgspec.structs.replace(state, trail=())
            before: OnlineState = state.trail[-event.events].before
            return before
        step = Step(msgspec.structs.replace(state, trail=()), event)
        return msgspec.structs.replace(folded(state, event), trail=(*state.trail[1 - TRAIL :], step))

    def folded(state: OnlineState, event: Event) -> OnlineState:
        if isinstance(event, Conceded):
            taken = state.taken if event.seat in state.taken else (*state.taken, event.seat)
            return msgspec.structs.replace(state, conceded=(*state.conceded, event.seat), taken=taken)
        if isinstance(event, TakenOver):
            left = (*state.left, event.seat) if event.reason == "left" else state.left
            return msgspec.structs.replace(state, taken=(*state.taken, event.seat), left=left)
        if isinstance(event, Reclaimed):
            taken = tuple(seat for seat in state.taken if seat != event.seat)
            left = tuple(seat for seat in state.left if seat != event.seat)
            reset = tuple(0 if seat == event.seat else n for seat, n in enumerate(state.streaks))
            return msgspec.structs.replace(state, taken=taken, left=left, streaks=reset)
        if isinstance(event, Abandoned):
            return msgspec.structs.replace(state, abandoned=True)
        if isinstance(event, VacationTaken):
            days = list(state.vacations or (0,) * state.seats)
            days[event.seat] = event.day
            return msgspec.structs.replace(state, vacations=tuple(days))
        if isinstance(event, SeatTimedOut | StreakEnded):
            streaks = list(state.streaks)
            streaks[event.seat] = event.streak if isinstance(event, SeatTimedOut) else 0
            return msgspec.structs.replace(state, streaks=tuple(streaks))
        return msgspec.structs.replace(state, inner=game.evolve(state.inner, event))

    def result(state: OnlineState) -> Result | None:
        if state.abandoned:  # nobody wins, nobody loses
            standings = tuple(Standing(seat, 1, 0) for seat in range(state.seats))
            return Result((), standings, {"ended": "abandoned"})
        standing = [seat for seat in range(state.seats) if seat not in state.conceded]
        if state.conceded and len(standing) <= 1:
            ranked = [(seat, 1) for seat in standing]
            ranked += [(seat, len(standing) + n + 1) for n, seat in enumerate(reversed(state.conceded))]
            details = {"ended": "conceded", "conceded": list(state.conceded)}
            return Result(tuple(standing), tuple(Standing(seat, rank, 0) for seat, rank in ranked), details)
        inner = game.result(state.inner)
        if inner is None or not state.conceded:
            return inner
        return _conceded_last(inner, state.conceded)

    def breakdown(state: OnlineState) -> ScoreLines | None:
        """The game's own, once it scored the match: none when online play ended it (abandoned, or
        conceded down to one seat)."""
        ended = result(state)
        return None if ended is None or "ended" in ended.details else game.breakdown(state.inner)

    def decide(state: OnlineState, command: Command, seat: Seat, rng: Rng) -> list[Event]:
        if result(state) is not None:
            raise RulesError("match_finished", "the match is over")
        if isinstance(command, Concede):
            if seat in state.conceded:
                raise RulesError("already_conceded", "this seat has conceded already")
            return [Conceded(seat=seat)]
        if isinstance(command, Leave):
            if seat in state.taken:
                raise RulesError("already_left", "a bot plays this seat already")
            return [TakenOver(seat=seat, reason="left")]
        if isinstance(command, Reclaim):
            if seat in state.conceded:
                raise RulesError("conceded_for_good", "a seat that conceded cannot be taken back")
            if seat not in state.taken:
                raise RulesError("not_taken_over", "no bot plays this seat: there is nothing to take back")
            return [Reclaimed(seat=seat)]
        if isinstance(command, TimedOut):
            return timed_out(state, command, seat, rng)
        if isinstance(command, Abandon):
            return [Abandoned()]
        if isinstance(command, TakeVacation):
            return vacation(state, command, seat)
        if isinstance(command, Undo):
            return undo(state, command, seat)
        events = game.decide(state.inner, command, seat, rng)
        return [StreakEnded(seat=seat), *events] if state.streaks[seat] else events

    def undo(state: OnlineState, command: Undo, seat: Seat) -> list[Event]:
        """The undo of the last ``command.events`` events: one command of ``seat``'s (the service and
        the audit hold that to the log), which the game allows to be taken back."""
        if not 0 < command.events <= len(state.trail):
            raise RulesError("undo_not_allowed", "that move cannot be taken back: it drew, revealed or handed "
                             "another seat a move, or is too long")
        steps = state.trail[-command.events :]
        before = steps[0].before
        events = [step.event for step in steps if not isinstance(step.event, StreakEnded)]
        if (seat in state.taken or game.undoable is None or any(isinstance(e, SYSTEM_EVENTS) for e in events)
                or not game.undoable(before.inner, events, state.inner)
                or not nothing_revealed(game, state.seats, before.inner, state.inner)):
            raise RulesError("undo_not_allowed", "that move cannot be taken back: it drew, revealed or handed "
                             "another seat a move, or is too long")
        return [Undone(seat=seat, events=command.events)]

    def vacation(state: OnlineState, command: TakeVacation, seat: Seat) -> list[Event]:
        if not game.legal(state.inner, seat):
            raise RulesError("not_due", "this seat has nothing to do: it cannot time out")
        taken = vacation_days_taken(state, seat)
        if taken >= command.allowance:
            raise RulesError("no_vacation_left", "this seat has taken its {allowance} vacation day(s)",
                             allowance=command.allowance)
        return [VacationTaken(seat=seat, day=taken + 1)]

    def due(state: OnlineState, command: TimedOut, seat: Seat) -> tuple[list[Command], Bot[Any], bool]:
        """The seat's legal commands, the bot the command names, and whether it is this release's
        generation of it (the refusals of a timeout that cannot be)."""
        legal = game.legal(state.inner, seat)
        if not legal:
            raise RulesError("not_due", "this seat has nothing to do: it cannot time out")
        if command.limit < 1:
            raise RulesError("bad_limit", "a timeout limit is at least 1")
        kind, generation = _read_label(command.bot)
        bot = bots(kind, state.options)  # refuses a kind the game does not have
        return legal, bot, generation == _generation(game, kind)

    def timed_out(state: OnlineState, command: TimedOut, seat: Seat, rng: Rng) -> list[Event]:
        legal, bot, current = due(state, command, seat)
        if not current:
            raise RulesError("other_bot_generation", "{bot} is not a bot of this release: its move cannot be "
                             "chosen again", bot=command.bot)
        move = bot.choose(game.view(state.inner, seat), legal, Rng(_bot_seed(rng), 0, f"bot:{seat}"))
        return played(state, command, seat, move, rng)

    def alternatives(state: OnlineState, command: Command, seat: Seat,
                     rngs: Callable[[], Rng]) -> Iterator[list[Event]] | None:
        """A timeout played by another generation of its bot than this release's: the events of
        each legal move, any of which it may have chosen (None for any other command)."""
        if not isinstance(command, TimedOut) or result(state) is not None:
            return None
        legal, _, current = due(state, command, seat)
        if current:
            return None

        def each() -> Iterator[list[Event]]:
            for move in legal:
                rng = rngs()
                _bot_seed(rng)  # the rules' stream as the move found it
                yield played(state, command, seat, move, rng)

        return each()

    def played(state: OnlineState, command: TimedOut, seat: Seat, move: Command, rng: Rng) -> list[Event]:
        """The events of a timeout whose move is ``move``, the rules' stream past the bot's seed."""
        streak = state.streaks[seat] + 1
        events: list[Event] = [SeatTimedOut(seat=seat, streak=streak), *game.decide(state.inner, move, seat, rng)]
        if streak >= command.limit and seat not in state.taken:
            events.append(Conceded(seat=seat) if command.forfeit else TakenOver(seat=seat, reason="timeouts"))
        return events

    def event_view(event: Event, seat: Seat | None) -> Event | None:
        return event if isinstance(event, SYSTEM_EVENTS) else game.event_view(event, seat)

    def legal(state: OnlineState, seat: Seat) -> list[Command]:
        return [] if result(state) is not None else game.legal(state.inner, seat)

    inner_views, inner_automatic, inner_sealed = game.views, game.automatic, game.sealed

    def automatic(state: OnlineState, seat: Seat) -> Command | None:
        if inner_automatic is None or result(state) is not None:
            return None
        return inner_automatic(state.inner, seat)

    def sealed(state: OnlineState) -> tuple[Seat, ...]:
        return () if inner_sealed is None or result(state) is not None else inner_sealed(state.inner)

    # the game's own fields (id, seats, options, bots, rules version, ...) carried over as they are
    return replace(
        game,
        command_type=game.command_type | Concede | Leave | Reclaim | TimedOut | Abandon | TakeVacation | Undo,
        event_type=(game.event_type | Conceded | TakenOver | Reclaimed | SeatTimedOut | StreakEnded | Abandoned
                    | VacationTaken | Undone),
        initial=initial,
        begin=lambda state, rng: game.begin(state.inner, rng),
        evolve=evolve,
        decide=decide,
        legal=legal,
        view=lambda state, seat: game.view(state.inner, seat),
        event_view=event_view,
        hidden=lambda state, seat: game.hidden(state.inner, seat),
        result=result,
        breakdown=breakdown,
        views=None if inner_views is None else (lambda state: inner_views(state.inner)),
        automatic=automatic,
        sealed=sealed,
        alternatives=alternatives,
    )


def _bot_seed(rng: Rng) -> str:
    """The seed of a timed-out seat's bot's own stream, drawn first from the rules' stream (so the
    audit draws it again)."""
    return str(rng.below(2**62))


def _conceded_last(inner: Result, conceded: tuple[Seat, ...]) -> Result:
    """The game's own result with the conceded seats moved below everyone else, the last to give
    up above the first."""
    kept = [standing for standing in inner.standings if standing.seat not in conceded]
    ranks = sorted(standing.rank for standing in kept)
    reranked = [msgspec.structs.replace(s, rank=1 + sum(r < s.rank for r in ranks)) for s in kept]
    scores = {standing.seat: standing for standing in inner.standings}
    reranked += [
        msgspec.structs.replace(scores[seat], rank=len(kept) + n + 1) for n, seat in enumerate(reversed(conceded))
    ]
    winners = tuple(seat for seat in inner.winners if seat not in conceded)
    if inner.winners and not winners:
        winners = tuple(s.seat for s in reranked if s.rank == 1)
    return Result(winners, tuple(reranked), {**inner.details, "conceded": list(conceded)})
