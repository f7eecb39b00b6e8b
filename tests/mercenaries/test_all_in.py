"""All In: its conditions, its once-per-game effects, and the turn of free contracts that follows."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.mercenaries import events as ev
from domain.mercenaries.commands import Contract, DeclareAttack, EndPhase, GoAllIn
from domain.mercenaries.content import deck_of
from domain.mercenaries.state import AFTERNOON, MORNING, Step
from domain.mercenaries.turns import begin_turn
from tests.mercenaries.build import Dice, card, merc, of_type, player, position, refused, send


def morning(p0, **fields):
    return position(p0, phase=MORNING, **fields)


@pytest.mark.parametrize(("fields", "deck"), [({"hp": 19}, None), ({"gold": 9}, None), ({}, 4)])
def test_all_in_is_allowed_below_20_hp_10_gold_or_5_cards(fields, deck):
    events, _ = send(morning(player(0, deck=deck, **fields)), 0, GoAllIn())
    assert of_type(events, ev.AllInDeclared)


def test_all_in_is_refused_at_20_hp_10_gold_and_5_cards():
    assert refused(morning(player(0, hp=20, gold=10, deck=5)), 0, GoAllIn()) == "all_in_not_allowed"


def test_all_in_is_once_per_game_and_only_in_the_morning():
    assert refused(morning(player(0, hp=5, all_in_used=True)), 0, GoAllIn()) == "all_in_used"
    assert refused(position(player(0, hp=5)), 0, GoAllIn()) == "wrong_phase"
    assert refused(morning(player(1, hp=5)), 1, GoAllIn()) == "not_your_turn"


def test_all_in_donates_the_gold_halves_the_hp_and_deals_a_fresh_hand_from_everything():
    field = (merc(0, "5"), merc(0, "6"))
    hand = (card(0, "2"), card(0, "3"), card(0, "4"))
    trash = tuple(c for c in deck_of(0) if c not in {*hand, *(m.card for m in field)})[:43]
    p0 = player(0, hp=18, gold=7, field=field, hand=hand, trash=trash)
    assert len(p0.deck) == 4
    state = morning(p0, treasury=150)
    events, after = send(state, 0, GoAllIn())
    assert events[0] == ev.AllInDeclared(seat=0, donated=7, hp_lost=9)
    shuffled = of_type(events, ev.DeckShuffled)[0]
    assert sorted(shuffled.cards) == sorted(deck_of(0)) and shuffled.count == 52
    me = after.players[0]
    assert (me.hp, me.gold, after.treasury) == (9, 0, 157)
    assert me.field == () and me.trash == () and len(me.hand) == 4 and len(me.deck) == 48
    assert me.hand == shuffled.cards[:4] and me.all_in_used and after.all_in_turn


def test_half_hp_is_rounded_down_on_the_loss():
    _, after = send(morning(player(0, hp=19)), 0, GoAllIn())
    assert after.players[0].hp == 10


def test_the_all_in_turn_contracts_a_leader_free_without_sacrifice_attacks_with_it_and_pays_no_wages():
    _, after = send(morning(player(0, hp=10, gold=50)), 0, GoAllIn(), Dice())
    king = card(0, "K")
    after = replace(after, players=(replace(after.players[0], hand=(king,)), after.players[1]))  # say it drew the K
    events, hired = send(after, 0, Contract(card=king))
    assert events[0].cost == 0 and events[0].sacrifices == ()
    assert refused(after, 0, Contract(card=king, sacrifices=(card(0, "2"),))) == "no_sacrifice_needed"
    _, afternoon = send(hired, 0, EndPhase())
    assert afternoon.phase == AFTERNOON
    events, night = send(afternoon, 0, DeclareAttack(attackers=(king,)), Dice(1, 2))
    assert of_type(events, ev.DirectAttack)[0].damage == 10 - 3
    assert ev.WagesWaived(seat=0) in events and not of_type(events, ev.WagesPaid)
    assert night.active == 1 and not night.all_in_turn


def test_the_all_in_turn_still_allows_one_contract():
    _, after = send(morning(player(0, hp=10)), 0, GoAllIn())
    _, hired = send(after, 0, Contract(card=after.players[0].hand[0]))
    assert refused(hired, 0, Contract(card=after.players[0].hand[1])) == "already_contracted"


def test_the_gold_condition_counts_the_gold_held_before_the_mornings_income():
    """The Morning pays its 10 Gold before any command: a player who began it with 5 Gold may go All In."""
    state = position(player(0, gold=30), player(1, gold=5), active=0, treasury=150)
    step = Step(state)
    begin_turn(step, 1, Dice())
    assert step.state.players[1].gold == 15 and step.state.dawn_gold == 5
    events, _ = send(step.state, 1, GoAllIn())
    assert events[0] == ev.AllInDeclared(seat=1, donated=15, hp_lost=50)
    rich = position(player(0, gold=30), player(1, gold=10), active=0, treasury=150)
    step = Step(rich)
    begin_turn(step, 1, Dice())
    assert refused(step.state, 1, GoAllIn()) == "all_in_not_allowed"


def test_all_in_after_a_contract_still_gives_the_turns_free_contract():
    p0 = player(0, hp=15, gold=40, hand=(card(0, "5"),))
    _, hired = send(morning(p0), 0, Contract(card=card(0, "5")))
    _, after = send(hired, 0, GoAllIn())
    assert not after.contracted and card(0, "5") in after.players[0].deck + after.players[0].hand
    free = after.players[0].hand[0]
    events, again = send(after, 0, Contract(card=free))
    assert events[0].cost == 0 and again.contracted
    assert refused(again, 0, Contract(card=again.players[0].hand[0])) == "already_contracted"
