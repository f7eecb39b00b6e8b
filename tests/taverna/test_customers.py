"""Picking and placing customers: levels and bonuses, the privilege, Trickery, income, Feast, Magic."""

from __future__ import annotations

from domain.taverna import events as ev
from domain.taverna.commands import EndTurn, Pass, PickCustomer, PlaceCustomer
from domain.taverna.content import TOP
from tests.taverna.helpers import GAME, act, at_step, card, game_state, player, refused, tavern


def test_pick_offers_each_card_with_each_of_its_peoples():
    state = game_state()
    legal = GAME.legal(state, 0)
    assert {c.card for c in legal} == set(state.row)
    after, _ = act(state, 0, legal[0])
    assert after.turn.step == "place" and legal[0].card not in after.row
    assert after.players[0].customers == (legal[0].card,)


def test_pick_errors():
    state = game_state()
    row_card = state.row[0]
    assert refused(state, 1, PickCustomer(card=row_card, people="elf")) == "not_your_turn"
    assert refused(state, 0, PickCustomer(card="ta-cu-99", people="elf")) == "card_not_available"
    from domain.taverna.content import CUSTOMERS, PEOPLES

    other = next(p for p in PEOPLES if p not in CUSTOMERS[row_card].peoples)
    assert refused(state, 0, PickCustomer(card=row_card, people=other)) == "no_such_tile"
    assert refused(state, 0, PlaceCustomer(tavern="t1", table=0)) == "wrong_step"
    assert refused(state, 0, EndTurn()) == "wrong_step"


def test_elf_on_a_green_table_gains_a_level_and_a_spell():
    """Rulebook: Karl places an elf tile on a green table, moves up one elf level and gets a spell."""
    state = at_step(game_state(), "place", people="elf", guilds=("mask",))
    hand = len(state.players[0].hand)
    after, events = act(state, 0, PlaceCustomer(tavern="t2", table=0))  # t2's first table is elvish
    assert after.players[0].levels[0] == 1
    assert len(after.players[0].hand) == hand + 1
    assert ev.LevelGained(seat=0, people="elf", level=1) in events
    assert after.tiles["elf"] == 8 and after.turn.step == "act"


def test_elf_on_another_colour_gains_nothing():
    state = at_step(game_state(), "place", people="elf", guilds=("mask",))
    after, _ = act(state, 0, PlaceCustomer(tavern="t2", table=1))  # an orc table
    assert after.players[0].levels == (0, 0, 0, 0) and after.players[0].hand == ()


def test_co_owners_income_and_the_feast():
    """Rulebook: Karl and Fred co-own a beer tavern; Karl plays a beer card there: Fred +3, Karl +6."""
    state = tavern(game_state(3), "t1", deeds=(0, 1, -1))  # t1 prints beer
    state = at_step(state, "place", people="dwarf", guilds=("beer",))
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert [p.coins - 15 for p in after.players] == [6, 3, 0]


def test_income_and_feast_are_two_with_four_players():
    state = tavern(game_state(4), "t1", deeds=(0, 1, -1, -1))
    state = at_step(state, "place", people="dwarf", guilds=("beer",))
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=2))  # an orc table: no level
    assert [p.coins - 15 for p in after.players] == [4, 2, 0, 0]


def test_no_feast_without_beer_on_both():
    state = tavern(game_state(3), "t2", deeds=(0, -1, -1))  # t2 prints the lyre
    state = at_step(state, "place", people="dwarf", guilds=("beer",))
    after, _ = act(state, 0, PlaceCustomer(tavern="t2", table=1))
    assert after.players[0].coins == 18


def test_magic_draws_a_spell():
    state = at_step(game_state(), "place", people="dwarf", guilds=("book",))
    after, events = act(state, 0, PlaceCustomer(tavern="t3", table=2))  # t3 prints the book; a human table
    assert len(after.players[0].hand) == 1 and any(isinstance(e, ev.SpellDrawn) for e in events)


def test_influence_is_noted_for_the_lyre_on_both():
    state = at_step(game_state(), "place", people="dwarf", guilds=("lyre",))
    after, _ = act(state, 0, PlaceCustomer(tavern="t2", table=1))
    assert after.turn.influence


