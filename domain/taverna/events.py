"""What happened. Resource changes are small generic events so that evolve stays short."""

from __future__ import annotations

from typing import Any

from domain.kernel import Event
from domain.taverna.commands import CastSpell


class Shuffled(Event, frozen=True):
    """The face-down piles in order (top first): never shown to anyone while the match runs."""

    spells: tuple[str, ...]
    customers: tuple[str, ...]
    favours: tuple[str, ...]


class DignitariesPlaced(Event, frozen=True):
    places: dict[str, str]  # dignitary -> tavern


class FavoursRevealed(Event, frozen=True):
    """Tiles from the top of the reserve, face up at the castle."""

    favours: tuple[str, ...]


class CustomersRevealed(Event, frozen=True):
    """Cards from the top of the customer deck onto the available customers track."""

    cards: tuple[str, ...]


class SpellDrawn(Event, frozen=True):
    seat: int
    card: str  # blank for the other seats


class CurseDrawn(Event, frozen=True):
    seat: int
    card: str
    coins: int  # coins lost


class PeopleChosen(Event, frozen=True):
    seat: int  # -1 when the first revealed card alone decided it
    people: str
    role: str  # king or queen


class DeedRoundsBegan(Event, frozen=True):
    order: tuple[int, ...]


class DeedBought(Event, frozen=True):
    """A deed bought, at setup or with the Notary; ``previous`` owner (or -1) receives ``refund``."""

    seat: int
    tavern: str
    space: int
    price: int
    points: int
    previous: int = -1
    refund: int = 0


class DeedPassed(Event, frozen=True):
    seat: int


class CustomerPicked(Event, frozen=True):
    seat: int
    card: str
    people: str


class CardChanged(Event, frozen=True):
    """A royal favour changed the played card for this turn: its guild symbols and tile people."""

    seat: int
    favour: str
    guilds: tuple[str, ...]
    people: str


class CustomerPlaced(Event, frozen=True):
    seat: int
    tavern: str
    table: int
    people: str
    replaced: str = ""  # the people of the tile Trickery removed
    influence: bool = False  # lyre on card and tavern: any dignitary may answer the tavern right


class CustomerMoved(Event, frozen=True):
    seat: int
    tavern: str
    table: int
    to_tavern: str
    to_table: int


class LevelGained(Event, frozen=True):
    seat: int
    people: str
    level: int


class Gained(Event, frozen=True):
    """Coins, points or privileges (from or back to the reserve), for the reason named."""

    seat: int
    reason: str
    coins: int = 0
    points: int = 0
    privileges: int = 0


class PrivilegeClaimed(Event, frozen=True):
    seat: int
    tavern: str


class GuildPlaced(Event, frozen=True):
    seat: int
    tavern: str
    guild: str


class FavourTaken(Event, frozen=True):
    seat: int
    favour: str


class FavourUsed(Event, frozen=True):
    seat: int
    favour: str


class DignitaryActivated(Event, frozen=True):
    seat: int
    dignitary: str
    tavern: str  # where it goes
    cost: int
    via: str  # tavern or privileges


class DignitaryMoved(Event, frozen=True):
    seat: int
    dignitary: str
    tavern: str


class SpellCast(Event, frozen=True):
    seat: int
    card: str
    cost: int


class SpellSold(Event, frozen=True):
    seat: int
    card: str  # blank for the other seats: sold face down


class ExtraSpell(Event, frozen=True):
    seat: int


class Responders(Event, frozen=True):
    """A prompt: every opponent who could still cast this turn is asked at once whether to answer
    with an instant spell of this moment (empty: the prompt is over, the turn goes on)."""

    moment: str
    seats: tuple[int, ...]
    # rules version 3 and earlier (an upcaster sets it): the seats with "always pass" on had answered
    # as the prompt opened, so a prompt of such seats alone closed inside the active player's command
    # and showed it; since version 4 their passes come later, as commands of their own (RULINGS.md 19)
    auto_answered: bool = False


class FavourWindow(Event, frozen=True):
    """Royal favours during another seat's turn: at this moment of the turn (``picked``, ``placed``,
    ``ending``) the other seats that could use a favour now are asked at once (favours are face up, so
    being asked tells nothing); fewer seats as they pass or run out; empty: the window is closed."""

    moment: str
    seats: tuple[int, ...]


class WindowPassed(Event, frozen=True):
    """A seat asked in a favour window uses no (more) favours there."""

    seat: int


class Answered(Event, frozen=True):
    """A sealed answer to a prompt, seen by its seat alone: the spell to cast, or none (a pass)."""

    seat: int
    cast: CastSpell | None = None
    always: bool = False  # and "always pass" from now on: one entry, like any other answer


class AutoPassSet(Event, frozen=True):
    """A seat's private "always pass" setting, seen by that seat alone."""

    seat: int
    on: bool


class TurnEnded(Event, frozen=True):
    seat: int


class Exchanged(Event, frozen=True):
    """End of game: uncast spells to coins, unused privileges to points."""

    seat: int
    spells: int
    privileges: int


class RoyalOrder(Event, frozen=True):
    order: tuple[int, ...]


class ScoringChosen(Event, frozen=True):
    seat: int
    option: str
    points: int


class PeopleScored(Event, frozen=True):
    seat: int
    points: tuple[int, ...]  # per people, in track order


class GameOver(Event, frozen=True):
    scores: tuple[int, ...]
    winners: tuple[int, ...]


TavernaEvent = (
    Shuffled | DignitariesPlaced | FavoursRevealed | CustomersRevealed | SpellDrawn | CurseDrawn | PeopleChosen
    | DeedRoundsBegan | DeedBought | DeedPassed | CustomerPicked | CardChanged | CustomerPlaced | CustomerMoved
    | LevelGained | Gained | PrivilegeClaimed | GuildPlaced | FavourTaken | FavourUsed | DignitaryActivated
    | DignitaryMoved | SpellCast | SpellSold | ExtraSpell | Responders | FavourWindow | WindowPassed | Answered
    | AutoPassSet | TurnEnded | Exchanged | RoyalOrder | ScoringChosen | PeopleScored | GameOver
)


def passed_to_answered(event: dict[str, Any]) -> dict[str, Any]:
    """Rules version 1 asked one seat at a time and published its pass as ``Passed``; version 2 seals
    it as an ``Answered`` with no spell (old logs fold the same: each answer then reopened the prompt)."""
    return {"type": "Answered", "seat": event["seat"]}


def responders_answered_at_once(event: dict[str, Any]) -> dict[str, Any]:
    """Rules version 3 and earlier sealed the passes of "always pass" seats as a prompt opened."""
    return {**event, "auto_answered": True}
