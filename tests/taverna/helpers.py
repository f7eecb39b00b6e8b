"""Builders for Taverna test states: a match at any point, with the content the test names."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games import get_game
from domain.kernel import Command, Rng
from domain.taverna import events as ev
from domain.taverna.content import CUSTOMERS, DIGNITARIES, FAVOURS, SPELLS
from domain.taverna.state import State, Turn, evolve, initial, with_player, with_tavern

GAME = get_game("taverna")
SPELL_IDS = [s for s in SPELLS if not SPELLS[s].curse]
CURSE = next(s for s in SPELLS if SPELLS[s].curse)


def card(peoples: tuple[str, ...], guilds: tuple[str, ...]) -> str:
    """The id of a customer card with exactly these peoples and guild symbols."""
    return next(c.id for c in CUSTOMERS.values() if c.peoples == peoples and c.guilds == guilds)


def spell(name: str, copy: int = 0) -> str:
    return [s.id for s in SPELLS.values() if s.name == name][copy]


def favour(kind: str, guild: str = "") -> str:
    return next(f.id for f in FAVOURS.values() if f.kind == kind and f.guild == guild)


def game_state(seats: int = 3, **changes: Any) -> State:
    """A match in its turns: King's people elf, dignitaries in t1..t4 (notary, gob'trotter, princess,
    ambassador), no deeds, the spell deck in content order (no Curse), five favours at the castle."""
    state = initial(GAME.setup(seats, {"curse": False}))
    state = evolve(state, ev.DignitariesPlaced(places=dict(zip(DIGNITARIES, ("t1", "t2", "t3", "t4"), strict=True))))
    row_and_deck = [c for c, d in CUSTOMERS.items() if d.players <= seats]
    favours = list(FAVOURS)
    state = replace(
        state, phase="turns", king="elf", row=tuple(row_and_deck[:4]), customer_deck=tuple(row_and_deck[4:]),
        spell_deck=tuple(SPELL_IDS), castle=tuple(favours[:5]), favour_reserve=tuple(favours[5:]), turn=Turn(seat=0),
    )
    return replace(state, **changes)


def at_step(state: State, step: str, seat: int = 0, people: str = "elf", guilds: tuple[str, ...] = (),
            card_id: str = "", tavern: str = "", **turn: Any) -> State:
    """The turn of ``seat`` at ``step`` with the card's people and symbols given."""
    return replace(state, turn=Turn(seat=seat, step=step, card=card_id, people=people, guilds=guilds, tavern=tavern,
                                    **turn))


def player(state: State, seat: int, **changes: Any) -> State:
    return with_player(state, seat, **changes)


def tavern(state: State, tavern_id: str, **changes: Any) -> State:
    return with_tavern(state, tavern_id, **changes)


def act(state: State, seat: int, command: Command) -> tuple[State, list]:
    """Decide and fold: the new state and the events."""
    events = GAME.decide(state, command, seat, Rng("test", 0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def refused(state: State, seat: int, command: Command) -> str:
    """The error code of a refused command (fails the test if it is accepted)."""
    from domain.kernel import RulesError

    try:
        GAME.decide(state, command, seat, Rng("test", 0))
    except RulesError as error:
        return error.code
    raise AssertionError(f"{command!r} was accepted")


def give(state: State, seat: int, *cards: str) -> State:
    """Put these spells in the seat's hand, out of the draw pile."""
    state = replace(state, spell_deck=tuple(c for c in state.spell_deck if c not in cards))
    return with_player(state, seat, hand=cards)
