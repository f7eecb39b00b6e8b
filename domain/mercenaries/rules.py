"""decide and legal: for each command, the rule that allows it (a check) and what it does (an apply)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from domain.kernel import Rng, RulesError, require
from domain.mercenaries import events as ev
from domain.mercenaries.combat import direct_damage, fight, fighting_value, kind_of, lowest, roll
from domain.mercenaries.commands import (
    ATTACK,
    POSITIONS,
    ChooseDiscard,
    Contract,
    DeclareAttack,
    DismissMercenary,
    EndPhase,
    GoAllIn,
    MercenariesCommand,
    SellMercenary,
    SetPosition,
)
from domain.mercenaries.content import LEADERS, SETTINGS, rank_of
from domain.mercenaries.events import MercenariesEvent
from domain.mercenaries.state import (
    AFTERNOON,
    MORNING,
    NIGHT,
    OVER,
    SETUP,
    Merc,
    Player,
    State,
    Step,
    field_cards,
    without,
)
from domain.mercenaries.turns import begin_night, check_fallen, draw, other, settle_wages, start_match


def begin(state: State, rng: Rng) -> list[MercenariesEvent]:
    step = Step(state)
    start_match(step, rng)
    return step.events


# --- the Morning --------------------------------------------------------------------------------


def require_phase(state: State, phase: str) -> None:
    require(state.phase == phase, "wrong_phase", "that is done in the {phase}, and it is the {now}", phase=phase,
            now=state.phase)


def sacrifices_needed(state: State, rank: str) -> int:
    """A Leader costs sacrifices from the field, except on an All In turn."""
    leader = LEADERS.get(rank)
    return 0 if leader is None or state.all_in_turn else leader.sacrifices


def contract_cost(state: State, card: str) -> int:
    return 0 if state.all_in_turn else rank_of(card).contract


def check_contract(state: State, seat: int, c: Contract) -> None:
    require_phase(state, MORNING)
    require(not state.contracted, "already_contracted", "one Contract per turn")
    player = state.players[seat]
    require(c.card in player.hand, "card_not_in_hand", "{card} is not in your hand", card=c.card)
    require(c.position in POSITIONS, "bad_position", "a position is one of {positions}", positions=", ".join(POSITIONS))
    rank = rank_of(c.card).rank
    needed = sacrifices_needed(state, rank)
    if needed:
        require(len(c.sacrifices) == needed, "sacrifice_required", "a {rank} costs {needed} sacrifice(s) now",
                rank=rank, needed=needed)
    else:
        require(not c.sacrifices, "no_sacrifice_needed", "this Contract takes no sacrifice")
    on_field = field_cards(player)
    require(set(c.sacrifices) <= set(on_field) and len(set(c.sacrifices)) == len(c.sacrifices),
            "sacrifice_not_in_field", "a sacrifice is one of your own mercenaries, each once")
    require(player.gold >= contract_cost(state, c.card), "cannot_afford", "not enough Gold for the Contract")
    staying = without(on_field, set(c.sacrifices))
    require(len(staying) < SETTINGS["field_size"], "field_full", "your field already holds the most mercenaries")
    leader = LEADERS.get(rank)
    same = sum(rank_of(card).rank == rank for card in staying)
    require(leader is None or same < leader.field_limit, "leader_limit", "your field may hold no more {rank}",
            rank=rank)


def apply_contract(step: Step, seat: int, c: Contract, rng: Rng) -> None:
    cost = contract_cost(step.state, c.card)
    step.add(ev.Contracted(seat=seat, card=c.card, position=c.position, cost=cost, sacrifices=c.sacrifices))


def sale_price(state: State, card: str) -> int:
    """The card's Contract value, from the treasury, which pays no more than it holds."""
    return min(rank_of(card).contract, state.treasury)


def check_sell(state: State, seat: int, c: SellMercenary) -> None:
    require_phase(state, MORNING)
    require(not state.sold, "already_sold", "one sale per turn")
    player = state.players[seat]
    on_field = state.sell_from_field and c.card in field_cards(player)
    require(c.card in player.hand or on_field, "card_not_in_hand", "{card} is not in your hand", card=c.card)


def apply_sell(step: Step, seat: int, c: SellMercenary, rng: Rng) -> None:
    step.add(ev.MercenarySold(seat=seat, card=c.card, price=sale_price(step.state, c.card)))


def find_merc(player: Player, card: str) -> Merc:
    for merc in player.field:
        if merc.card == card:
            return merc
    raise RulesError("not_in_field", "{card} is not one of your mercenaries", card=card)


