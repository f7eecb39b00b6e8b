"""What each seat (or a spectator) may know: its own hand, everything face up, counts of the rest."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from domain.kernel.redaction import AllowList, to_everyone
from domain.mercenaries import events as ev
from domain.mercenaries.content import Stats, rank_of
from domain.mercenaries.rules import may_attack, summoning_sick
from domain.mercenaries.state import Fight, GameRecord, State


class CardView(msgspec.Struct, frozen=True):
    card: str
    stats: Stats


class MercView(msgspec.Struct, frozen=True):
    card: CardView
    position: str
    summoning_sick: bool
    may_attack: bool


class SideView(msgspec.Struct, frozen=True):
    seat: int
    hp: int
    gold: int
    hand_count: int
    deck_count: int
    field: tuple[MercView, ...]
    trash: tuple[str, ...]
    all_in_used: bool


class MercenariesView(msgspec.Struct, frozen=True):
    seat: int | None
    best_of: int
    game: int
    wins: tuple[int, ...]
    treasury: int
    active: int
    turn: int
    phase: str
    hand: tuple[CardView, ...]  # this seat's own; empty for a spectator
    sides: tuple[SideView, ...]
    contracted: bool
    sold: bool
    all_in_turn: bool
    moved: tuple[str, ...]
    waiting_for: int  # the seat whose move it is; -1 once the match is over
    discard_candidates: tuple[str, ...]
    games: tuple[GameRecord, ...]
    match_winner: int
    last_combat: Fight | None  # the game's last fight, for both seats: dice, strengths, damage, losses


def card_view(card: str) -> CardView:
    return CardView(card=card, stats=rank_of(card).stats())


def waiting_for(state: State) -> int:
    if state.match_winner >= 0:
        return -1
    return state.discard_seat if state.discard_seat >= 0 else state.active


def view(state: State, seat: int | None) -> MercenariesView:
    sides = tuple(
        SideView(seat=s, hp=p.hp, gold=p.gold, hand_count=len(p.hand), deck_count=len(p.deck),
                 field=tuple(MercView(card=card_view(m.card), position=m.position,
                                      summoning_sick=summoning_sick(state, m), may_attack=may_attack(state, m))
                             for m in p.field),
                 trash=p.trash, all_in_used=p.all_in_used)
        for s, p in enumerate(state.players)
    )
    hand = tuple(card_view(c) for c in state.players[seat].hand) if seat is not None else ()
    return MercenariesView(
        seat=seat, best_of=state.best_of, game=state.number, wins=state.wins, treasury=state.treasury,
        active=state.active, turn=state.turn, phase=state.phase, hand=hand, sides=sides,
        contracted=state.contracted, sold=state.sold, all_in_turn=state.all_in_turn, moved=state.moved,
        waiting_for=waiting_for(state), discard_candidates=state.discard_from, games=state.records,
        match_winner=state.match_winner, last_combat=state.last_combat,
    )


def _shuffled(event: ev.DeckShuffled, seat: int | None) -> ev.DeckShuffled:
    return replace(event, cards=())  # nobody sees a deck's order


def _drawn(event: ev.CardsDrawn, seat: int | None) -> ev.CardsDrawn:
    return event if event.seat == seat else replace(event, cards=())


# Deck orders are seen by nobody; a drawn card only by the seat that drew it; the rest is face up.
event_view = AllowList({
    ev.DeckShuffled: _shuffled,
    ev.CardsDrawn: _drawn,
    **dict.fromkeys(
        (
            ev.StartingRoll, ev.GameBegan, ev.TurnBegan, ev.IncomeTaken, ev.Contracted, ev.MercenarySold,
            ev.PositionSet, ev.AllInDeclared, ev.PhaseBegan, ev.AttackDeclared, ev.Combat, ev.DirectAttack,
            ev.MercenariesTrashed, ev.DiscardChoiceAwaited, ev.WagesPaid, ev.WagesWaived, ev.MercenaryDismissed,
            ev.GameWon, ev.MatchWon,
        ),
        to_everyone,
    ),
})


def hidden(state: State, seat: int | None) -> set[str]:
    """Every card in a deck, and every hand but the seat's own."""
    out: set[str] = set()
    for s, player in enumerate(state.players):
        out.update(player.deck)
        if s != seat:
            out.update(player.hand)
    return out
