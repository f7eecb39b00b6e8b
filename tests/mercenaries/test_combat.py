"""The Afternoon: positions, declared attacks, summoning sickness, fights, overrun, the direct attack."""

from __future__ import annotations

from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.combat import fight
from domain.mercenaries.commands import DEFENCE, ChooseDiscard, DeclareAttack, EndPhase
from domain.mercenaries.state import MORNING, NIGHT
from tests.mercenaries.build import Dice, card, merc, of_type, player, position, refused, send

VETERAN_CAPTAIN = (merc(0, "5"), merc(0, "7"))
TWO_VETERANS = (merc(1, "5"), merc(1, "6"))


def attack_all(state, dice):
    attackers = tuple(m.card for m in state.players[0].field)
    return send(state, 0, DeclareAttack(attackers=attackers), Dice(*dice))


def test_attack_against_attack_20_against_16_costs_the_defender_4_hp():
    state = position(player(0, field=VETERAN_CAPTAIN), player(1, field=TWO_VETERANS))
    events, after = attack_all(state, (4, 4, 3, 3))  # attacker rolls 8, defender 6
    (combat,) = of_type(events, ev.Combat)
    assert (combat.kind, combat.attack_dice, combat.defence_dice) == ("attack_vs_attack", (4, 4), (3, 3))
    assert (combat.attack_strength, combat.defence_strength, combat.damage) == (20, 16, 4)
    assert combat.loser == 1 and not combat.overrun
    assert after.players[1].hp == 96 and after.players[0].hp == 100
    # the two Veterans tie for lowest: their controller (the defender) chooses which goes
    assert of_type(events, ev.DiscardChoiceAwaited) == [
        ev.DiscardChoiceAwaited(seat=1, candidates=(card(1, "5"), card(1, "6")))
    ]
    events, after = send(after, 1, ChooseDiscard(card=card(1, "6")))
    assert after.players[1].trash == (card(1, "6"),) and [m.card for m in after.players[1].field] == [card(1, "5")]
    assert [m.card for m in after.players[0].field] == [card(0, "5"), card(0, "7")]  # the attacker loses nothing


def test_an_attacker_that_loses_the_roll_takes_the_damage_and_loses_its_lowest():
    state = position(player(0, field=VETERAN_CAPTAIN), player(1, field=TWO_VETERANS))
    events, after = attack_all(state, (1, 1, 5, 5))  # 14 against 20
    (combat,) = of_type(events, ev.Combat)
    assert (combat.attack_strength, combat.defence_strength, combat.loser, combat.damage) == (14, 20, 0, 6)
    assert not combat.overrun  # 20 < 28
    assert after.players[0].hp == 94 and after.players[1].hp == 100
    assert of_type(events, ev.MercenariesTrashed) == [ev.MercenariesTrashed(seat=0, cards=(card(0, "5"),),
                                                                           reason="lowest")]


def test_overrun_at_20_against_10_trashes_every_defender_and_still_deals_damage():
    state = position(player(0, field=(merc(0, "5"), merc(0, "6"))), player(1, field=(merc(1, "5"), merc(1, "3"))))
    events, after = attack_all(state, (5, 5, 1, 1))
    (combat,) = of_type(events, ev.Combat)
    assert (combat.attack_strength, combat.defence_strength, combat.damage, combat.overrun) == (20, 10, 10, True)
    assert after.players[1].field == () and set(after.players[1].trash) == {card(1, "5"), card(1, "3")}
    assert after.players[1].hp == 90


def test_one_short_of_double_is_no_overrun():
    assert fight(19, 10).overrun is False and fight(20, 10).overrun is True and fight(10, 20).overrun is True


def test_direct_attack_18_less_a_defence_roll_of_7_deals_11():
    state = position(player(0, field=(merc(0, "9"), merc(0, "10"))), player(1))
    events, after = attack_all(state, (3, 4))
    assert of_type(events, ev.DirectAttack) == [
        ev.DirectAttack(attacker=0, defender=1, swords=18, defence_dice=(3, 4), damage=11)
    ]
    assert after.players[1].hp == 89


def test_direct_attack_damage_never_goes_below_zero():
    state = position(player(0, field=(merc(0, "J"),)), player(1))
    events, after = attack_all(state, (6, 6))
    assert of_type(events, ev.DirectAttack)[0].damage == 0 and after.players[1].hp == 100


def test_the_tavernkeeper_is_not_hit_directly_while_it_has_a_mercenary_even_in_defence():
    state = position(player(0, field=(merc(0, "K"),)), player(1, field=(merc(1, "2", position=DEFENCE),)))
    events, _ = attack_all(state, (3, 3, 3, 3))
    assert not of_type(events, ev.DirectAttack)
    (combat,) = of_type(events, ev.Combat)
    assert combat.kind == "attack_vs_defence" and combat.defence_strength == 1 + 6  # the Shield of a 2


def test_mixed_defenders_fight_with_sword_and_shield_together():
    defenders = (merc(1, "9"), merc(1, "3", position=DEFENCE))
    state = position(player(0, field=(merc(0, "J"),)), player(1, field=defenders))
    events, _ = attack_all(state, (1, 1, 1, 1))
    (combat,) = of_type(events, ev.Combat)
    assert combat.kind == "attack_vs_mixed" and combat.defence_strength == 9 + 3 + 2


