"""Royal favours: each kind once, at the step of the turn it acts on."""

from __future__ import annotations

from domain.taverna import events as ev
from domain.taverna.commands import PlaceCustomer, UseFavour
from domain.taverna.content import FAVOURS
from tests.taverna.helpers import GAME, act, at_step, card, favour, game_state, player, refused, tavern


def holding(tile: str, step: str, **turn):
    return at_step(player(game_state(), 0, favours=(tile,)), step, **turn)


def test_change_guild_symbol_before_placing():
    tile = favour("change_guild")
    state = holding(tile, "place", people="dwarf", guilds=("lyre",), card_id=card(("dwarf",), ("lyre",)))
    after, _ = act(state, 0, UseFavour(favour=tile, from_guild="lyre", guild="beer"))
    assert after.turn.guilds == ("beer",) and after.players[0].used_favours == (tile,)
    assert refused(after, 0, UseFavour(favour=tile, from_guild="beer", guild="lyre")) == "favour_not_held"
    after = tavern(after, "t1", deeds=(0, -1, -1))
    placed, _ = act(after, 0, PlaceCustomer(tavern="t1", table=1))
    assert placed.players[0].coins == 21  # income and Feast thanks to the new beer


def test_add_a_symbol_only_if_the_card_lacks_it():
    tile = favour("add_guild", "mask")
    state = holding(tile, "place", people="elf", guilds=("beer",), card_id=card(("elf",), ("beer",)))
    after, _ = act(state, 0, UseFavour(favour=tile))
    assert after.turn.guilds == ("beer", "mask")
    assert PlaceCustomer(tavern="t1", table=0) in GAME.legal(tavern(after, "t1", tables=("orc", "", "")), 0)
    has = holding(tile, "place", people="elf", guilds=("mask",), card_id=card(("human",), ("mask",)))
    assert refused(has, 0, UseFavour(favour=tile)) == "not_applicable"


def test_a_tile_of_another_people():
    tile = favour("other_people")
    elf_card = card(("elf",), ("beer",))
    state = holding(tile, "place", people="elf", guilds=("beer",), card_id=elf_card)
    assert refused(state, 0, UseFavour(favour=tile, people="elf")) == "bad_target"
    after, _ = act(state, 0, UseFavour(favour=tile, people="orc"))
    assert after.turn.people == "orc"
    placed, _ = act(after, 0, PlaceCustomer(tavern="t1", table=1))  # an orc table
    assert placed.players[0].levels == (0, 0, 1, 0) and placed.tiles["orc"] == 8


def test_card_favours_wait_for_the_pick_and_end_with_the_placement_the_others_come_at_any_step():
    change, level = favour("change_guild"), favour("level")
    state = player(game_state(), 0, favours=(change, level))
    assert refused(state, 0, UseFavour(favour=change, from_guild="beer", guild="lyre")) == "wrong_step"
    assert UseFavour(favour=level, people="elf") in GAME.legal(state, 0)  # before the pick too
    placing = at_step(state, "place", guilds=("beer",))
    assert UseFavour(favour=level, people="elf") in GAME.legal(placing, 0)  # "at any time": before placing too
    acting = at_step(state, "act", tavern="t1", guilds=("beer",))
    assert refused(acting, 0, UseFavour(favour=change, from_guild="beer", guild="lyre")) == "wrong_step"
    assert refused(acting, 1, UseFavour(favour=level, people="elf")) == "not_your_turn"


def test_a_guild_token_before_placing_makes_a_feast():
    """Ruling 22: favours at any step of one's turn; a beer token first, then the beer card's Feast."""
    tile = favour("guild_token")
    state = at_step(player(game_state(), 0, favours=(tile,)), "place", people="elf", guilds=("beer",),
                    card_id=card(("elf",), ("beer",)))
    plain, _ = act(state, 0, PlaceCustomer(tavern="t2", table=0))  # t2 prints a lyre: no Feast
    token, _ = act(state, 0, UseFavour(favour=tile, tavern="t2", guild="beer"))
    feast, _ = act(token, 0, PlaceCustomer(tavern="t2", table=0))
    assert feast.players[0].coins == plain.players[0].coins + 3


def test_level_favour():
    tile = favour("level")
    after, _ = act(holding(tile, "act", tavern="t1"), 0, UseFavour(favour=tile, people="human"))
    assert after.players[0].levels == (0, 0, 0, 1) and after.players[0].points == 1  # human level 1: 1 point


def test_guild_token_favour_scores():
    tile = favour("guild_token")
    state = holding(tile, "act", tavern="t1")
    assert UseFavour(favour=tile, tavern="t1", guild="beer") in GAME.legal(state, 0)  # t1 prints beer: allowed
    after, _ = act(state, 0, UseFavour(favour=tile, tavern="t1", guild="book"))
    assert after.taverns["t1"].guilds == ("book",) and after.players[0].points == 3
    assert refused(tavern(state, "t1", guilds=("book",)), 0, UseFavour(favour=tile, tavern="t1", guild="book")) \
        == "bad_target"  # two identical tokens: never


def test_move_a_customer_pays_owners_and_may_give_a_level_and_the_privilege():
    tile = favour("move_customer")
    state = tavern(holding(tile, "act", tavern="t1"), "t5", tables=("elf", "", "", "", "", ""))
    state = tavern(state, "t2", tables=("", "orc", "human"), deeds=(1, 2, -1))
    after, events = act(state, 0, UseFavour(favour=tile, tavern="t5", table=0, to_tavern="t2", to_table=0))
    assert after.taverns["t2"].tables == ("elf", "orc", "human") and after.taverns["t5"].tables[0] == ""
    assert [p.coins for p in after.players] == [15, 17, 17]
    assert after.players[0].levels[0] == 1  # an elvish table
    assert ev.PrivilegeClaimed(seat=0, tavern="t2") in events
    assert refused(state, 0, UseFavour(favour=tile, tavern="t5", table=0, to_tavern="t5", to_table=1)) == (
        "bad_target")
    assert refused(state, 0, UseFavour(favour=tile, tavern="t5", table=1, to_tavern="t2", to_table=0)) == (
        "bad_target")


def test_favour_errors():
    tile = favour("level")
    assert refused(at_step(game_state(), "act", tavern="t1"), 0, UseFavour(favour=tile, people="elf")) == (
        "favour_not_held")
    assert refused(holding(tile, "act", tavern="t1"), 0, UseFavour(favour=tile, people="zz")) == "bad_target"


def test_different_favours_only_one_tile_of_a_kind_a_turn():
    first, second = favour("second_spell"), [f for f in FAVOURS if FAVOURS[f].kind == "second_spell"][1]
    state = at_step(player(game_state(), 0, favours=(first, second), hand=("ta-sp-01",)), "act", tavern="t1")
    after, _ = act(state, 0, UseFavour(favour=first))
    assert after.turn.favours == ("second_spell",)
    assert refused(after, 0, UseFavour(favour=second)) == "favour_kind_used"
    assert UseFavour(favour=second) not in GAME.legal(after, 0)
