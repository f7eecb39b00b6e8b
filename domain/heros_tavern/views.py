"""What a seat (or a spectator, seat None) may see: its own hand and face-down pick, every tavern
face up, the discard pile, the scoring pads; never another hand, another face-down pick or the
draw pile's order or contents."""

from __future__ import annotations

import msgspec

from domain.heros_tavern import events as ev
from domain.heros_tavern.content import DECK, Card, Tokens
from domain.heros_tavern.events import CardPicked, Dealt, ScoreRow, Shuffled
from domain.heros_tavern.state import DRAFT, PURCHASE, State, supply_left
from domain.kernel import Seat, viewers
from domain.kernel.redaction import AllowList, to_everyone


class TavernCard(msgspec.Struct, frozen=True):
    card: Card
    tokens: Tokens | None  # the tokens paid onto a purchased card; None while unpurchased


class SeatView(msgspec.Struct, frozen=True):
    seat: int
    tavern: tuple[TavernCard, ...]
    tokens: Tokens  # unspent
    hand_size: int
    picked: bool  # has a face-down pick this turn (not which)
    purchasing: bool  # still buying this round
    pad: tuple[ScoreRow, ...]  # rounds 1-5, then final scoring
    score: int  # the pad so far (plus unspent tokens once the match is over)


class HtView(msgspec.Struct, frozen=True):
    seat: int | None
    round: int
    phase: str  # "draft", "purchase" or "over"
    pick_number: int  # 1-7 during the draft, 0 after it
    hand: tuple[Card, ...]
    my_pick: Card | None
    seats: tuple[SeatView, ...]
    discard: tuple[str, ...]  # face up; a card id names its kind (ht-<kind>-<copy>)
    deck_size: int
    supply: Tokens | None  # the piles left with option finite_tokens; None when they never run out
    winners: tuple[int, ...]


def seat_view(state: State, seat: Seat) -> SeatView:
    owned = state.purchased[seat]
    score = state.totals[seat] if state.totals else sum(row.total for row in state.pads[seat])
    return SeatView(
        seat=seat,
        tavern=tuple(TavernCard(DECK[c], DECK[c].cost if c in owned else None) for c in state.taverns[seat]),
        tokens=state.tokens[seat],
        hand_size=len(state.hands[seat]),
        picked=state.picks[seat] is not None,
        purchasing=state.phase == PURCHASE and not state.finished[seat],
        pad=state.pads[seat],
        score=score,
    )


def view(state: State, seat: Seat | None) -> HtView:
    return _view(state, seat, _panels(state))


def views(state: State) -> list[HtView]:
    """Every seat's view, then the spectator's: the seats' panels are public, built once for all."""
    panels = _panels(state)
    return [_view(state, seat, panels) for seat in viewers(state.seats)]


def _panels(state: State) -> tuple[SeatView, ...]:
    return tuple(seat_view(state, s) for s in range(state.seats))


def _view(state: State, seat: Seat | None, panels: tuple[SeatView, ...]) -> HtView:
    own_pick = state.picks[seat] if seat is not None else None
    return HtView(
        seat=seat,
        round=state.round,
        phase=state.phase,
        pick_number=state.picks_made + 1 if state.phase == DRAFT else 0,
        hand=tuple(DECK[c] for c in state.hands[seat]) if seat is not None else (),
        my_pick=DECK[own_pick] if own_pick else None,
        seats=panels,
        discard=state.discard,
        deck_size=len(state.draw),
        supply=supply_left(state) if state.options.get("finite_tokens") else None,
        winners=state.winners,
    )


def _shuffled(event: Shuffled, seat: Seat | None) -> Shuffled:
    return msgspec.structs.replace(event, cards=None)  # nobody sees a deck's order


def _dealt(event: Dealt, seat: Seat | None) -> Dealt:
    return msgspec.structs.replace(event, hands=tuple(h if s == seat else None for s, h in enumerate(event.hands)))


def _picked(event: CardPicked, seat: Seat | None) -> CardPicked:
    return event if event.seat == seat else msgspec.structs.replace(event, card=None)


# Deals show only the seat's own hand, picks only the picker's card, shuffles no order.
event_view = AllowList({
    Shuffled: _shuffled,
    Dealt: _dealt,
    CardPicked: _picked,
    **dict.fromkeys(
        (ev.PicksRevealed, ev.TavernsScored, ev.ResourcesAwarded, ev.CardBought, ev.PurchasesFinished,
         ev.CardsDiscarded, ev.MatchEnded),
        to_everyone,
    ),
})


def hidden(state: State, seat: Seat | None) -> set[str]:
    """Other seats' hands and face-down picks, and the whole draw pile."""
    secret = set(state.draw)
    for other in range(state.seats):
        if other != seat:
            secret.update(state.hands[other])
            pick = state.picks[other]
            if pick:
                secret.add(pick)
    return secret
