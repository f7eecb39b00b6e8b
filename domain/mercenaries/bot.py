"""The mercenaries' bots. The greedy bot hires the strongest mercenary it can keep paying, attacks
whenever its ready Swords beat the defence and sells its cheapest card while it holds more than 2;
the careful bot plays the same way with three thresholds raised, which measurement
(tests/bench/bench_search_bot.py --bot careful) shows to beat it clearly:

- it never sacrifices an Elite (9, 10) for a Leader: that buys 1 Sword for 9 Gold, one more wage
  every Night and the Elite, and wages outrun the income of 10 in the long matches;
- it keeps 4 cards in hand before it sells (greedy: 2), so that it has more to choose its
  Contracts from; spending less on Leaders, it needs the Gold of the sales less;
- it attacks only when its ready Swords beat the defence by 2 or more (greedy: by 1): an edge of 1
  is worth 1 HP on average against the dice (2d6 each side) but risks a mercenary about as often
  as it wins one.

It decides from its view alone and draws nothing, so the same view and legal list give the same move.
The search bot (domain/mercenaries/search.py) plays it in its playouts and keeps its move unless
another beats it clearly."""

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


def field_value(side: SideView, cards: Sequence[str]) -> int:
    return sum(m.card.stats.sword for m in side.field if m.card.card in cards)


def contract_gain(view: MercenariesView, me: SideView, c: Contract, least_leader_gain: int) -> int | None:
    """What a Contract adds to the field's strength, or None if its wages could not be kept up, or if
    it sacrifices a mercenary (a Leader's) for less than ``least_leader_gain``."""
    rank = rank_of(c.card)
    cost = 0 if view.all_in_turn else rank.contract
    wages = sum(m.card.stats.wage for m in me.field if m.card.card not in c.sacrifices) + rank.wage
    if c.position != ATTACK or me.gold - cost < wages:
        return None
    gain = rank.sword - field_value(me, c.sacrifices)
    return gain if gain >= (least_leader_gain if c.sacrifices else 1) else None


def best_contract(
    view: MercenariesView, me: SideView, legal: Sequence[Command], least_leader_gain: int
) -> Command | None:
    scored = [(gain, c) for c in legal
              if isinstance(c, Contract) and (gain := contract_gain(view, me, c, least_leader_gain))]
    return max(scored, key=lambda pair: pair[0])[1] if scored else None


def cheapest_sale(view: MercenariesView, legal: Sequence[Command], keep_in_hand: int) -> Command | None:
    if len(view.hand) <= keep_in_hand:
        return None
    held = {c.card for c in view.hand}
    sales = [c for c in legal if isinstance(c, SellMercenary) and c.card in held]  # never the field
    return min(sales, key=lambda c: rank_of(c.card).contract) if sales else None


def morning(view: MercenariesView, me: SideView, legal: Sequence[Command], bot: GreedyBot) -> Command:
    if GoAllIn() in legal and me.deck_count <= 1:
        return GoAllIn()
    contract = best_contract(view, me, legal, bot.least_leader_gain)
    if contract is not None:
        return contract
    upright = [c for c in legal if isinstance(c, SetPosition) and c.position == ATTACK]
    if upright:
        return upright[0]
    return cheapest_sale(view, legal, bot.keep_in_hand) or EndPhase()


def afternoon(view: MercenariesView, me: SideView, legal: Sequence[Command], bot: GreedyBot) -> Command:
    attacks = [c for c in legal if isinstance(c, DeclareAttack)]
    if not attacks:
        return EndPhase()
    group = max(attacks, key=lambda c: field_value(me, c.attackers))
    foe = view.sides[1 - me.seat]
    defence = sum(m.card.stats.sword for m in foe.field)
    return group if not foe.field or field_value(me, group.attackers) - defence >= bot.least_edge else EndPhase()


class GreedyBot:
    least_edge = 1  # Swords by which the attackers must beat the defence (a direct attack always goes)
    least_leader_gain = 1  # Swords a Leader must add over the mercenary it sacrifices
    keep_in_hand = 2  # cards kept back from selling, so that a Contract stays possible

    def choose(self, view: MercenariesView, legal: Sequence[Command], rng: Rng) -> Command:
        me = view.sides[view.seat or 0]
        if isinstance(legal[0], ChooseDiscard | DismissMercenary):
            # the cheapest to lose: the weakest, and among those the one with the highest wage
            losses = [c for c in legal if isinstance(c, ChooseDiscard | DismissMercenary)]
            return min(losses, key=lambda c: (rank_of(c.card).sword, -rank_of(c.card).wage))
        if view.phase == "morning":
            return morning(view, me, legal, self)
        return afternoon(view, me, legal, self)


class CarefulBot(GreedyBot):
    """Greedy with the three thresholds of the module's docstring raised."""

    least_edge = 2
    least_leader_gain = 2
    keep_in_hand = 4
