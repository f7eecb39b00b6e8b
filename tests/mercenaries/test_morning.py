"""The Morning: income, the draw, one Contract (Leaders with sacrifices and field limits), one sale, positions."""

from __future__ import annotations

from msgspec.structs import replace

from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import ATTACK, DEFENCE, Contract, EndPhase, SellMercenary, SetPosition
from domain.mercenaries.state import AFTERNOON, MORNING, Step
from domain.mercenaries.turns import begin_turn
from tests.mercenaries.build import Dice, card, merc, player, position, refused, send


def morning(p0=None, p1=None, **fields):
    return position(p0, p1, phase=MORNING, **fields)


def test_the_morning_takes_10_gold_from_the_treasury_and_draws_one_card():
    state = position(player(0), player(1, gold=40), active=0, treasury=150)
    step = Step(state)
    begin_turn(step, 1, Dice())
    top = state.players[1].deck[0]
    assert step.events[:3] == [ev.TurnBegan(seat=1, turn=6), ev.IncomeTaken(seat=1, amount=10),
                               ev.CardsDrawn(seat=1, cards=(top,), count=1)]
    assert step.state.players[1].gold == 50 and step.state.treasury == 140
    assert step.state.players[1].hand == (top,) and step.state.phase == MORNING


def test_a_treasury_short_of_10_pays_what_it_holds():
    step = Step(position(treasury=4))
    begin_turn(step, 1, Dice())
    assert step.state.players[1].gold == 104 and step.state.treasury == 0


def test_a_contract_pays_its_cost_into_the_treasury_and_fields_the_card():
    state = morning(player(0, hand=(card(0, "7"),), gold=20), treasury=100)
    events, after = send(state, 0, Contract(card=card(0, "7"), position=DEFENCE))
    assert events == [ev.Contracted(seat=0, card=card(0, "7"), position=DEFENCE, cost=5, sacrifices=())]
    assert after.players[0].gold == 15 and after.treasury == 105
    assert after.players[0].hand == () and after.players[0].field[0].position == DEFENCE


def test_one_contract_per_turn():
    state = morning(player(0, hand=(card(0, "7"), card(0, "8"))))
    _, after = send(state, 0, Contract(card=card(0, "7")))
    assert refused(after, 0, Contract(card=card(0, "8"))) == "already_contracted"


def test_contract_errors():
    state = morning(player(0, hand=(card(0, "9"),), gold=5))
    assert refused(state, 0, Contract(card=card(0, "9"))) == "cannot_afford"
    assert refused(state, 0, Contract(card=card(0, "8"))) == "card_not_in_hand"
    assert refused(state, 0, Contract(card=card(0, "9"), position="sideways")) == "bad_position"
    assert refused(state, 1, Contract(card=card(0, "9"))) == "not_your_turn"
    assert refused(replace(state, phase=AFTERNOON), 0, Contract(card=card(0, "9"))) == "wrong_phase"
    rich = morning(player(0, hand=(card(0, "9"),), field=(merc(0, "2"),)))
    assert refused(rich, 0, Contract(card=card(0, "9"), sacrifices=(card(0, "2"),))) == "no_sacrifice_needed"


def test_a_full_field_takes_no_more_mercenaries():
    full = (merc(0, "2"), merc(0, "3"), merc(0, "4"))
    state = morning(player(0, hand=(card(0, "9"),), field=full))
    assert refused(state, 0, Contract(card=card(0, "9"))) == "field_full"


def test_a_leader_costs_9_gold_and_a_sacrifice_that_frees_its_slot():
    full = (merc(0, "2"), merc(0, "3"), merc(0, "4"))
    state = morning(player(0, hand=(card(0, "K"),), field=full, gold=9))
    events, after = send(state, 0, Contract(card=card(0, "K"), sacrifices=(card(0, "3"),)))
    assert events[0].cost == 9 and after.players[0].gold == 0
    assert after.players[0].trash == (card(0, "3"),)
    assert [m.card for m in after.players[0].field] == [card(0, "2"), card(0, "4"), card(0, "K")]


def test_leader_sacrifice_errors():
    state = morning(player(0, hand=(card(0, "Q"),), field=(merc(0, "2"),)))
    assert refused(state, 0, Contract(card=card(0, "Q"))) == "sacrifice_required"
    assert refused(state, 0, Contract(card=card(0, "Q"), sacrifices=(card(1, "2"),))) == "sacrifice_not_in_field"
    lonely = morning(player(0, hand=(card(0, "Q"),)))
    assert [c for c in GAME.legal(lonely, 0) if isinstance(c, Contract)] == []


