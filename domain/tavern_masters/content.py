"""The Tavern Masters cards, loaded from seeds/tavern-masters/*.json into frozen definitions.

Every physical card gets an instance id ``<definition id>-<copy number>`` (``elven-barmaid-2``),
so that hidden cards can be named.
"""

from __future__ import annotations

from functools import cache

import msgspec

from domain.kernel.content import load_seed

GAME_ID = "tavern-masters"


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One step of the effect vocabulary (effects.py interprets it)."""

    op: str
    amount: int = 0
    term: str = ""


class CardDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    kind: str  # goods | staff | patron | deed
    copies: int
    provenance: str  # rulebook | ours
    note: str
    cost: int = 0  # Gold to purchase Goods / hire Staff
    goods_type: str = ""  # Drink | Food | Game
    npc_type: str = ""  # Soldier, Thug, Mage, Wench, Entertainer, Sailor, Craftsman, Hunter
    counts_as: tuple[str, ...] = ()
    free_with: str = ""  # a Staff's or Goods' "free with" condition: a name or type in your Tavern
    wants: str = ""  # a Patron's Want
    likes: tuple[str, ...] = ()  # a Patron's Likes
    noble: bool = False
    effects: tuple[Effect, ...] = ()  # Counting-the-Till income and static abilities
    deed: Effect | None = None  # a Dirty Deeds card's effect, or a Patron's Dirty Deed ability
    agent: str = ""  # the card type a Dirty Deeds card needs in your Tavern
    red_gem: bool = False  # used only with the Dirty Deeds expansion
    lists: tuple[int, ...] = ()  # the card lists (match option ``card_list``) holding this card; () all of them

    @property
    def deck(self) -> str:
        return {"goods": "tavern", "staff": "tavern", "patron": "patron"}.get(self.kind, "deed")


DECK_FILES = {"tavern": "tavern.json", "patron": "patrons.json", "deed": "deeds.json"}


@cache
def definitions() -> dict[str, CardDef]:
    """Every card definition by id."""
    out: dict[str, CardDef] = {}
    for name in DECK_FILES.values():
        for card in load_seed(GAME_ID, name, list[CardDef]):
            assert card.id not in out, f"duplicate card id {card.id}"
            out[card.id] = card
    return out


@cache
def instances() -> dict[str, CardDef]:
    """Every physical card by instance id."""
    return {f"{d.id}-{n}": d for d in definitions().values() for n in range(1, d.copies + 1)}


def card(instance_id: str) -> CardDef:
    return instances()[instance_id]


def is_card(instance_id: str) -> bool:
    return instance_id in instances()


CARD_LISTS = (2, 1)  # the newest first: list 1 is kept so that matches created with it replay and audit


def in_list(defn: CardDef, card_list: int) -> bool:
    return not defn.lists or card_list in defn.lists


@cache
def deck_cards(deck: str, dirty_deeds: bool, card_list: int = CARD_LISTS[0]) -> tuple[str, ...]:
    """The instance ids of one deck of a card list; Red Gem cards and the Dirty Deeds deck only with the
    expansion."""
    if deck == "deed" and not dirty_deeds:
        return ()
    return tuple(i for i, d in instances().items()
                 if d.deck == deck and (dirty_deeds or not d.red_gem) and in_list(d, card_list))
