"""People tracks: each level's bonus, privileges from the reserve while it lasts, the unique top."""

from __future__ import annotations

from msgspec.structs import replace

from domain.taverna.content import BONUS, TOP
from domain.taverna.state import Ctx
from domain.taverna.tracks import can_rise, gain_level
from tests.taverna.helpers import game_state, player


def rise(state, seat: int, people: str, bonus: bool = True):
    ctx = Ctx(state)
    gain_level(ctx, seat, people, bonus)
    return ctx.state


def test_bonuses_follow_the_table():
    assert BONUS["orc"][2] == {"points": 2}  # derived from the end-game example
    assert BONUS["elf"][1] == {"spell": 1}  # derived from the elf customer example
    state = player(game_state(), 0, levels=(0, 2, 1, 4))
    assert rise(state, 0, "orc").players[0].points == 2
    assert rise(state, 0, "dwarf").players[0].coins == 17
    after = rise(state, 0, "human")
    assert after.players[0].privileges == 1 and after.privilege_reserve == 9


def test_privilege_bonus_only_while_the_reserve_lasts():
    state = replace(player(game_state(), 0, levels=(0, 0, 0, 4)), privilege_reserve=0)
    after = rise(state, 0, "human")
    assert after.players[0].levels[3] == 5 and after.players[0].privileges == 0


def test_no_bonus_when_told_so():
    state = player(game_state(), 0, levels=(0, 0, 1, 0))
    assert rise(state, 0, "orc", bonus=False).players[0].points == 0


def test_top_level_once_and_never_beyond():
    state = player(game_state(), 0, levels=(TOP, 0, 0, 0))
    assert not can_rise(state, 0, "elf")
    assert rise(state, 0, "elf") == state
    state = player(state, 1, levels=(TOP - 1, 0, 0, 0))
    assert not can_rise(state, 1, "elf") and can_rise(state, 1, "dwarf", 2)