def test_last_free_table_claims_the_privilege_once():
    state = tavern(game_state(), "t1", tables=("dwarf", "orc", ""))
    state = at_step(state, "place", people="orc", guilds=("mask",))
    after, events = act(state, 0, PlaceCustomer(tavern="t1", table=2))
    assert ev.PrivilegeClaimed(seat=0, tavern="t1") in events
    assert after.players[0].privileges == 1 and not after.taverns["t1"].privilege
    # Trickery into a full tavern: no privilege any more
    again = at_step(after, "place", seat=1, people="elf", guilds=("mask",))
    later, events = act(again, 1, PlaceCustomer(tavern="t1", table=0))
    assert later.players[1].privileges == 0 and not any(isinstance(e, ev.PrivilegeClaimed) for e in events)


def test_trickery_replaces_a_tile_and_counts_the_removed_people():
    """An elf card with a mask replaces an orc tile: the orc track rises, the orc tile goes back."""
    state = tavern(game_state(), "t2", tables=("", "orc", ""), deeds=(1, -1, -1))
    state = replace_tiles(state, orc=8)
    state = at_step(state, "place", people="elf", guilds=("mask",))
    assert PlaceCustomer(tavern="t2", table=1) in GAME.legal(state, 0)
    after, _ = act(state, 0, PlaceCustomer(tavern="t2", table=1))
    assert after.taverns["t2"].tables == ("", "elf", "")
    assert after.players[0].levels == (0, 0, 1, 0)  # orc, not elf
    assert after.tiles["orc"] == 9 and after.tiles["elf"] == 8
    assert after.players[1].coins == 18  # the owner's income


def replace_tiles(state, **counts):
    from msgspec.structs import replace

    return replace(state, tiles={**state.tiles, **counts})


def test_a_taken_table_needs_trickery():
    state = tavern(game_state(), "t2", tables=("", "orc", ""))
    state = at_step(state, "place", people="elf", guilds=("beer",))
    assert PlaceCustomer(tavern="t2", table=1) not in GAME.legal(state, 0)
    assert refused(state, 0, PlaceCustomer(tavern="t2", table=1)) == "table_taken"
    assert refused(state, 0, PlaceCustomer(tavern="t2", table=3)) == "no_such_table"
    assert refused(state, 0, PlaceCustomer(tavern="zz", table=0)) == "no_such_table"


def test_the_top_level_is_reached_by_one_player_only():
    state = player(game_state(), 1, levels=(TOP, 0, 0, 0))
    state = player(state, 0, levels=(TOP - 1, 0, 0, 0))
    state = at_step(state, "place", people="elf")
    after, events = act(state, 0, PlaceCustomer(tavern="t2", table=0))
    assert after.players[0].levels[0] == TOP - 1 and not any(isinstance(e, ev.LevelGained) for e in events)
    first = player(game_state(), 0, levels=(TOP - 1, 0, 0, 0))
    after, _ = act(at_step(first, "place", people="elf"), 0, PlaceCustomer(tavern="t2", table=0))
    assert after.players[0].levels[0] == TOP


def test_end_turn_refills_the_row_and_passes_on():
    state = game_state()
    state, _ = act(state, 0, GAME.legal(state, 0)[0])
    state, _ = act(state, 0, next(c for c in GAME.legal(state, 0) if isinstance(c, PlaceCustomer)))
    for seat in state.turn.responders:  # every opponent asked answers
        state, _ = act(state, seat, Pass())
    deck = len(state.customer_deck)
    state, _ = act(state, 0, EndTurn())
    assert len(state.row) == 4 and len(state.customer_deck) == deck - 1
    assert state.turn.seat == 1 and state.turns_played == 1


def test_dual_card_offers_both_peoples():
    dual = card(("elf", "dwarf"), ("book",))
    from msgspec.structs import replace

    state = replace(game_state(), row=(dual,))
    assert GAME.legal(state, 0) == [PickCustomer(card=dual, people="elf"), PickCustomer(card=dual, people="dwarf")]
