"""The dignitaries: rights, costs, the move, the two-per-tavern limit, each skill."""

from __future__ import annotations

from domain.taverna import events as ev
from domain.taverna.commands import ActivateDignitary as Activate
from domain.taverna.commands import PlaceCustomer
from tests.taverna.helpers import GAME, act, at_step, game_state, player, refused, tavern

# game_state: notary in t1, gob'trotter in t2, princess in t3, ambassador in t4


def placed_in(tavern_id: str, seats: int = 3, **turn):
    return at_step(game_state(seats), "act", tavern=tavern_id, **turn)


def test_notary_buys_an_unowned_deed_in_the_tavern_of_arrival():
    state = placed_in("t1")
    after, _ = act(state, 0, Activate(dignitary="notary", tavern="t5", space=1))
    assert after.taverns["t5"].deeds == (-1, 0, -1)
    assert after.players[0].coins == 15 - 6 and after.players[0].points == 2
    assert after.taverns["t5"].dignitaries == ("notary",) and after.taverns["t1"].dignitaries == ()
    assert after.turn.dignitaries == ("notary",) and after.turn.tavern_right_used


def test_notary_takeover_price_plus_three_half_to_the_victim():
    """Price 6: pay 9, the victim gets 4 (rounded down) and keeps the points; the buyer scores."""
    state = tavern(placed_in("t1"), "t5", deeds=(-1, 1, -1))
    state = tavern(state, "t3", deeds=(1, -1, -1))  # the victim holds another deed
    state = player(state, 1, points=7)
    after, events = act(state, 0, Activate(dignitary="notary", tavern="t5", space=1))
    assert after.players[0].coins == 15 - 9 and after.players[0].points == 2
    assert after.players[1].coins == 15 + 4 and after.players[1].points == 7
    assert after.taverns["t5"].deeds == (-1, 0, -1)
    assert ev.DeedBought(seat=0, tavern="t5", space=1, price=9, points=2, previous=1, refund=4) in events


def test_notary_takeover_of_a_five_priced_deed():
    state = tavern(placed_in("t1"), "t2", deeds=(-1, 1, -1))  # small tavern, space 1 costs 5
    state = tavern(state, "t3", deeds=(1, -1, -1))
    after, _ = act(state, 0, Activate(dignitary="notary", tavern="t2", space=1))
    assert after.players[0].coins == 15 - 8 and after.players[1].coins == 15 + 4


def test_notary_never_takes_a_players_last_deed_nor_a_second_in_a_tavern():
    state = tavern(placed_in("t1"), "t5", deeds=(-1, 1, -1))
    assert refused(state, 0, Activate(dignitary="notary", tavern="t5", space=1)) == "bad_target"
    mine = tavern(placed_in("t1"), "t5", deeds=(0, -1, -1))
    assert refused(mine, 0, Activate(dignitary="notary", tavern="t5", space=1)) == "bad_target"
    assert not any(c.tavern == "t5" for c in GAME.legal(mine, 0) if isinstance(c, Activate) and c.space >= 0)


def test_gobtrotter_two_different_tokens_for_five_coins_and_six_points():
    state = placed_in("t2")
    after, _ = act(state, 0, Activate(dignitary="gobtrotter", tavern="t5", guilds=("lyre", "book")))
    assert after.taverns["t5"].guilds == ("lyre", "book")
    assert after.players[0].coins == 10 and after.players[0].points == 6
    assert after.guild_supply == {"beer": 4, "lyre": 3, "book": 3}


def test_gobtrotter_never_two_identical_tokens_in_a_tavern_but_a_printed_symbol_may_repeat():
    state = placed_in("t2")  # t5 prints beer: the rulebook forbids only two identical tokens
    beer, _ = act(state, 0, Activate(dignitary="gobtrotter", tavern="t5", guilds=("beer",)))
    assert beer.taverns["t5"].guilds == ("beer",) and beer.players[0].points == 3
    again = tavern(state, "t5", guilds=("lyre",))
    assert refused(again, 0, Activate(dignitary="gobtrotter", tavern="t5", guilds=("lyre",))) == "bad_target"


def test_princess_takes_favours_and_the_castle_is_refilled():
    state = placed_in("t3")
    chosen = state.castle[:2]
    after, _ = act(state, 0, Activate(dignitary="princess", tavern="t5", favours=chosen))
    assert after.players[0].favours == chosen and after.players[0].coins == 10
    assert len(after.castle) == 5 and len(after.favour_reserve) == 8


def test_ambassador_levels_split_with_bonuses():
    state = placed_in("t4")
    after, _ = act(state, 0, Activate(dignitary="ambassador", tavern="t5", peoples=("elf", "elf", "orc")))
    assert after.players[0].levels == (2, 0, 1, 0) and after.players[0].coins == 15 - 9
    assert len(after.players[0].hand) == 1 and after.players[0].points == 2  # elf 1: a spell, elf 2: 2 points


