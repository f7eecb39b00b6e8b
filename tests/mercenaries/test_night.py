"""The Night: wages must be paid, into the treasury; dismissals until they can be."""

from __future__ import annotations

from msgspec.structs import replace

from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import Contract, DismissMercenary, EndPhase
from domain.mercenaries.state import MORNING, NIGHT
from domain.mercenaries.turns import wages_due
from tests.mercenaries.build import card, merc, player, position, refused, send

THREE_VETERANS = (merc(0, "5"), merc(0, "6"), merc(0, "5", "clubs"))


def test_three_mercenaries_with_wage_2_cost_6_gold():
    state = position(player(0, field=THREE_VETERANS, gold=20), treasury=100)
    assert wages_due(state.players[0]) == 6
    events, after = send(state, 0, EndPhase())
    assert ev.WagesPaid(seat=0, amount=6) in events
    assert after.players[0].gold == 14 and after.treasury == 100 + 6 - 10  # less seat 1's Morning income
    assert after.active == 1 and after.phase == MORNING


def test_short_of_gold_the_player_dismisses_until_the_rest_can_be_paid():
    state = position(player(0, field=THREE_VETERANS, gold=5))
    events, waiting = send(state, 0, EndPhase())
    assert not [e for e in events if isinstance(e, ev.WagesPaid)]
    assert waiting.phase == NIGHT and waiting.active == 0
    assert set(GAME.legal(waiting, 0)) == {DismissMercenary(card=m.card) for m in THREE_VETERANS}
    assert refused(waiting, 0, EndPhase()) == "wages_unpaid"
    events, after = send(waiting, 0, DismissMercenary(card=card(0, "6")))
    assert events[:2] == [ev.MercenaryDismissed(seat=0, card=card(0, "6")), ev.WagesPaid(seat=0, amount=4)]
    assert after.players[0].gold == 1 and after.players[0].trash == (card(0, "6"),)
    assert after.active == 1


def test_dismissing_a_mercenary_that_frees_too_little_asks_again():
    field = (merc(0, "J"), merc(0, "A"))
    _, waiting = send(position(player(0, field=field, gold=2)), 0, EndPhase())
    _, still = send(waiting, 0, DismissMercenary(card=card(0, "A")))  # a Novice's wage is 0
    assert still.phase == NIGHT and still.active == 0
    _, after = send(still, 0, DismissMercenary(card=card(0, "J")))
    assert after.active == 1 and after.players[0].gold == 2


def test_wages_include_the_mercenary_contracted_this_turn():
    state = position(player(0, hand=(card(0, "9"),), gold=6), phase=MORNING)
    _, hired = send(state, 0, Contract(card=card(0, "9")))
    _, afternoon = send(hired, 0, EndPhase())
    _, waiting = send(afternoon, 0, EndPhase())
    assert hired.players[0].gold == 0 and waiting.phase == NIGHT  # 4 to pay, 0 to pay with


def test_dismissal_only_at_night_and_only_of_ones_own():
    state = position(player(0, field=THREE_VETERANS), phase=MORNING)
    assert refused(state, 0, DismissMercenary(card=card(0, "5"))) == "wrong_phase"
    _, waiting = send(replace(state, phase="afternoon", players=(player(0, field=THREE_VETERANS, gold=0),
                                                                 state.players[1])), 0, EndPhase())
    assert refused(waiting, 0, DismissMercenary(card=card(1, "5"))) == "not_in_field"
    assert refused(waiting, 1, DismissMercenary(card=card(0, "5"))) == "not_your_turn"


def test_only_the_active_player_pays():
    state = position(player(0, gold=0), player(1, field=THREE_VETERANS, gold=0))
    events, _ = send(state, 0, EndPhase())
    assert ev.WagesPaid(seat=0, amount=0) in events
