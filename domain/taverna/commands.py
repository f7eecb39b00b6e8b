"""What a seat can send. Unused fields keep their defaults; the rules refuse anything else there."""

from __future__ import annotations

from domain.kernel import Command


class ChoosePeople(Command, frozen=True):
    """Setup: the King's chosen people (dual first card, or two seats), then the Queen's (two seats)."""

    people: str


class BuyDeed(Command, frozen=True):
    """Setup: buy a property deed (space index within the tavern)."""

    tavern: str
    space: int


class PassDeed(Command, frozen=True):
    """Setup: offered only when no available deed is affordable."""


class PickCustomer(Command, frozen=True):
    card: str
    people: str


class PlaceCustomer(Command, frozen=True):
    """On a free table, or (Trickery) on an occupied one, replacing its tile."""

    tavern: str
    table: int


class ActivateDignitary(Command, frozen=True):
    """Pay, move the dignitary to ``tavern``, and apply its skill there.

    Notary: ``space`` (a deed space of ``tavern``); Gob'Trotter: ``guilds`` (1 or 2 tokens);
    Princess: ``favours`` (1 to 3 face-up tiles); Ambassador: ``peoples`` (1 to 3 levels).
    """

    dignitary: str
    tavern: str
    space: int = -1
    guilds: tuple[str, ...] = ()
    favours: tuple[str, ...] = ()
    peoples: tuple[str, ...] = ()


class CastSpell(Command, frozen=True):
    """Cast a spell from hand; the fields a spell's effect needs are filled, the others left empty."""

    card: str
    people: str = ""
    favour: str = ""
    tavern: str = ""
    guild: str = ""
    dignitary: str = ""


class SellSpell(Command, frozen=True):
    card: str


class UseFavour(Command, frozen=True):
    """Use a royal favour tile; the fields its kind needs are filled, the others left empty."""

    favour: str
    people: str = ""
    guild: str = ""
    from_guild: str = ""
    tavern: str = ""
    table: int = -1
    to_tavern: str = ""
    to_table: int = -1


class Pass(Command, frozen=True):
    """Answer an instant-spell prompt with no spell; ``always``: and pass every later prompt too."""

    always: bool = False


class SetAutoPass(Command, frozen=True):
    """On one's own turn: turn "always pass" on or off (private: no other seat learns it)."""

    on: bool


class EndTurn(Command, frozen=True):
    pass


class ChooseScoring(Command, frozen=True):
    """Royal scoring: king, queen, coins, archduke or archmage."""

    option: str


TavernaCommand = (
    ChoosePeople | BuyDeed | PassDeed | PickCustomer | PlaceCustomer | ActivateDignitary | CastSpell | SellSpell
    | UseFavour | Pass | SetAutoPass | EndTurn | ChooseScoring
)