def check_position(state: State, seat: int, c: SetPosition) -> None:
    require_phase(state, MORNING)
    merc = find_merc(state.players[seat], c.card)
    require(c.position in POSITIONS, "bad_position", "a position is one of {positions}", positions=", ".join(POSITIONS))
    require(c.position != merc.position, "same_position", "{card} is already in {position}", card=c.card,
            position=c.position)
    require(state.moved.count(c.card) < SETTINGS["position_changes_per_turn"], "position_already_set",
            "{card} has taken its position this turn", card=c.card)


def apply_position(step: Step, seat: int, c: SetPosition, rng: Rng) -> None:
    step.add(ev.PositionSet(seat=seat, card=c.card, position=c.position))


def all_in_allowed(state: State, player: Player) -> bool:
    """The Gold condition counts the Gold held as the Morning began too: the income comes first in
    the Morning and would otherwise always lift a player out of it (RULINGS.md, All In)."""
    gold = min(player.gold, state.dawn_gold)
    return (player.hp < SETTINGS["all_in_hp_below"] or gold < SETTINGS["all_in_gold_below"]
            or len(player.deck) < SETTINGS["all_in_deck_below"])


def check_all_in(state: State, seat: int, c: GoAllIn) -> None:
    require_phase(state, MORNING)
    player = state.players[seat]
    require(not player.all_in_used, "all_in_used", "All In is once per game")
    require(all_in_allowed(state, player), "all_in_not_allowed", "All In needs HP < 20, Gold < 10 or a deck < 5")


