"""The state of a match and its fold (evolve): pure, never drawing, never mutating."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.kernel import Event, Setup
from domain.mercenaries import events as ev
from domain.mercenaries.content import SETTINGS
from domain.mercenaries.events import MercenariesEvent

SETUP, MORNING, AFTERNOON, NIGHT, OVER = "setup", "morning", "afternoon", "night", "over"


class Merc(msgspec.Struct, frozen=True):
    """A mercenary on the field; ``turn`` is the turn it was contracted (summoning sickness)."""

    card: str
    position: str
    turn: int


class Player(msgspec.Struct, frozen=True):
    hp: int
    gold: int
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()  # top card first
    field: tuple[Merc, ...] = ()
    trash: tuple[str, ...] = ()
    all_in_used: bool = False


class Fight(msgspec.Struct, frozen=True):
    """The last combat of the game, kept for the views: the dice, the strengths, the damage and the
    mercenaries each side lost to the Trash. A direct attack has no attacker's dice: its strength is
    the Swords, the defence's the defender's roll."""

    attacker: int
    defender: int
    kind: str  # attack_vs_attack | attack_vs_defence | attack_vs_mixed | direct
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attack_strength: int
    defence_strength: int
    loser: int  # the seat that took the damage; -1 on a stand-off
    damage: int
    overrun: bool = False
    trashed: tuple[tuple[str, ...], ...] = ((), ())  # per seat


class GameRecord(msgspec.Struct, frozen=True):
    number: int
    winner: int
    reason: str


class State(msgspec.Struct, frozen=True):
    best_of: int
    players: tuple[Player, ...]
    treasury: int
    trash_lowest_overall: bool = False  # option ava_trash: Attack vs Attack trashes the lowest of all
    sell_from_field: bool = False  # option sell_from: a field mercenary may be sold too
    number: int = 0  # the game of the match being played, from 1
    wins: tuple[int, ...] = (0, 0)
    active: int = 0
    turn: int = 0
    phase: str = SETUP
    contracted: bool = False  # this turn
    dawn_gold: int = 0  # the active player's Gold as its Morning began, before the income (All In)
    sold: bool = False  # this turn
    all_in_turn: bool = False
    moved: tuple[str, ...] = ()  # mercenaries whose position was set this turn
    discard_seat: int = -1  # the seat choosing among tied lowest mercenaries, -1 if none
    discard_from: tuple[str, ...] = ()
    records: tuple[GameRecord, ...] = ()
    match_winner: int = -1
    last_combat: Fight | None = None


def fresh_player() -> Player:
    return Player(hp=SETTINGS["starting_hp"], gold=SETTINGS["starting_gold"])


def initial(setup: Setup) -> State:
    players = tuple(fresh_player() for _ in range(setup.seats))
    return State(best_of=setup.options["best_of"], players=players, treasury=SETTINGS["treasury"],
                 trash_lowest_overall=setup.options.get("ava_trash") == "lowest_overall",
                 sell_from_field=setup.options.get("sell_from") == "hand_or_field")


def with_player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def field_cards(player: Player) -> tuple[str, ...]:
    return tuple(m.card for m in player.field)


def without(cards: tuple[str, ...], gone: tuple[str, ...] | set[str]) -> tuple[str, ...]:
    return tuple(c for c in cards if c not in gone)


def _trash(state: State, seat: int, cards: tuple[str, ...]) -> State:
    player = state.players[seat]
    field = tuple(m for m in player.field if m.card not in cards)
    return with_player(state, seat, field=field, trash=player.trash + cards)


def _game_began(state: State, e: ev.GameBegan) -> State:
    players = tuple(fresh_player() for _ in state.players)
    # a new game forgets the last one's turn: its moved cards are back in the decks
    return replace(state, players=players, treasury=SETTINGS["treasury"], number=e.number, active=e.first,
                   turn=0, phase=SETUP, contracted=False, sold=False, all_in_turn=False, moved=(),
                   discard_seat=-1, discard_from=(), last_combat=None)


def _shuffled(state: State, e: ev.DeckShuffled) -> State:
    return with_player(state, e.seat, deck=e.cards)


def _drawn(state: State, e: ev.CardsDrawn) -> State:
    player = state.players[e.seat]
    return with_player(state, e.seat, deck=player.deck[len(e.cards):], hand=player.hand + e.cards)


def _turn_began(state: State, e: ev.TurnBegan) -> State:
    return replace(state, active=e.seat, turn=e.turn, phase=MORNING, contracted=False, sold=False,
                   all_in_turn=False, moved=(), dawn_gold=state.players[e.seat].gold)


def _income(state: State, e: ev.IncomeTaken) -> State:
    state = with_player(state, e.seat, gold=state.players[e.seat].gold + e.amount)
    return replace(state, treasury=state.treasury - e.amount)


def _contracted(state: State, e: ev.Contracted) -> State:
    state = _trash(state, e.seat, e.sacrifices)
    player = state.players[e.seat]
    merc = Merc(card=e.card, position=e.position, turn=state.turn)
    state = with_player(state, e.seat, hand=without(player.hand, {e.card}), field=(*player.field, merc),
                        gold=player.gold - e.cost)
    return replace(state, treasury=state.treasury + e.cost, contracted=True, moved=(*state.moved, e.card))


def _sold(state: State, e: ev.MercenarySold) -> State:
    """From the hand, or (option ``sell_from``) from the field."""
    player = state.players[e.seat]
    field = tuple(m for m in player.field if m.card != e.card)
    state = with_player(state, e.seat, hand=without(player.hand, {e.card}), field=field,
                        trash=(*player.trash, e.card), gold=player.gold + e.price)
    return replace(state, treasury=state.treasury - e.price, sold=True)


def _position_set(state: State, e: ev.PositionSet) -> State:
    player = state.players[e.seat]
    field = tuple(replace(m, position=e.position) if m.card == e.card else m for m in player.field)
    return replace(with_player(state, e.seat, field=field), moved=(*state.moved, e.card))


def _all_in(state: State, e: ev.AllInDeclared) -> State:
    p = state.players[e.seat]
    # the order of the gathered cards does not matter: the DeckShuffled that follows sets it
    state = with_player(state, e.seat, gold=p.gold - e.donated, hp=p.hp - e.hp_lost, hand=(), field=(), trash=(),
                        deck=p.deck + p.hand + field_cards(p) + p.trash, all_in_used=True)
    # the All In turn's free Contract is its own: one made before the All In went back into the deck
    fight = state.last_combat
    if fight is not None:  # its losses went back into the deck, where nobody may follow them
        fight = replace(fight, trashed=tuple(() if s == e.seat else c for s, c in enumerate(fight.trashed)))
    return replace(state, treasury=state.treasury + e.donated, all_in_turn=True, moved=(), last_combat=fight,
                   contracted=False)


def _phase(state: State, e: ev.PhaseBegan) -> State:
    return replace(state, phase=e.phase)


def _hurt(state: State, seat: int, damage: int) -> State:
    return with_player(state, seat, hp=max(0, state.players[seat].hp - damage))


def _combat(state: State, e: ev.Combat) -> State:
    fight = Fight(attacker=e.attacker, defender=e.defender, kind=e.kind, attack_dice=e.attack_dice,
                  defence_dice=e.defence_dice, attack_strength=e.attack_strength,
                  defence_strength=e.defence_strength, loser=e.loser, damage=e.damage, overrun=e.overrun)
    state = replace(state, last_combat=fight)
    return _hurt(state, e.loser, e.damage) if e.loser >= 0 else state


def _direct(state: State, e: ev.DirectAttack) -> State:
    fight = Fight(attacker=e.attacker, defender=e.defender, kind="direct", attack_dice=(),
                  defence_dice=e.defence_dice, attack_strength=e.swords, defence_strength=sum(e.defence_dice),
                  loser=e.defender if e.damage else -1, damage=e.damage)
    return _hurt(replace(state, last_combat=fight), e.defender, e.damage)


def _trashed(state: State, e: ev.MercenariesTrashed) -> State:
    fight = state.last_combat
    if fight is not None:  # combat losses: kept with the fight they came from
        trashed = tuple((*cards, *e.cards) if seat == e.seat else cards for seat, cards in enumerate(fight.trashed))
        state = replace(state, last_combat=replace(fight, trashed=trashed))
    return replace(_trash(state, e.seat, e.cards), discard_seat=-1, discard_from=())


def _discard_awaited(state: State, e: ev.DiscardChoiceAwaited) -> State:
    return replace(state, discard_seat=e.seat, discard_from=e.candidates)


def _wages(state: State, e: ev.WagesPaid) -> State:
    state = with_player(state, e.seat, gold=state.players[e.seat].gold - e.amount)
    return replace(state, treasury=state.treasury + e.amount)


def _dismissed(state: State, e: ev.MercenaryDismissed) -> State:
    return _trash(state, e.seat, (e.card,))


def _game_won(state: State, e: ev.GameWon) -> State:
    wins = tuple(w + (seat == e.winner) for seat, w in enumerate(state.wins))
    record = GameRecord(number=e.number, winner=e.winner, reason=e.reason)
    return replace(state, wins=wins, records=(*state.records, record), phase=SETUP, discard_seat=-1, discard_from=())


def _match_won(state: State, e: ev.MatchWon) -> State:
    return replace(state, match_winner=e.winner, phase=OVER)


def _same(state: State, _: Event) -> State:
    return state


_EVOLVE: dict[type, Callable[[State, Any], State]] = {
    ev.StartingRoll: _same, ev.GameBegan: _game_began, ev.DeckShuffled: _shuffled, ev.CardsDrawn: _drawn,
    ev.TurnBegan: _turn_began, ev.IncomeTaken: _income, ev.Contracted: _contracted, ev.MercenarySold: _sold,
    ev.PositionSet: _position_set, ev.AllInDeclared: _all_in, ev.PhaseBegan: _phase, ev.AttackDeclared: _same,
    ev.Combat: _combat, ev.DirectAttack: _direct, ev.MercenariesTrashed: _trashed,
    ev.DiscardChoiceAwaited: _discard_awaited, ev.WagesPaid: _wages, ev.WagesWaived: _same,
    ev.MercenaryDismissed: _dismissed, ev.GameWon: _game_won, ev.MatchWon: _match_won,
}


def evolve(state: State, event: Event) -> State:
    return _EVOLVE[type(event)](state, event)


class Step:
    """The events a decision emits so far and the state they lead to: later rules read the new state."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[MercenariesEvent] = []

    def add(self, event: MercenariesEvent) -> State:
        self.state = evolve(self.state, event)
        self.events.append(event)
        return self.state
