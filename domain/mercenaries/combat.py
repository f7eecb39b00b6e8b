"""The arithmetic of the Afternoon: strength, damage, overrun, who goes to the Trash."""

from __future__ import annotations

from typing import NamedTuple

from domain.kernel import Rng
from domain.mercenaries.commands import ATTACK
from domain.mercenaries.content import SETTINGS, rank_of
from domain.mercenaries.state import Merc


def roll(rng: Rng) -> tuple[int, ...]:
    """2d6 (the seed's ``dice``), every die kept so that the event can name them."""
    return tuple(rng.die() for _ in range(SETTINGS["dice"]))


def fighting_value(merc: Merc) -> int:
    """Sword in attack position, Shield in defence position."""
    rank = rank_of(merc.card)
    return rank.sword if merc.position == ATTACK else rank.shield


def kind_of(defenders: tuple[Merc, ...]) -> str:
    """Attack vs Attack, Attack vs Defence, or mixed when the defender's positions differ."""
    positions = {m.position for m in defenders}
    if positions == {ATTACK}:
        return "attack_vs_attack"
    return "attack_vs_defence" if len(positions) == 1 else "attack_vs_mixed"


class Outcome(NamedTuple):
    loser: int  # 0 the attacker, 1 the defender, -1 a stand-off
    damage: int
    overrun: bool


def fight(attack_strength: int, defence_strength: int) -> Outcome:
    """The loser's Tavernkeeper takes the difference; an equal fight is a stand-off."""
    if attack_strength == defence_strength:
        return Outcome(loser=-1, damage=0, overrun=False)
    loser = 1 if attack_strength > defence_strength else 0
    high, low = max(attack_strength, defence_strength), min(attack_strength, defence_strength)
    return Outcome(loser=loser, damage=high - low, overrun=high >= SETTINGS["overrun_factor"] * low)


def direct_damage(swords: int, defence_dice: tuple[int, ...]) -> int:
    return max(0, swords - sum(defence_dice))


def lowest(mercs: tuple[Merc, ...]) -> tuple[str, ...]:
    """The losing participants with the lowest fighting value: one, or the tied ones to choose from."""
    low = min(fighting_value(m) for m in mercs)
    return tuple(m.card for m in mercs if fighting_value(m) == low)
