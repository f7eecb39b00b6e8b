"""decide and legal: each command to the rule that judges it, then the automatic steps that follow
(passing packets, dealing, the next phase, the next Dirty Deeds turn, the next round)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Command, Rng, RulesError, require
from domain.tavern_masters import dirty_deeds, phases, setup, trading
from domain.tavern_masters.builder import Builder
from domain.tavern_masters.commands import (
    AddToOffer,
    AnswerDeed,
    AnswerOffer,
    DiscardCard,
    Done,
    KeepHand,
    MakeOffer,
    Mulligan,
    OpenOffer,
    PickCard,
    PlayCard,
    PlayDeed,
    PlayPatron,
    SetOfferGold,
    TMCommand,
    WithdrawOffer,
)
from domain.tavern_masters.content import is_card
from domain.tavern_masters.phases import count_till, phase_finished
from domain.tavern_masters.state import State


def settle_night(b: Builder, rng: Rng) -> bool:
    if not phase_finished(b.state):
        return False
    if b.state.dirty_deeds:
        dirty_deeds.begin_phase(b, rng)
    else:
        count_till(b)
    return True


SETTLE: dict[str, Callable[[Builder, Rng], bool]] = {
    "draft": setup.settle_draft,
    "mulligan": setup.settle_mulligan,
    "day": phases.settle_day,
    "night": settle_night,
    "deeds": dirty_deeds.settle_deeds,
    "till": phases.settle_till,
}


def settle(b: Builder, rng: Rng) -> None:
    """Run the automatic steps until some seat has a choice to make (or the match is over)."""
    while b.state.phase in SETTLE and SETTLE[b.state.phase](b, rng):
        pass


def begin(state: State, rng: Rng) -> list:
    b = Builder(state)
    b.emit(*setup.begin(state, rng))
    settle(b, rng)
    return b.events


def _done(state: State, seat: int) -> list:
    if state.phase == "deeds":
        return dirty_deeds.decide_done(state, seat)
    return phases.decide_done(state, seat)


# each handler takes a command of its key's type (which a dict cannot tie to its value: Any)
SIMPLE: dict[type, Callable[[State, Any, int], list]] = {
    PickCard: setup.decide_pick,
    Mulligan: setup.decide_mulligan,
    KeepHand: setup.decide_mulligan,
    PlayCard: phases.decide_play,
    PlayPatron: phases.decide_patron,
    DiscardCard: phases.decide_discard,
    OpenOffer: trading.decide_open,
    AddToOffer: trading.decide_add,
    SetOfferGold: trading.decide_gold,
    MakeOffer: trading.decide_make,
    WithdrawOffer: trading.decide_withdraw,
    AnswerOffer: trading.decide_answer,
    Done: lambda state, command, seat: _done(state, seat),
}


CARD_FIELDS = {"card", "target_card", "own_card", "cancel"}


def decide(state: State, command: Command, seat: int, rng: Rng) -> list:
    require(state.winners is None, "match_over", "the match is over")
    require(0 <= seat < state.seats, "no_such_seat", "no such seat")
    for name in CARD_FIELDS.intersection(command.__struct_fields__):
        value = getattr(command, name)
        require(value == "" or is_card(value), "no_such_card", "there is no card {card!r}", card=value)
    b = Builder(state)
    if isinstance(command, PlayDeed):
        dirty_deeds.decide_deed(b, command, seat, rng)
    elif isinstance(command, AnswerDeed):
        dirty_deeds.decide_answer(b, command, seat, rng)
    elif type(command) in SIMPLE:
        b.emit(*SIMPLE[type(command)](state, command, seat))
    else:
        raise RulesError("unknown_command", "no such command {command}", command=type(command).__name__)
    settle(b, rng)
    return b.events


def legal(state: State, seat: int) -> list[TMCommand]:
    if state.winners is not None:
        return []
    phase = state.phase
    if phase in ("draft", "mulligan"):
        return setup.legal_setup(state, seat)
    if phase == "till":
        return phases.legal_till(state, seat)
    if phase == "deeds":
        return dirty_deeds.legal_deeds(state, seat)
    out = trading.legal_trading(state, seat)
    if not state.players[seat].done:
        own = phases.legal_day(state, seat) if phase == "day" else phases.legal_night(state, seat)
        done = [] if trading.writing(state, seat) else [Done()]
        out = [*own, *out, *done]
    return out


def to_act(state: State) -> tuple[int, ...]:
    """The seats that have a choice to make now (those with legal commands), found cheaply."""
    if state.winners is not None:
        return ()
    if state.phase == "deeds":
        return (state.pending.target,) if state.pending is not None else (state.turn,)
    if state.phase in ("draft", "mulligan"):
        return tuple(s for s in range(state.seats) if setup.legal_setup(state, s))
    if state.phase == "till":
        return tuple(s for s in range(state.seats) if phases.legal_till(state, s))
    answering = {o.to for o in state.offers}
    return tuple(s for s, p in enumerate(state.players) if not p.done or s in answering)