def test_costs_must_be_affordable():
    state = player(placed_in("t4"), 0, coins=5)
    assert refused(state, 0, Activate(dignitary="ambassador", tavern="t5", peoples=("elf", "orc"))) == "cannot_afford"
    assert all(c.peoples != ("elf", "orc") for c in GAME.legal(state, 0) if isinstance(c, Activate))


def test_the_move_goes_to_another_tavern_with_room():
    state = tavern(placed_in("t1"), "t5", dignitaries=("princess", "ambassador"))
    state = tavern(state, "t3", dignitaries=())
    state = tavern(state, "t4", dignitaries=())
    assert refused(state, 0, Activate(dignitary="notary", tavern="t5", space=0)) == "tavern_full"
    assert refused(state, 0, Activate(dignitary="notary", tavern="t1", space=0)) == "same_tavern"
    assert refused(state, 0, Activate(dignitary="notary", tavern="zz", space=0)) == "no_such_tavern"
    assert refused(state, 0, Activate(dignitary="zz", tavern="t3", space=0)) == "no_such_dignitary"


def test_only_a_dignitary_of_your_tavern_without_influence():
    state = placed_in("t1")
    assert refused(state, 0, Activate(dignitary="gobtrotter", tavern="t5", guilds=("lyre",))) == "no_activation_right"
    assert {c.dignitary for c in GAME.legal(state, 0) if isinstance(c, Activate)} == {"notary"}


def test_influence_any_one_dignitary_but_not_a_second():
    state = placed_in("t2", influence=True)
    everyone = {"notary", "gobtrotter", "princess", "ambassador"}
    assert {c.dignitary for c in GAME.legal(state, 0) if isinstance(c, Activate)} == everyone
    after, _ = act(state, 0, Activate(dignitary="ambassador", tavern="t5", peoples=("orc",)))
    second = Activate(dignitary="princess", tavern="t5", favours=after.castle[:1])
    assert refused(after, 0, second) == "no_activation_right"


def test_two_privileges_buy_one_more_activation_never_the_same_dignitary():
    state = player(placed_in("t1"), 0, privileges=4)
    after, _ = act(state, 0, Activate(dignitary="notary", tavern="t5", space=0))
    assert after.players[0].privileges == 4  # the tavern right first
    after, events = act(after, 0, Activate(dignitary="gobtrotter", tavern="t4", guilds=("beer",)))
    assert after.players[0].privileges == 2 and after.privilege_reserve == 12
    assert ev.DignitaryActivated(seat=0, dignitary="gobtrotter", tavern="t4", cost=3, via="privileges") in events
    third = Activate(dignitary="princess", tavern="t5", favours=after.castle[:1])
    assert refused(after, 0, third) == "no_activation_right"  # one extra activation a turn
    assert refused(after, 0, Activate(dignitary="notary", tavern="t2", space=0)) == "dignitary_used"


def test_the_tavern_right_waits_for_the_placement_two_privileges_do_not():
    """Ruling 8: "at any time during your turn": the Notary first, to co-own the tavern one is about to fill."""
    state = at_step(game_state(), "place", people="dwarf", tavern="")
    notary = Activate(dignitary="notary", tavern="t2", space=0)
    assert refused(state, 0, notary) == "no_activation_right"  # no placement yet: no tavern right
    rich = player(state, 0, privileges=2)
    assert notary in GAME.legal(rich, 0)
    owner, events = act(rich, 0, notary)
    assert ev.DignitaryActivated(seat=0, dignitary="notary", tavern="t2", cost=0, via="privileges") in events
    assert owner.taverns["t2"].deeds[0] == 0 and owner.turn.step == "place"
    coins = owner.players[0].coins
    placed, _ = act(owner, 0, PlaceCustomer(tavern="t2", table=1))
    assert placed.players[0].coins == coins + 3  # the placement pays its new owner
    assert refused(at_step(game_state(), "pick"), 0, notary) == "no_activation_right"
    before_the_pick = at_step(player(game_state(), 0, privileges=2), "pick")
    assert notary in GAME.legal(before_the_pick, 0)  # "at any time during your turn": before picking too
    bought, _ = act(before_the_pick, 0, notary)
    assert bought.taverns["t2"].deeds[0] == 0 and bought.turn.step == "pick"
    assert refused(placed_in("t1"), 1, Activate(dignitary="notary", tavern="t5", space=0)) == "not_your_turn"


def test_princess_three_favours_for_seven_coins():
    state = placed_in("t3")
    after, _ = act(state, 0, Activate(dignitary="princess", tavern="t1", favours=state.castle[:3]))
    assert len(after.players[0].favours) == 3 and after.players[0].coins == 8 and len(after.castle) == 5
