"""The state of a match and its fold."""

from __future__ import annotations

from functools import singledispatch
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.heros_tavern.content import BOX, Tokens
from domain.heros_tavern.events import (
    CardBought,
    CardPicked,
    CardsDiscarded,
    Dealt,
    MatchEnded,
    PicksRevealed,
    PurchasesFinished,
    ResourcesAwarded,
    ScoreRow,
    Shuffled,
    TavernsScored,
)
from domain.kernel import Setup
from domain.kernel.seats import right_of

ROUNDS = 5
HAND_SIZE = 7
DRAFT, PURCHASE, OVER = "draft", "purchase", "over"


class State(msgspec.Struct, frozen=True):
    seats: int
    options: dict[str, Any]
    round: int = 0
    phase: str = DRAFT
    picks_made: int = 0  # reveals so far this round
    draw: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    picks: tuple[str | None, ...] = ()  # face down, per seat
    taverns: tuple[tuple[str, ...], ...] = ()  # face up, per seat, purchased cards first
    purchased: tuple[tuple[str, ...], ...] = ()  # per seat: cards carrying their cost in tokens
    tokens: tuple[Tokens, ...] = ()  # unspent, per seat
    awarded: Tokens = Tokens()  # every token handed out so far: what left the supply for good
    finished: tuple[bool, ...] = ()  # per seat: done purchasing this round
    pads: tuple[tuple[ScoreRow, ...], ...] = ()  # per seat: one row per scoring so far
    totals: tuple[int, ...] = ()  # set when the match ends
    winners: tuple[int, ...] = ()


def initial(setup: Setup) -> State:
    n = setup.seats
    return State(
        seats=n, options=dict(setup.options), hands=((),) * n, picks=(None,) * n, taverns=((),) * n,
        purchased=((),) * n, tokens=(Tokens(),) * n, finished=(False,) * n, pads=((),) * n,
    )


def supply_left(state: State) -> Tokens:
    """The box's piles less every token handed out: spent tokens stay on their cards."""
    return Tokens(BOX, BOX, BOX) - state.awarded


def with_item(items: tuple, index: int, value: Any) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


@singledispatch
def apply(event: Any, state: State) -> State:
    raise TypeError(f"no fold for {type(event).__name__}")


@apply.register
def _(event: Shuffled, state: State) -> State:
    return replace(state, draw=state.draw + (event.cards or ()), discard=())


@apply.register
def _(event: Dealt, state: State) -> State:
    hands = tuple(hand or () for hand in event.hands)
    dealt = sum(map(len, hands))
    return replace(
        state, round=event.round, phase=DRAFT, picks_made=0, draw=state.draw[dealt:], hands=hands,
        finished=(False,) * state.seats,
    )


@apply.register
def _(event: CardPicked, state: State) -> State:
    return replace(state, picks=with_item(state.picks, event.seat, event.card))


@apply.register
def _(event: PicksRevealed, state: State) -> State:
    n = state.seats
    kept = tuple(tuple(c for c in hand if c != pick) for hand, pick in zip(state.hands, event.cards, strict=True))
    return replace(
        state,
        picks_made=state.picks_made + 1,
        picks=(None,) * n,
        taverns=tuple((*t, pick) for t, pick in zip(state.taverns, event.cards, strict=True)),
        hands=tuple(kept[right_of(seat, n)] for seat in range(n)),  # each hand goes to the left
    )


@apply.register
def _(event: TavernsScored, state: State) -> State:
    return replace(state, pads=tuple((*pad, row) for pad, row in zip(state.pads, event.rows, strict=True)))


@apply.register
def _(event: ResourcesAwarded, state: State) -> State:
    tokens = tuple(have + got for have, got in zip(state.tokens, event.awards, strict=True))
    awarded = sum(event.awards, state.awarded)
    return replace(state, tokens=tokens, awarded=awarded, phase=state.phase if event.final else PURCHASE)


@apply.register
def _(event: CardBought, state: State) -> State:
    seat = event.seat
    return replace(
        state,
        tokens=with_item(state.tokens, seat, state.tokens[seat] - event.cost),
        purchased=with_item(state.purchased, seat, (*state.purchased[seat], event.card)),
    )


@apply.register
def _(event: PurchasesFinished, state: State) -> State:
    return replace(state, finished=with_item(state.finished, event.seat, True))


@apply.register
def _(event: CardsDiscarded, state: State) -> State:
    # what stays is the purchased cards; they lead the tavern from now on
    return replace(state, discard=state.discard + event.cards, taverns=state.purchased)


@apply.register
def _(event: MatchEnded, state: State) -> State:
    return replace(state, phase=OVER, totals=event.totals, winners=event.winners)


def evolve(state: State, event: Any) -> State:
    return apply(event, state)
