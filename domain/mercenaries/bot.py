"""The greedy bot: hires the strongest mercenary it can keep paying, attacks only when it is stronger."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Command, Rng
from domain.mercenaries.commands import (
    ATTACK,
    ChooseDiscard,
    Contract,
    DeclareAttack,
    DismissMercenary,
    EndPhase,
    GoAllIn,
    SellMercenary,
    SetPosition,
)
from domain.mercenaries.content import rank_of
from domain.mercenaries.views import MercenariesView, SideView

KEEP_IN_HAND = 2  # cards kept back from selling, so that a Contract stays possible


def field_value(side: SideView, cards: Sequence[str]) -> int:
    return sum(m.card.stats.sword for m in side.field if m.card.card in cards)


def contract_gain(view: MercenariesView, me: SideView, c: Contract) -> int | None:
    """What a Contract adds to the field's strength, or None if its wages could not be kept up."""
    rank = rank_of(c.card)
    cost = 0 if view.all_in_turn else rank.contract
    wages = sum(m.card.stats.wage for m in me.field if m.card.card not in c.sacrifices) + rank.wage
    if c.position != ATTACK or me.gold - cost < wages:
        return None
    gain = rank.sword - field_value(me, c.sacrifices)
    return gain if gain > 0 else None


def best_contract(view: MercenariesView, me: SideView, legal: Sequence[Command]) -> Command | None:
    scored = [(gain, c) for c in legal if isinstance(c, Contract) and (gain := contract_gain(view, me, c))]
    return max(scored, key=lambda pair: pair[0])[1] if scored else None


def cheapest_sale(view: MercenariesView, legal: Sequence[Command]) -> Command | None:
    if len(view.hand) <= KEEP_IN_HAND:
        return None
    held = {c.card for c in view.hand}
    sales = [c for c in legal if isinstance(c, SellMercenary) and c.card in held]  # never the field
    return min(sales, key=lambda c: rank_of(c.card).contract) if sales else None


def morning(view: MercenariesView, me: SideView, legal: Sequence[Command]) -> Command:
    if GoAllIn() in legal and me.deck_count <= 1:
        return GoAllIn()
    contract = best_contract(view, me, legal)
    if contract is not None:
        return contract
    upright = [c for c in legal if isinstance(c, SetPosition) and c.position == ATTACK]
    if upright:
        return upright[0]
    return cheapest_sale(view, legal) or EndPhase()


def afternoon(view: MercenariesView, me: SideView, legal: Sequence[Command]) -> Command:
    attacks = [c for c in legal if isinstance(c, DeclareAttack)]
    if not attacks:
        return EndPhase()
    group = max(attacks, key=lambda c: field_value(me, c.attackers))
    foe = view.sides[1 - me.seat]
    defence = sum(m.card.stats.sword for m in foe.field)
    return group if not foe.field or field_value(me, group.attackers) > defence else EndPhase()


class GreedyBot:
    def choose(self, view: MercenariesView, legal: Sequence[Command], rng: Rng) -> Command:
        me = view.sides[view.seat or 0]
        if isinstance(legal[0], ChooseDiscard | DismissMercenary):
            # the cheapest to lose: the weakest, and among those the one with the highest wage
            return min(legal, key=lambda c: (rank_of(c.card).sword, -rank_of(c.card).wage))
        if view.phase == "morning":
            return morning(view, me, legal)
        return afternoon(view, me, legal)
