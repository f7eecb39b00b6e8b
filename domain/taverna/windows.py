"""Royal favours during other seats' turns ("at any time during any turn"), match option
``off_turn_favours``: at each step of a turn (the card picked, the customer placed, the turn ending)
the other seats that could use a favour now are asked at once. Favours are face up, so being asked
tells nothing. Each asked seat uses favours (public, applied as they come) or passes; the turn goes
on when the window has no seat left. The turn's end (refill, next seat) waits for its window.
"""

from __future__ import annotations

from domain.kernel import require
from domain.taverna import customers, favours, scoring
from domain.taverna import events as ev
from domain.taverna.state import Ctx, State

# The window that opens when the active seat's turn reaches a step (picking is over; placing is over).
_STEP_MOMENTS = {"place": "picked", "act": "placed"}


def _asked(state: State, active: int) -> tuple[int, ...]:
    """The other seats, from the active seat's left, holding a favour they could use now."""
    others = ((active + k) % state.seats for k in range(1, state.seats))
    return tuple(s for s in others if favours.legal_off_turn(state, s))


def settle(state: State, events: list) -> list:
    """After a command of the turn: narrow or close the open window, or open the window of the step
    the turn has reached (once a step). ``events`` are the command's; the answer adds the window's."""
    ctx = Ctx(state)
    for event in events:
        ctx.emit(event)
    turn = ctx.state.turn
    if ctx.state.phase != "turns" or turn is None or turn.responders:
        return ctx.events
    if turn.window:
        _narrow(ctx)
        return ctx.events
    moment = _STEP_MOMENTS.get(turn.step)
    if moment and moment not in turn.windows:
        asked = _asked(ctx.state, turn.seat)
        if asked:
            ctx.emit(ev.FavourWindow(moment=moment, seats=asked))
    return ctx.events


def _narrow(ctx: Ctx) -> None:
    """Drop the asked seats left with nothing to use; once none is left, close (and end the turn)."""
    turn = ctx.state.turn
    assert turn is not None
    left = tuple(s for s in turn.window_seats if favours.legal_off_turn(ctx.state, s))
    if left == turn.window_seats and left:
        return
    ctx.emit(ev.FavourWindow(moment=turn.window, seats=left))
    if not left and turn.window == "ending":
        finish_turn(ctx, turn.seat)


def pass_window(state: State, seat: int, always: bool) -> list:
    require(not always, "bad_pass", "'always pass' is for instant spells; favours are face up")
    return [ev.WindowPassed(seat=seat)]


def end_turn(state: State, seat: int) -> list:
    """``EndTurn``: with the option, the others may still use favours before the turn is over."""
    ctx = Ctx(state)
    asked = _asked(state, seat) if state.off_turn_favours else ()
    if asked:
        ctx.emit(ev.FavourWindow(moment="ending", seats=asked))
    else:
        finish_turn(ctx, seat)
    return ctx.events


def finish_turn(ctx: Ctx, seat: int) -> None:
    customers.refill(ctx)
    ctx.emit(ev.TurnEnded(seat=seat))
    if ctx.state.phase == "end":
        scoring.begin_end(ctx)
