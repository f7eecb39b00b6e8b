"""Taverna's content, loaded once from seeds/taverna/*.json into frozen definitions."""

from __future__ import annotations

import msgspec

from domain.kernel.content import load_seed

GAME = "taverna"


class Deed(msgspec.Struct, frozen=True):
    price: int
    points: int


class TavernDef(msgspec.Struct, frozen=True):
    id: str
    name: str
    size: str
    tables: tuple[str, ...]  # the people (colour) of each table
    deeds: tuple[Deed, ...]
    symbols: tuple[str, ...]  # printed guild symbols
    provenance: str
    note: str = ""


class Side(msgspec.Struct, frozen=True):
    id: str
    taverns: tuple[TavernDef, ...]


class Board(msgspec.Struct, frozen=True):
    sides: tuple[Side, ...]
    guild_tokens: dict[str, str | int]
    privilege_tokens: dict[str, str | int]
    customer_tiles: dict[str, str | int]
    provenance: str
    note: str = ""


class Level(msgspec.Struct, frozen=True):
    level: int
    bonus: dict[str, int] | None


class PeopleDef(msgspec.Struct, frozen=True):
    id: str
    colour: str
    bonuses: tuple[Level, ...]
    provenance: str
    note: str = ""


class Tracks(msgspec.Struct, frozen=True):
    order: tuple[str, ...]
    order_provenance: str
    scores: tuple[int, ...]
    scores_provenance: str
    top_level_unique: bool
    peoples: tuple[PeopleDef, ...]


class CustomerDef(msgspec.Struct, frozen=True):
    id: str
    peoples: tuple[str, ...]
    guilds: tuple[str, ...]
    players: int  # the smallest player count that uses the card (2+, 4+, 5)
    provenance: str
    note: str = ""


class Customers(msgspec.Struct, frozen=True):
    count_provenance: str
    cards: tuple[CustomerDef, ...]


class Effect(msgspec.Struct, frozen=True):
    kind: str
    amount: int
    people: str = ""  # a fixed people track, for the level effect


class SpellDef(msgspec.Struct, frozen=True):
    id: str
    name: str
    cost: int
    effects: tuple[Effect, ...]
    instant: str | None  # the moment of an opponent's turn when it may be cast (the lightning mark)
    provenance: str
    note: str = ""
    curse: bool = False


class Spells(msgspec.Struct, frozen=True):
    count_provenance: str
    spells: tuple[SpellDef, ...]


class FavourDef(msgspec.Struct, frozen=True):
    id: str
    kind: str
    provenance: str
    note: str = ""
    guild: str = ""


class Favours(msgspec.Struct, frozen=True):
    favours: tuple[FavourDef, ...]


BOARD: Board = load_seed(GAME, "board.json", Board)
TRACKS: Tracks = load_seed(GAME, "tracks.json", Tracks)
CUSTOMERS: dict[str, CustomerDef] = {c.id: c for c in load_seed(GAME, "customers.json", Customers).cards}
SPELLS: dict[str, SpellDef] = {s.id: s for s in load_seed(GAME, "spells.json", Spells).spells}
FAVOURS: dict[str, FavourDef] = {f.id: f for f in load_seed(GAME, "favours.json", Favours).favours}

PEOPLES: tuple[str, ...] = TRACKS.order  # also the order "to the right" for royal tie-breaks
PEOPLE_INDEX = {people: i for i, people in enumerate(PEOPLES)}
TOP = len(TRACKS.scores) - 1
GUILDS = ("beer", "lyre", "book")  # the guild tokens; the mask only ever appears on cards
CARD_GUILDS = (*GUILDS, "mask")
DIGNITARIES = ("notary", "gobtrotter", "princess", "ambassador")
BONUS: dict[str, dict[int, dict[str, int]]] = {
    p.id: {lv.level: lv.bonus for lv in p.bonuses if lv.bonus} for p in TRACKS.peoples
}


_TAVERNS = tuple({t.id: t for t in side.taverns} for side in BOARD.sides)


def taverns_for(seats: int) -> dict[str, TavernDef]:
    """The printed taverns of the board side for this many players (2/3 or 4/5)."""
    return _TAVERNS[0] if seats <= 3 else _TAVERNS[1]
