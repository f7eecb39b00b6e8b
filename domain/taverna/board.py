"""The taverns: their printed content for this match's board side, owners, symbols and tables."""

from __future__ import annotations

from domain.taverna.content import TavernDef, taverns_for
from domain.taverna.state import State


def defs(state: State) -> dict[str, TavernDef]:
    return taverns_for(state.seats)


def symbols(state: State, tavern: str) -> set[str]:
    """Printed guild symbols and the guild tokens added since."""
    return {*defs(state)[tavern].symbols, *state.taverns[tavern].guilds}


def owners(state: State, tavern: str) -> list[int]:
    """Each distinct owner once (with option ``notary_second_deed`` a player may hold two deeds there)."""
    return list(dict.fromkeys(seat for seat in state.taverns[tavern].deeds if seat >= 0))


DEED_TOKENS = 5  # "the 5 property deed tokens" each player is given at setup: a player holds 5 at most


def deeds_held(state: State, seat: int) -> int:
    return sum(tavern.deeds.count(seat) for tavern in state.taverns.values())


def free_tables(state: State, tavern: str) -> list[int]:
    return [i for i, people in enumerate(state.taverns[tavern].tables) if not people]


def table_people(state: State, tavern: str, table: int) -> str:
    """The people (colour) printed on a table."""
    return defs(state)[tavern].tables[table]


def valid_table(state: State, tavern: str, table: int) -> bool:
    return tavern in state.taverns and 0 <= table < len(state.taverns[tavern].tables)


def can_host(state: State, tavern: str, guild: str) -> bool:
    """A guild token may join a tavern holding no such token yet, while the supply lasts (a printed symbol
    may be repeated: the rulebook forbids only two identical tokens)."""
    return guild in state.guild_supply and state.guild_supply[guild] > 0 and guild not in state.taverns[tavern].guilds


MAX_DIGNITARIES = 2  # a tavern never holds more than two dignitaries


def destinations(state: State, dignitary: str) -> list[str]:
    """Where a dignitary may move: another tavern with room."""
    return [
        t for t, tavern in state.taverns.items()
        if len(tavern.dignitaries) < MAX_DIGNITARIES and dignitary not in tavern.dignitaries
    ]