def test_leader_field_limits_king_1_queen_2_jack_3():
    king = morning(player(0, hand=(card(0, "K", "spades"),), field=(merc(0, "K"), merc(0, "2"))))
    assert refused(king, 0, Contract(card=card(0, "K", "spades"), sacrifices=(card(0, "2"),))) == "leader_limit"
    queens = (merc(0, "Q"), merc(0, "Q", "clubs"), merc(0, "2"))
    two_queens = morning(player(0, hand=(card(0, "Q", "spades"),), field=queens))
    assert refused(two_queens, 0, Contract(card=card(0, "Q", "spades"), sacrifices=(card(0, "2"),))) == "leader_limit"
    # sacrificing one of the Queens makes room for the new one
    send(two_queens, 0, Contract(card=card(0, "Q", "spades"), sacrifices=(card(0, "Q"),)))
    jacks = (merc(0, "J"), merc(0, "J", "clubs"), merc(0, "2"))
    _, after = send(morning(player(0, hand=(card(0, "J", "spades"),), field=jacks)), 0,
                    Contract(card=card(0, "J", "spades"), sacrifices=(card(0, "2"),)))
    assert sum(m.card.endswith("-j") for m in after.players[0].field) == 3


def test_every_contract_with_each_position_and_sacrifice_is_legal():
    state = morning(player(0, hand=(card(0, "K"), card(0, "5")), field=(merc(0, "2"), merc(0, "3"))))
    contracts = {c for c in GAME.legal(state, 0) if isinstance(c, Contract)}
    expected = {Contract(card=card(0, "K"), position=p, sacrifices=(s,)) for p in (ATTACK, DEFENCE)
                for s in (card(0, "2"), card(0, "3"))}
    expected |= {Contract(card=card(0, "5"), position=p) for p in (ATTACK, DEFENCE)}
    assert contracts == expected


def test_a_sale_moves_a_card_from_hand_to_trash_for_its_contract_value_from_the_treasury():
    state = morning(player(0, hand=(card(0, "10"), card(0, "A")), gold=0), treasury=50)
    events, after = send(state, 0, SellMercenary(card=card(0, "10")))
    assert events == [ev.MercenarySold(seat=0, card=card(0, "10"), price=6)]
    assert after.players[0].gold == 6 and after.treasury == 44 and after.players[0].trash == (card(0, "10"),)
    assert refused(after, 0, SellMercenary(card=card(0, "A"))) == "already_sold"


def test_sale_errors_and_a_poor_treasury():
    state = morning(player(0, hand=(card(0, "K"),)), treasury=3)
    assert send(state, 0, SellMercenary(card=card(0, "K")))[1].players[0].gold == 103
    assert refused(state, 0, SellMercenary(card=card(0, "Q"))) == "card_not_in_hand"
    assert refused(replace(state, phase=AFTERNOON), 0, SellMercenary(card=card(0, "K"))) == "wrong_phase"


def test_a_mercenary_turns_once_per_morning():
    state = morning(player(0, field=(merc(0, "7"),)))
    events, after = send(state, 0, SetPosition(card=card(0, "7"), position=DEFENCE))
    assert events == [ev.PositionSet(seat=0, card=card(0, "7"), position=DEFENCE)]
    assert after.players[0].field[0].position == DEFENCE
    assert refused(after, 0, SetPosition(card=card(0, "7"), position=ATTACK)) == "position_already_set"


def test_position_errors():
    state = morning(player(0, field=(merc(0, "7"),), hand=(card(0, "8"),)))
    assert refused(state, 0, SetPosition(card=card(0, "7"), position=ATTACK)) == "same_position"
    assert refused(state, 0, SetPosition(card=card(0, "7"), position="flat")) == "bad_position"
    assert refused(state, 0, SetPosition(card=card(0, "8"), position=DEFENCE)) == "not_in_field"
    assert refused(replace(state, phase=AFTERNOON), 0, SetPosition(card=card(0, "7"), position=DEFENCE)) \
        == "wrong_phase"
    _, hired = send(state, 0, Contract(card=card(0, "8")))
    assert refused(hired, 0, SetPosition(card=card(0, "8"), position=DEFENCE)) == "position_already_set"


def test_ending_the_morning_begins_the_afternoon():
    events, after = send(morning(), 0, EndPhase())
    assert events == [ev.PhaseBegan(seat=0, phase=AFTERNOON)] and after.phase == AFTERNOON