def apply_all_in(step: Step, seat: int, c: GoAllIn, rng: Rng) -> None:
    player = step.state.players[seat]
    step.add(ev.AllInDeclared(seat=seat, donated=player.gold, hp_lost=player.hp // 2))
    order = tuple(rng.shuffle(step.state.players[seat].deck))
    step.add(ev.DeckShuffled(seat=seat, cards=order, count=len(order)))
    draw(step, seat, SETTINGS["all_in_draw"])


def check_end_phase(state: State, seat: int, c: EndPhase) -> None:
    require(state.phase != NIGHT, "wages_unpaid", "dismiss mercenaries until the wages can be paid")


def apply_end_phase(step: Step, seat: int, c: EndPhase, rng: Rng) -> None:
    if step.state.phase == MORNING:
        step.add(ev.PhaseBegan(seat=seat, phase=AFTERNOON))
    else:
        begin_night(step, rng)


# --- the Afternoon ------------------------------------------------------------------------------


def summoning_sick(state: State, merc: Merc) -> bool:
    return merc.turn == state.turn and not state.all_in_turn


def may_attack(state: State, merc: Merc) -> bool:
    return merc.position == ATTACK and not summoning_sick(state, merc)


def check_attack(state: State, seat: int, c: DeclareAttack) -> None:
    require_phase(state, AFTERNOON)
    require(c.attackers, "empty_attack", "an attack needs at least one mercenary")
    require(len(set(c.attackers)) == len(c.attackers), "duplicate_attacker", "each mercenary attacks once")
    for card in c.attackers:
        merc = find_merc(state.players[seat], card)
        require(merc.position == ATTACK, "defence_position", "{card} is in defence position", card=card)
        require(not summoning_sick(state, merc), "summoning_sick", "{card} was contracted this turn", card=card)


def apply_attack(step: Step, seat: int, c: DeclareAttack, rng: Rng) -> None:
    step.add(ev.AttackDeclared(seat=seat, attackers=c.attackers))
    defender = other(seat)
    attackers = tuple(m for m in step.state.players[seat].field if m.card in c.attackers)
    defenders = step.state.players[defender].field
    swords = sum(fighting_value(m) for m in attackers)
    if not defenders:
        dice = roll(rng)
        step.add(ev.DirectAttack(attacker=seat, defender=defender, swords=swords, defence_dice=dice,
                                 damage=direct_damage(swords, dice)))
        if not check_fallen(step, rng):
            begin_night(step, rng)
        return
    attack_dice, defence_dice = roll(rng), roll(rng)
    attack, defence = swords + sum(attack_dice), sum(fighting_value(m) for m in defenders) + sum(defence_dice)
    outcome = fight(attack, defence)
    loser = (seat, defender)[outcome.loser] if outcome.loser >= 0 else -1
    step.add(ev.Combat(attacker=seat, defender=defender, kind=kind_of(defenders), attack_dice=attack_dice,
                       defence_dice=defence_dice, attack_strength=attack, defence_strength=defence, loser=loser,
                       damage=outcome.damage, overrun=outcome.overrun))
    if check_fallen(step, rng):
        return
    if loser >= 0:
        losing = attackers if loser == seat else defenders
        side, pool = loser, losing
        if not outcome.overrun and step.state.trash_lowest_overall and kind_of(defenders) == "attack_vs_attack":
            # "the participating mercenary with the lowest Sword": the winner's, when it alone is lowest
            winning = defenders if loser == seat else attackers
            if min(map(fighting_value, winning)) < min(map(fighting_value, losing)):
                side, pool = other(loser), winning
        trashed = tuple(m.card for m in losing) if outcome.overrun else lowest(pool)
        if len(trashed) > 1 and not outcome.overrun:
            step.add(ev.DiscardChoiceAwaited(seat=side, candidates=trashed))
            return
        step.add(ev.MercenariesTrashed(seat=side, cards=trashed, reason="overrun" if outcome.overrun else "lowest"))
    begin_night(step, rng)


def check_discard(state: State, seat: int, c: ChooseDiscard) -> None:
    require(state.discard_seat >= 0, "no_discard_pending", "no discard to choose")
    require(seat == state.discard_seat, "not_your_choice", "the losing side's controller chooses")
    require(c.card in state.discard_from, "not_a_candidate", "{card} is not among the tied lowest", card=c.card)


def apply_discard(step: Step, seat: int, c: ChooseDiscard, rng: Rng) -> None:
    step.add(ev.MercenariesTrashed(seat=seat, cards=(c.card,), reason="lowest"))
    begin_night(step, rng)


# --- the Night ----------------------------------------------------------------------------------


def check_dismiss(state: State, seat: int, c: DismissMercenary) -> None:
    require_phase(state, NIGHT)
    find_merc(state.players[seat], c.card)


def apply_dismiss(step: Step, seat: int, c: DismissMercenary, rng: Rng) -> None:
    step.add(ev.MercenaryDismissed(seat=seat, card=c.card))
    settle_wages(step, rng)


# --- decide and legal ---------------------------------------------------------------------------

RULES: dict[type, tuple[Callable[[State, int, Any], None], Callable[[Step, int, Any, Rng], None]]] = {
    Contract: (check_contract, apply_contract),
    SellMercenary: (check_sell, apply_sell),
    SetPosition: (check_position, apply_position),
    GoAllIn: (check_all_in, apply_all_in),
    EndPhase: (check_end_phase, apply_end_phase),
    DeclareAttack: (check_attack, apply_attack),
    ChooseDiscard: (check_discard, apply_discard),
    DismissMercenary: (check_dismiss, apply_dismiss),
}


def check(state: State, command: MercenariesCommand, seat: int) -> None:
    """Every rule a command must pass: the match runs, it is this seat's move, then the command's own rule."""
    require(state.phase != OVER, "match_over", "the match is over")
    if not isinstance(command, ChooseDiscard):
        require(state.discard_seat < 0, "awaiting_discard", "the losing side first chooses its discard")
        require(seat == state.active, "not_your_turn", "it is seat {seat}'s turn", seat=state.active)
    RULES[type(command)][0](state, seat, command)


def decide(state: State, command: MercenariesCommand, seat: int, rng: Rng) -> list[MercenariesEvent]:
    check(state, command, seat)
    step = Step(state)
    RULES[type(command)][1](step, seat, command, rng)
    return step.events


def morning_candidates(state: State, seat: int) -> Iterator[MercenariesCommand]:
    player = state.players[seat]
    on_field = field_cards(player)
    for card in player.hand:
        needed = sacrifices_needed(state, rank_of(card).rank)
        for position in POSITIONS:
            for sacrifices in combinations(on_field, needed):
                yield Contract(card=card, position=position, sacrifices=sacrifices)
        yield SellMercenary(card=card)
    for merc in player.field:
        yield SetPosition(card=merc.card, position=POSITIONS[1 - POSITIONS.index(merc.position)])
        if state.sell_from_field:
            yield SellMercenary(card=merc.card)
    yield GoAllIn()
    yield EndPhase()


def afternoon_candidates(state: State, seat: int) -> Iterator[MercenariesCommand]:
    ready = [m.card for m in state.players[seat].field if may_attack(state, m)]
    for size in range(1, len(ready) + 1):
        for group in combinations(ready, size):
            yield DeclareAttack(attackers=group)
    yield EndPhase()


def night_candidates(state: State, seat: int) -> Iterator[MercenariesCommand]:
    for card in field_cards(state.players[seat]):
        yield DismissMercenary(card=card)


CANDIDATES = {MORNING: morning_candidates, AFTERNOON: afternoon_candidates, NIGHT: night_candidates}


def allowed(state: State, command: MercenariesCommand, seat: int) -> bool:
    try:
        check(state, command, seat)
    except RulesError:
        return False
    return True


def legal(state: State, seat: int) -> list[MercenariesCommand]:
    if state.phase in (SETUP, OVER):
        return []  # nothing dealt yet (a seat-entropy match before its opening), or the match is over
    if state.discard_seat >= 0:
        return [ChooseDiscard(card=c) for c in state.discard_from] if seat == state.discard_seat else []
    if seat != state.active:
        return []
    return [c for c in CANDIDATES[state.phase](state, seat) if allowed(state, c, seat)]
