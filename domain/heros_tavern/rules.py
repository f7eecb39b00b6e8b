"""decide and legal: the rulebook's phases, one small function per rule.

A command runs the table on as far as it can: the last face-down pick reveals; the last reveal
scores, awards and opens the purchases; the last seat done purchasing discards and deals the next
round (or ends the match). Seats that can afford nothing are done purchasing at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.heros_tavern.commands import BuyCard, FinishPurchases, HtCommand, PickCard
from domain.heros_tavern.content import DECK, TOKEN_KINDS, Tokens
from domain.heros_tavern.events import (
    CardBought,
    CardPicked,
    CardsDiscarded,
    Dealt,
    HtEvent,
    MatchEnded,
    PicksRevealed,
    PurchasesFinished,
    ResourcesAwarded,
    Shuffled,
    TavernsScored,
)
from domain.heros_tavern.scoring import kinds_of, ranks, resources, score_taverns
from domain.heros_tavern.state import DRAFT, HAND_SIZE, OVER, PURCHASE, ROUNDS, State, evolve, supply_left
from domain.kernel import Result, Rng, Seat, Standing, require


class Turn:
    """The events a command gives, and the state they lead to so far."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[HtEvent] = []

    def add(self, event: HtEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


# ---- set up and deal ----------------------------------------------------------------------------

def begin(state: State, rng: Rng) -> list[HtEvent]:
    """Shuffle the whole deck into the draw pile and deal the first round."""
    turn = Turn(state)
    turn.add(Shuffled(cards=tuple(rng.shuffle(sorted(DECK))), count=len(DECK)))
    deal(turn, rng)
    return turn.events


def hand_size(state: State) -> int:
    """7, or fewer if even the reshuffled discards cannot give everyone 7 (HT-12)."""
    return min(HAND_SIZE, (len(state.draw) + len(state.discard)) // state.seats)


def deal(turn: Turn, rng: Rng) -> None:
    """Deal a round one card at a time; a short draw pile takes the shuffled discards underneath."""
    state, n = turn.state, turn.state.seats
    size = hand_size(state)
    if len(state.draw) < size * n:
        turn.add(Shuffled(cards=tuple(rng.shuffle(state.discard)), count=len(state.discard)))
    top = turn.state.draw[: size * n]
    turn.add(Dealt(round=state.round + 1, hands=tuple(top[seat::n] for seat in range(n))))
    if size == 0:
        end_draft(turn, rng)


# ---- draft --------------------------------------------------------------------------------------

def pick(state: State, command: PickCard, seat: Seat, rng: Rng) -> list[HtEvent]:
    require(state.phase == DRAFT, "phase_over", "the draft is over this round")
    require(state.picks[seat] is None, "already_picked", "you have picked; wait for the others")
    require(command.card in state.hands[seat], "not_your_card", "{card} is not in your hand", card=command.card)
    turn = Turn(state)
    turn.add(CardPicked(seat=seat, card=command.card))
    if None not in turn.state.picks:
        reveal(turn, rng)
    return turn.events


def reveal(turn: Turn, rng: Rng) -> None:
    """All picks are in: turn them up and pass the hands left; empty hands end the draft."""
    turn.add(PicksRevealed(cards=tuple(filter(None, turn.state.picks))))
    if not turn.state.hands[0]:
        end_draft(turn, rng)


# ---- score, award, purchase ---------------------------------------------------------------------

def score_and_award(turn: Turn, final: bool) -> None:
    """The Score phase, then the Award Resources phase, over every tavern as it stands."""
    state = turn.state
    capped = bool(state.options.get("shopkeeper_cap"))
    zero_second = bool(state.options.get("zero_entertainment_second"))
    staff_once = state.options.get("staff_copies") == "once"
    rows = score_taverns(state.taverns, capped, zero_second, staff_once)
    turn.add(TavernsScored(round=state.round, final=final, rows=rows))
    awards = tuple(resources(kinds_of(tavern)) for tavern in state.taverns)
    if state.options.get("finite_tokens"):
        awards = share(awards, supply_left(state), first=(state.round - 1) % state.seats)
    turn.add(ResourcesAwarded(round=state.round, final=final, awards=awards))


def share(wanted: tuple[Tokens, ...], supply: Tokens, first: int) -> tuple[Tokens, ...]:
    """Awards from a finite supply: a kind that runs short is handed out one token at a time round the
    table from ``first`` (a seat that moves one on each round), until the pile or the awards run out."""
    seats = len(wanted)
    order = [(first + k) % seats for k in range(seats)]
    given = [dict.fromkeys(TOKEN_KINDS, 0) for _ in range(seats)]
    for kind in TOKEN_KINDS:
        left = getattr(supply, kind)
        while left > 0 and any(given[s][kind] < getattr(wanted[s], kind) for s in order):
            for s in order:
                if left > 0 and given[s][kind] < getattr(wanted[s], kind):
                    given[s][kind] += 1
                    left -= 1
    return tuple(Tokens(**g) for g in given)


def end_draft(turn: Turn, rng: Rng) -> None:
    score_and_award(turn, final=False)
    for seat in range(turn.state.seats):
        finish_if_stuck(turn, seat)
    end_round_when_all_done(turn, rng)


def affordable(state: State, seat: Seat) -> list[str]:
    """The unpurchased cards of the seat's tavern that its tokens pay for exactly."""
    owned, purse = state.purchased[seat], state.tokens[seat]
    return [c for c in state.taverns[seat] if c not in owned and purse.covers(DECK[c].cost)]


def finish_if_stuck(turn: Turn, seat: Seat) -> None:
    """A seat that can afford nothing more is done without having to say so."""
    if not turn.state.finished[seat] and not affordable(turn.state, seat):
        turn.add(PurchasesFinished(seat=seat, automatic=True))


def check_purchasing(state: State, seat: Seat) -> None:
    require(state.phase == PURCHASE, "phase_over", "this is not the purchase phase")
    require(not state.finished[seat], "purchases_finished", "you are done purchasing this round")


def buy(state: State, command: BuyCard, seat: Seat, rng: Rng) -> list[HtEvent]:
    check_purchasing(state, seat)
    card = command.card
    require(card in state.taverns[seat], "not_your_card", "{card} is not in your tavern", card=card)
    require(card not in state.purchased[seat], "already_purchased", "{card} is already yours for good", card=card)
    cost = DECK[card].cost
    require(state.tokens[seat].covers(cost), "cannot_afford", "{card} costs {cost}", card=card, cost=str(cost))
    turn = Turn(state)
    turn.add(CardBought(seat=seat, card=card, cost=cost))
    finish_if_stuck(turn, seat)
    end_round_when_all_done(turn, rng)
    return turn.events


def finish(state: State, command: FinishPurchases, seat: Seat, rng: Rng) -> list[HtEvent]:
    check_purchasing(state, seat)
    turn = Turn(state)
    turn.add(PurchasesFinished(seat=seat, automatic=False))
    end_round_when_all_done(turn, rng)
    return turn.events


# ---- discard, next round, final scoring ---------------------------------------------------------

def end_round_when_all_done(turn: Turn, rng: Rng) -> None:
    if all(turn.state.finished):
        end_round(turn, rng)


def end_round(turn: Turn, rng: Rng) -> None:
    state = turn.state
    unpurchased = tuple(
        card for tavern, owned in zip(state.taverns, state.purchased, strict=True) for card in tavern
        if card not in owned
    )
    turn.add(CardsDiscarded(round=state.round, cards=unpurchased))
    if state.round < ROUNDS:
        deal(turn, rng)
    else:
        final_scoring(turn)


def final_scoring(turn: Turn) -> None:
    """Score the purchased taverns once more, award their resources, add a hero per unspent token."""
    score_and_award(turn, final=True)
    unspent = tuple(purse.count for purse in turn.state.tokens)
    totals = tuple(sum(r.total for r in pad) + u for pad, u in zip(turn.state.pads, unspent, strict=True))
    places = ranks(totals, unspent)
    turn.add(MatchEnded(totals=totals, unspent=unspent, winners=tuple(s for s, p in enumerate(places) if p == 1)))


# ---- the interface --------------------------------------------------------------------------------

# each handler takes a command of its key's type (which a dict cannot tie to its value: Any)
HANDLERS: dict[type, Callable[[State, Any, Seat, Rng], list[HtEvent]]] = {
    PickCard: pick, BuyCard: buy, FinishPurchases: finish,
}


def decide(state: State, command: HtCommand, seat: Seat, rng: Rng) -> list[HtEvent]:
    require(state.phase != OVER, "match_over", "the match is over")
    require(0 <= seat < state.seats, "no_such_seat", "there is no seat {seat}", seat=seat)
    return HANDLERS[type(command)](state, command, seat, rng)


def legal(state: State, seat: Seat) -> list[HtCommand]:
    if state.phase == DRAFT and state.picks[seat] is None:
        return [PickCard(card=card) for card in state.hands[seat]]
    if state.phase == PURCHASE and not state.finished[seat]:
        return [*(BuyCard(card=card) for card in affordable(state, seat)), FinishPurchases()]
    return []


def result(state: State) -> Result | None:
    if state.phase != OVER:
        return None
    unspent = [purse.count for purse in state.tokens]
    places = ranks(state.totals, unspent)
    standings = tuple(
        Standing(seat=s, rank=places[s], score=state.totals[s], tiebreak=unspent[s]) for s in range(state.seats)
    )
    return Result(winners=state.winners, standings=standings, details={"tiebreak": "unspent tokens"})
