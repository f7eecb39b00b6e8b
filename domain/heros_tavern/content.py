"""The deck: seeds/heros-tavern/kinds.json (the rulebook's card counts) and cards.json (every card
with its cost, our placeholder table: the rulebook prints costs only on the cards)."""

from __future__ import annotations

import msgspec

from domain.kernel.content import load_seed

GAME_ID = "heros-tavern"


class Tokens(msgspec.Struct, frozen=True, omit_defaults=True):
    """Coins, storage cubes and land tokens: a seat's purse, an award, or a card's cost.
    JSON leaves out the kinds counted zero ({"land": 1} costs one land token)."""

    coin: int = 0
    storage: int = 0
    land: int = 0

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(self.coin + other.coin, self.storage + other.storage, self.land + other.land)

    def __sub__(self, other: Tokens) -> Tokens:
        return Tokens(self.coin - other.coin, self.storage - other.storage, self.land - other.land)

    def covers(self, cost: Tokens) -> bool:
        return self.coin >= cost.coin and self.storage >= cost.storage and self.land >= cost.land

    @property
    def count(self) -> int:
        return self.coin + self.storage + self.land


TOKEN_KINDS = Tokens.__struct_fields__
BOX = 50  # of each kind (the rulebook's components); a finite supply only with option finite_tokens


class Card(msgspec.Struct, frozen=True):
    """One card as the table shows it: face up, its kind and its printed cost."""

    id: str
    kind: str
    cost: Tokens


class KindRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: str
    group: str  # "category" (scores), "resource" (awards tokens) or "staff" (bonus)
    copies: int
    provenance: str
    note: str = ""


class CardRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    kind: str
    cost: Tokens
    provenance: str
    note: str = ""


def load_deck() -> dict[str, Card]:
    """Every card by id, checked against the rulebook's counts per kind."""
    kinds = {k.kind: k for k in load_seed(GAME_ID, "kinds.json", list[KindRecord])}
    records = load_seed(GAME_ID, "cards.json", list[CardRecord])
    for kind in kinds.values():
        copies = sum(r.kind == kind.kind for r in records)
        if copies != kind.copies:
            raise ValueError(f"cards.json holds {copies} {kind.kind} cards, the rulebook says {kind.copies}")
    unknown = {r.kind for r in records} - set(kinds)
    if unknown or len({r.id for r in records}) != len(records):
        raise ValueError(f"cards.json has unknown kinds {sorted(unknown)} or repeated ids")
    return {r.id: Card(r.id, r.kind, r.cost) for r in records}


DECK: dict[str, Card] = load_deck()
