"""What happened at the table. Every die is named in the event that used it."""

from __future__ import annotations

from domain.kernel import Event


class StartingRoll(Event, frozen=True):
    """Both seats roll 1d6 (again on a tie) before the first game; the highest goes first."""

    rolls: tuple[tuple[int, int], ...]
    first: int


class GameBegan(Event, frozen=True):
    number: int
    first: int


class DeckShuffled(Event, frozen=True):
    """A seat's deck in its new order, top card first; nobody at the table sees the order."""

    seat: int
    cards: tuple[str, ...]
    count: int


class CardsDrawn(Event, frozen=True):
    """Cards from the top of a seat's deck into its hand; only that seat sees which."""

    seat: int
    cards: tuple[str, ...]
    count: int


class TurnBegan(Event, frozen=True):
    seat: int
    turn: int


class IncomeTaken(Event, frozen=True):
    seat: int
    amount: int


class Contracted(Event, frozen=True):
    seat: int
    card: str
    position: str
    cost: int
    sacrifices: tuple[str, ...]


class MercenarySold(Event, frozen=True):
    seat: int
    card: str
    price: int


class PositionSet(Event, frozen=True):
    seat: int
    card: str
    position: str


class AllInDeclared(Event, frozen=True):
    """Gold to the treasury, half the HP lost, hand, field and Trash back into the deck."""

    seat: int
    donated: int
    hp_lost: int


class PhaseBegan(Event, frozen=True):
    seat: int
    phase: str


class AttackDeclared(Event, frozen=True):
    seat: int
    attackers: tuple[str, ...]


class Combat(Event, frozen=True):
    """A fight between the attacking group and the defender's mercenaries; ``loser`` the losing seat,
    -1 on a stand-off."""

    attacker: int
    defender: int
    kind: str
    attack_dice: tuple[int, int]
    defence_dice: tuple[int, int]
    attack_strength: int
    defence_strength: int
    loser: int
    damage: int
    overrun: bool


class DirectAttack(Event, frozen=True):
    """The defender has no mercenaries: the Swords less the defender's 2d6, never below 0."""

    attacker: int
    defender: int
    swords: int
    defence_dice: tuple[int, int]
    damage: int


class MercenariesTrashed(Event, frozen=True):
    seat: int
    cards: tuple[str, ...]
    reason: str


class DiscardChoiceAwaited(Event, frozen=True):
    seat: int
    candidates: tuple[str, ...]


class WagesPaid(Event, frozen=True):
    seat: int
    amount: int


class WagesWaived(Event, frozen=True):
    """The Night of an All In turn: no wages."""

    seat: int


class MercenaryDismissed(Event, frozen=True):
    seat: int
    card: str


class GameWon(Event, frozen=True):
    """``tiebreak_rolls``: the 1d6 roll-off when both fell with equal Gold and HP."""

    number: int
    winner: int
    reason: str
    tiebreak_rolls: tuple[tuple[int, int], ...] = ()


class MatchWon(Event, frozen=True):
    winner: int


MercenariesEvent = (
    StartingRoll | GameBegan | DeckShuffled | CardsDrawn | TurnBegan | IncomeTaken | Contracted | MercenarySold
    | PositionSet | AllInDeclared | PhaseBegan | AttackDeclared | Combat | DirectAttack | MercenariesTrashed
    | DiscardChoiceAwaited | WagesPaid | WagesWaived | MercenaryDismissed | GameWon | MatchWon
)
