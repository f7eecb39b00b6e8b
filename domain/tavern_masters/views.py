"""What a seat may know: its own hand and packet, everything in play, counts of the rest."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.kernel.redaction import AllowList, to_everyone
from domain.tavern_masters import events as ev
from domain.tavern_masters.rules import to_act
from domain.tavern_masters.scoring import GOAL
from domain.tavern_masters.state import CHALLENGE_ROUNDS, State, private_move


class SeatView(msgspec.Struct, frozen=True):
    gold: int
    tavern: tuple[str, ...]
    hand_count: int
    done: bool


class TMView(msgspec.Struct, frozen=True):
    seat: int | None
    mode: str
    rounds: int  # the last round: the challenge's in co-operative and solo play, the round cap in competitive
    # (the round_cap option; 0: no cap, played on until a seat has 20 Gold)
    challenge: str  # the Challenge Chart row in co-operative and solo play ("" in competitive)
    target_gold: int  # the Gold to reach: every seat (co-operative), the seat (solo), the first seat (competitive)
    outcome: str  # "" while running; table_won | table_lost (co-operative), won | lost (solo), winners (competitive)
    dirty_deeds: bool
    card_list: int  # the card list the decks were built from (option card_list)
    phase: str
    round: int
    server: int
    turn: int  # whose Dirty Deeds turn (-1 outside that phase)
    to_act: tuple[int, ...]  # the seats the match waits for
    players: tuple[SeatView, ...]
    hand: tuple[str, ...]
    packet: tuple[str, ...]
    # at 2 seats, the packets this seat passed to its rival this match, one per draft step (empty otherwise):
    # the seat's own memory, from which the rival's packet and picks follow (RULINGS.md 6)
    passed: tuple[tuple[str, ...], ...]
    deck_counts: dict[str, int]
    discard_counts: dict[str, int]
    discard_tops: dict[str, str]  # the face-up top card of each discard pile ("" when empty)
    removed: tuple[str, ...]
    drafts: tuple[ev.Offer, ...]  # trade offers being written (hand cards shown only to the two seats)
    offers: tuple[ev.Offer, ...]  # trade offers sent, waiting for the answer
    opened: tuple[tuple[int, int], ...]  # (by, to): the offers opened this phase, one per ordered pair
    # (card, owner): other seats' hand cards a trade has shown this seat, as it was shown them: kept until
    # this seat sees the card move (played, discarded, given to it), never dropped by a move it cannot see
    shown: tuple[tuple[str, int], ...]
    pending: ev.DeedDeclared | None
    used: tuple[str, ...]  # Patron abilities used this round
    tie_rounds: int
    last_income: tuple[int, ...]
    winners: tuple[int, ...] | None


def _offer_for(offer: ev.Offer, seat: int | None) -> ev.Offer:
    """A card offered from a hand is shown to the two seats of the trade only: the others see "" for it."""
    if seat in (offer.by, offer.to) or not (offer.give_hand or offer.take_hand):
        return offer
    return replace(offer, give_hand=("",) * len(offer.give_hand), take_hand=("",) * len(offer.take_hand))


def _offer_seen(offer: ev.Offer, secret: set[str]) -> ev.Offer:
    """An offer in a view: a hand card in it that this seat may not know now shows as "" (it is in a
    hand outside the trade, or it left the hand it was shown in)."""
    if not any(c in secret for c in (*offer.give_hand, *offer.take_hand)):
        return offer
    return replace(offer, give_hand=tuple("" if c in secret else c for c in offer.give_hand),
                   take_hand=tuple("" if c in secret else c for c in offer.take_hand))


def _card_added_for(event: ev.OfferCardAdded, seat: int | None) -> ev.OfferCardAdded:
    if event.zone == "hand" and seat not in (event.by, event.to):
        return replace(event, card="")
    return event


CHALLENGES = {rounds: name for name, rounds in CHALLENGE_ROUNDS.items()}


def outcome(state: State) -> str:
    if state.winners is None:
        return ""
    if state.mode == "cooperative":
        return "table_won" if state.end_reason == "all_win" else "table_lost"
    if state.mode == "solo":
        return "won" if state.winners else "lost"
    return "winners"


def view(state: State, seat: int | None) -> TMView:
    me = state.players[seat] if seat is not None else None
    trades = (state.drafts, state.offers)
    secret = hidden(state, seat) if any(o.give_hand or o.take_hand for ts in trades for o in ts) else set()
    competitive = state.mode == "competitive"
    return TMView(
        seat=seat, mode=state.mode, rounds=state.round_cap if competitive else state.rounds,
        challenge="" if competitive else CHALLENGES[state.rounds], target_gold=GOAL, outcome=outcome(state),
        dirty_deeds=state.dirty_deeds, card_list=state.card_list, phase=state.phase,
        round=state.round, server=state.server, turn=state.turn, to_act=to_act(state),
        players=tuple(SeatView(gold=p.gold, tavern=p.tavern, hand_count=len(p.hand), done=p.done)
                      for p in state.players),
        hand=me.hand if me else (), packet=me.packet if me else (),
        passed=me.passed if me else (),
        deck_counts={k: len(v) for k, v in state.decks.items()},
        discard_counts={k: len(v) for k, v in state.discards.items()},
        discard_tops={k: v[-1] if v else "" for k, v in state.discards.items()}, removed=state.removed,
        drafts=tuple(_offer_seen(o, secret) for o in state.drafts),
        offers=tuple(_offer_seen(o, secret) for o in state.offers), opened=state.opened, pending=state.pending,
        shown=tuple((c, owner) for c, to, owner in state.shown if to == seat),
        used=state.used,
        tie_rounds=state.tie_rounds, last_income=state.last_income, winners=state.winners,
    )


def hidden(state: State, seat: int | None) -> set[str]:
    """Deck contents, and the other seats' hands and draft packets, less the hand cards shown to this
    seat in an offer (``state.shown``: until this seat sees them leave that hand) and the cards it
    passed its rival in the draft at 2 seats (``Player.passed``: it held them)."""
    out = {c for deck in state.decks.values() for c in deck}
    for other, player in enumerate(state.players):
        if other != seat:
            out.update(player.hand, player.packet)
    out.difference_update(c for c, to, _ in state.shown if to == seat)
    if seat is not None:
        out.difference_update(c for packet in state.players[seat].passed for c in packet)
    return out


def _setup_shown(event: Any, seat: int | None) -> Any:
    return replace(event, decks={k: () for k in event.decks})


def _reshuffle_shown(event: Any, seat: int | None) -> Any:
    return replace(event, order=())


def _own_deal_only(event: Any, seat: int | None) -> Any:
    return event if event.seat == seat else replace(event, cards=())


def _own_pick_only(event: Any, seat: int | None) -> Any:
    return event if event.seat == seat else replace(event, card="")


def _move_shown(event: Any, seat: int | None) -> Any:
    """A card moving between hidden zones is named only to the seat that receives it."""
    if private_move(event.src, event.dest) and not (seat == event.dest_owner and seat is not None):
        return replace(event, card="")
    return event


event_view = AllowList({
    ev.MatchSetUp: _setup_shown,
    ev.Reshuffled: _reshuffle_shown,
    ev.Dealt: _own_deal_only,
    ev.Picked: _own_pick_only,
    ev.CardMoved: _move_shown,
    ev.Offer: _offer_for,
    ev.OfferCardAdded: _card_added_for,
    **dict.fromkeys(
        (ev.DraftStep, ev.MulliganChosen, ev.RoundBegan, ev.PhaseBegan, ev.CardPlayed, ev.SeatDone,
         ev.OfferOpened, ev.OfferGoldSet, ev.OfferWithdrawn, ev.OfferAnswered, ev.GoldChanged, ev.IncomeCounted,
         ev.TurnBegan, ev.DeedDeclared, ev.DeedAnswered, ev.TieRound, ev.MatchEnded),
        to_everyone,
    ),
})
