"""The content of Tavernkeepers and Mercenaries, loaded from seeds/mercenaries/ into frozen definitions."""

from __future__ import annotations

import msgspec

from domain.kernel.content import load_seed

GAME_ID = "mercenaries"


class Stats(msgspec.Struct, frozen=True):
    """What a rank is worth: one row of the mercenary table."""

    rank: str
    group: str
    sword: int
    shield: int
    contract: int
    wage: int


class Rank(Stats, frozen=True):
    """A table row as the seed gives it, with where it comes from."""

    provenance: str
    note: str = ""

    def stats(self) -> Stats:
        return Stats(**{name: getattr(self, name) for name in Stats.__struct_fields__})


class Leader(msgspec.Struct, frozen=True):
    rank: str
    field_limit: int
    sacrifices: int
    provenance: str
    note: str = ""


class Deck(msgspec.Struct, frozen=True):
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    provenance: str
    note: str = ""


class Setting(msgspec.Struct, frozen=True):
    name: str
    value: int
    provenance: str
    note: str = ""


RANKS: dict[str, Rank] = {r.rank: r for r in load_seed(GAME_ID, "ranks.json", tuple[Rank, ...])}
LEADERS: dict[str, Leader] = {r.rank: r for r in load_seed(GAME_ID, "leaders.json", tuple[Leader, ...])}
DECK: Deck = load_seed(GAME_ID, "deck.json", Deck)
SETTINGS: dict[str, int] = {s.name: s.value for s in load_seed(GAME_ID, "settings.json", tuple[Setting, ...])}


def deck_of(seat: int) -> tuple[str, ...]:
    """Every card id of a seat's own deck, in a fixed unshuffled order: ``mc-<seat>-<suit>-<rank>``."""
    return tuple(f"mc-{seat}-{suit}-{rank.lower()}" for suit in DECK.suits for rank in DECK.ranks)


def rank_of(card: str) -> Rank:
    """The table row of a card id; a KeyError for a string that is no card."""
    return RANKS[card.rsplit("-", 1)[-1].upper()]


def is_card(card: str) -> bool:
    return card.rsplit("-", 1)[-1].upper() in RANKS