def test_equal_strength_is_a_stand_off():
    state = position(player(0, field=(merc(0, "5"),)), player(1, field=(merc(1, "6"),)))
    events, after = attack_all(state, (2, 3, 4, 1))
    (combat,) = of_type(events, ev.Combat)
    assert (combat.loser, combat.damage) == (-1, 0)
    assert not of_type(events, ev.MercenariesTrashed) and after.players[0].hp == after.players[1].hp == 100


def test_a_single_lowest_defender_goes_without_a_choice():
    state = position(player(0, field=(merc(0, "K"),)), player(1, field=(merc(1, "9"), merc(1, "3"))))
    events, after = attack_all(state, (6, 6, 1, 1))
    assert of_type(events, ev.MercenariesTrashed)[0].cards == (card(1, "3"),)
    assert after.phase == MORNING and after.active == 1  # the Night passed and the turn with it


def test_only_the_declared_group_fights():
    state = position(player(0, field=(merc(0, "K"), merc(0, "2"))), player(1, field=(merc(1, "9"),)))
    events, _ = send(state, 0, DeclareAttack(attackers=(card(0, "K"),)), Dice(1, 1, 1, 1))
    assert of_type(events, ev.Combat)[0].attack_strength == 12


def test_combat_is_once_per_turn():
    state = position(player(0, field=(merc(0, "K"),)), player(1, field=(merc(1, "9"),)))
    _, after = attack_all(state, (3, 3, 3, 3))
    assert refused(after, 0, DeclareAttack(attackers=(card(0, "K"),))) == "not_your_turn"


def test_a_mercenary_contracted_this_turn_cannot_attack_but_defends():
    sick = merc(0, "7", turn=5)
    state = position(player(0, field=(sick, merc(0, "3"))), player(1, field=(merc(1, "2"),)))
    assert refused(state, 0, DeclareAttack(attackers=(sick.card,))) == "summoning_sick"
    assert DeclareAttack(attackers=(card(0, "3"),)) in GAME.legal(state, 0)
    # next turn it is the opponent who attacks, and the sick Captain defends
    defending = position(player(0, field=(sick,)), player(1, field=(merc(1, "2", turn=5),)), active=1, turn=6)
    events, _ = send(defending, 1, DeclareAttack(attackers=(card(1, "2"),)), Dice(1, 1, 1, 1))
    assert of_type(events, ev.Combat)[0].defence_strength == 7 + 2


def test_defence_position_cannot_attack():
    state = position(player(0, field=(merc(0, "7", position=DEFENCE),)), player(1))
    assert refused(state, 0, DeclareAttack(attackers=(card(0, "7"),))) == "defence_position"
    assert GAME.legal(state, 0) == [EndPhase()]


def test_attack_errors():
    state = position(player(0, field=(merc(0, "7"),)), player(1, field=(merc(1, "7"),)))
    assert refused(state, 0, DeclareAttack(attackers=())) == "empty_attack"
    assert refused(state, 0, DeclareAttack(attackers=(card(0, "7"), card(0, "7")))) == "duplicate_attacker"
    assert refused(state, 0, DeclareAttack(attackers=(card(1, "7"),))) == "not_in_field"
    assert refused(state, 1, DeclareAttack(attackers=(card(1, "7"),))) == "not_your_turn"
    morning = position(player(0, field=(merc(0, "7"),)), player(1), phase=MORNING)
    assert refused(morning, 0, DeclareAttack(attackers=(card(0, "7"),))) == "wrong_phase"


def test_every_group_of_ready_attackers_is_legal():
    state = position(player(0, field=(merc(0, "7"), merc(0, "8"), merc(0, "9"))), player(1))
    attacks = [c for c in GAME.legal(state, 0) if isinstance(c, DeclareAttack)]
    assert len(attacks) == 7


def test_ending_the_afternoon_without_attacking_goes_to_the_night():
    state = position(player(0, field=(merc(0, "7"),)), player(1))
    events, after = send(state, 0, EndPhase())
    assert ev.PhaseBegan(seat=0, phase=NIGHT) in events and after.active == 1


def test_discard_choice_errors():
    state = position(player(0, field=VETERAN_CAPTAIN), player(1, field=TWO_VETERANS))
    assert refused(state, 1, ChooseDiscard(card=card(1, "5"))) == "no_discard_pending"
    _, pending = attack_all(state, (4, 4, 3, 3))
    assert refused(pending, 0, ChooseDiscard(card=card(1, "5"))) == "not_your_choice"
    assert refused(pending, 1, ChooseDiscard(card=card(0, "7"))) == "not_a_candidate"
    assert refused(pending, 0, EndPhase()) == "awaiting_discard"
    assert GAME.legal(pending, 0) == [] and len(GAME.legal(pending, 1)) == 2


def test_attack_against_defence_the_losing_defender_loses_its_lowest_shield():
    defenders = (merc(1, "7", position=DEFENCE), merc(1, "3", position=DEFENCE))
    state = position(player(0, field=(merc(0, "K"), merc(0, "9"))), player(1, field=defenders))
    events, after = attack_all(state, (3, 3, 2, 2))  # 19 + 6 = 25 against 10 + 4 = 14
    (combat,) = of_type(events, ev.Combat)
    assert (combat.kind, combat.attack_strength, combat.defence_strength) == ("attack_vs_defence", 25, 14)
    assert (combat.loser, combat.damage, combat.overrun) == (1, 11, False)
    assert after.players[1].hp == 89 and after.players[1].trash == (card(1, "3"),)
