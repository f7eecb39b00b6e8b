"""The harness can fail: a small sound game passes it, and each broken variant is caught.

The toy game is "high card": two seats, three cards each from a shuffled deck of ten; both pick a
card face-down, the higher card takes the trick, three tricks in all.
"""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from domain.kernel import (
    Command,
    Event,
    Game,
    Result,
    Rng,
    RulesError,
    ScoreLine,
    ScoreLines,
    Setup,
    Standing,
    StuckError,
    require,
)
from tests.conformance.harness import check_match

DECK = tuple(f"c{n:02d}" for n in range(10))


class Pick(Command):
    card: str


class Dealt(Event):
    hands: tuple[tuple[str, ...], ...]


class Picked(Event):
    seat: int
    card: str | None


class Trick(Event):
    cards: tuple[str, str]
    winner: int


class State(msgspec.Struct, frozen=True):
    hands: tuple[tuple[str, ...], ...] = ((), ())
    picks: tuple[str | None, ...] = (None, None)
    tricks: tuple[int, int] = (0, 0)
    played: int = 0


class View(msgspec.Struct, frozen=True):
    hand: tuple[str, ...]
    picked: tuple[bool, ...]
    tricks: tuple[int, int]


def initial(setup: Setup) -> State:
    return State()


def begin(state: State, rng: Rng) -> list[Event]:
    cards = rng.shuffle(DECK)
    return [Dealt(hands=(tuple(cards[:3]), tuple(cards[3:6])))]


def evolve(state: State, event: Event) -> State:
    if isinstance(event, Dealt):
        return msgspec.structs.replace(state, hands=event.hands)
    if isinstance(event, Picked):
        hands = list(state.hands)
        hands[event.seat] = tuple(c for c in hands[event.seat] if c != event.card)
        picks = list(state.picks)
        picks[event.seat] = event.card
        return msgspec.structs.replace(state, hands=tuple(hands), picks=tuple(picks))
    assert isinstance(event, Trick)
    tricks = list(state.tricks)
    tricks[event.winner] += 1
    return State(hands=state.hands, picks=(None, None), tricks=(tricks[0], tricks[1]), played=state.played + 1)


def decide(state: State, command: Command, seat: int, rng: Rng) -> list[Event]:
    require(state.played < 3, "match_over", "all tricks are played")
    require(isinstance(command, Pick), "unknown_command", "only Pick")
    assert isinstance(command, Pick)
    require(state.picks[seat] is None, "already_picked", "one card a trick")
    require(command.card in state.hands[seat], "card_not_in_hand", "pick from your hand")
    events: list[Event] = [Picked(seat=seat, card=command.card)]
    other = state.picks[1 - seat]
    if other is not None:
        cards = (command.card, other) if seat == 0 else (other, command.card)
        events.append(Trick(cards=cards, winner=0 if cards[0] > cards[1] else 1))
    return events


def legal(state: State, seat: int) -> list[Command]:
    if state.played >= 3 or state.picks[seat] is not None:
        return []
    return [Pick(card=card) for card in state.hands[seat]]


def view(state: State, seat: int | None) -> View:
    hand = state.hands[seat] if seat is not None else ()
    return View(hand=hand, picked=tuple(p is not None for p in state.picks), tricks=state.tricks)


def event_view(event: Event, seat: int | None) -> Event | None:
    if isinstance(event, Dealt):
        return Dealt(hands=tuple(h if s == seat else () for s, h in enumerate(event.hands)))
    if isinstance(event, Picked) and event.seat != seat:
        return Picked(seat=event.seat, card=None)
    return event


def hidden(state: State, seat: int | None) -> set[str]:
    others = [s for s in (0, 1) if s != seat]
    return {c for s in others for c in state.hands[s]} | {state.picks[s] for s in others if state.picks[s]}


def result(state: State) -> Result | None:
    if state.played < 3:
        return None
    a, b = state.tricks
    winners = (0,) if a > b else (1,)
    return Result(winners=winners, standings=(Standing(seat=0, rank=1 if a > b else 2, score=a),
                                               Standing(seat=1, rank=1 if b > a else 2, score=b)))


def breakdown(state: State) -> ScoreLines | None:
    return (ScoreLine("tricks", state.tricks),) if state.played >= 3 else None


SOUND = Game(
    id="high-card", name="High Card", rulebook="", min_seats=2, max_seats=2, options=(),
    command_type=Pick, event_type=Dealt | Picked | Trick, view_type=View,
    initial=initial, begin=begin, evolve=evolve, decide=decide, legal=legal, view=view,
    event_view=event_view, hidden=hidden, result=result, breakdown=breakdown,
)
SETUP = Setup(seats=2, options={})


def test_a_sound_game_passes():
    for index in range(10):
        check_match(SOUND, SETUP, seed=f"sound-{index}")


def broken(**changes) -> Game:
    return dataclasses.replace(SOUND, **changes)


def leaky_view(state: State, seat: int | None) -> View:
    return View(hand=tuple(c for h in state.hands for c in h), picked=(False, False), tricks=state.tricks)


def unredacted(event: Event, seat: int | None) -> Event | None:
    return event


def lax_decide(state: State, command: Command, seat: int, rng: Rng) -> list[Event]:
    assert isinstance(command, Pick)
    return [Picked(seat=seat, card=command.card)] if state.played < 3 and state.picks[seat] is None else []


def overeager_legal(state: State, seat: int) -> list[Command]:
    return [*legal(state, seat), Pick(card="c99")] if legal(state, seat) else []


def endless_result(state: State) -> Result | None:
    return None


def short_breakdown(state: State) -> ScoreLines | None:
    """A breakdown that forgets seat 0's first trick."""
    return (ScoreLine("tricks", (state.tricks[0] - 1, state.tricks[1])),) if state.played >= 3 else None


def early_breakdown(state: State) -> ScoreLines | None:
    return (ScoreLine("tricks", state.tricks),)


def stale_views(state: State) -> list[View]:
    """A views() that builds everyone's view from seat 0's: not what view() says seat by seat."""
    return [view(state, 0)] * (len(state.hands) + 1)


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (broken(view=leaky_view), "hidden items"),
        (broken(event_view=unredacted), "hidden items"),
        (broken(legal=overeager_legal), "card_not_in_hand"),
        (broken(decide=lax_decide), "outside legal"),
        (broken(result=endless_result), "no seat can act"),
        (broken(views=stale_views), "views() differs from view()"),
        (broken(breakdown=short_breakdown), "the breakdown adds up to"),
        (broken(breakdown=early_breakdown), "a breakdown before the end"),
    ],
    ids=[
        "leaky-view", "unredacted-event", "legal-offers-illegal", "decide-accepts-illegal", "never-ends",
        "views-differ-from-view", "breakdown-misses-a-point", "breakdown-before-the-end",
    ],
)
def test_a_broken_game_is_caught(game, expected):
    with pytest.raises((AssertionError, RulesError, StuckError)) as caught:
        for index in range(10):
            check_match(game, SETUP, seed=f"broken-{index}")
    assert expected in str(caught.value)
