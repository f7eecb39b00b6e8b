"""What a seat can say at the table."""

from __future__ import annotations

from domain.kernel import Command

ATTACK = "attack"  # vertical: fights with its Sword and may attack
DEFENCE = "defence"  # horizontal: defends with its Shield, never attacks
POSITIONS = (ATTACK, DEFENCE)


class Contract(Command, frozen=True):
    """Morning: hire a card from hand onto the field, paying its Contract (a Leader also sacrifices)."""

    card: str
    position: str = ATTACK
    sacrifices: tuple[str, ...] = ()


class SellMercenary(Command, frozen=True):
    """Morning, once per turn: sell a card from hand to the treasury for its Contract value."""

    card: str


class SetPosition(Command, frozen=True):
    """Morning: turn a mercenary to attack (vertical) or defence (horizontal)."""

    card: str
    position: str


class GoAllIn(Command, frozen=True):
    """Morning, once per game, when low on HP, Gold or deck."""


class EndPhase(Command, frozen=True):
    """End the Morning (on to the Afternoon) or the Afternoon without attacking (on to the Night)."""


class DeclareAttack(Command, frozen=True):
    """Afternoon: the group of mercenaries that attacks."""

    attackers: tuple[str, ...]


class ChooseDiscard(Command, frozen=True):
    """The losing side's controller picks which of its tied lowest mercenaries goes to the Trash."""

    card: str


class DismissMercenary(Command, frozen=True):
    """Night: dismiss a mercenary to the Trash when the wages cannot be paid."""

    card: str


MercenariesCommand = (
    Contract | SellMercenary | SetPosition | GoAllIn | EndPhase | DeclareAttack | ChooseDiscard | DismissMercenary
)
