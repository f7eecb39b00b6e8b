"""Royal favours "at any time during any turn" (RULINGS.md 22, option ``off_turn_favours``): windows
at each step of another seat's turn, asking every seat that holds a favour it could use, at once."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games import make_bot
from domain.kernel import Setup, Table, bot_turn
from domain.taverna import events as ev
from domain.taverna.board import table_people
from domain.taverna.commands import EndTurn, Pass, PickCustomer, PlaceCustomer, UseFavour
from domain.taverna.content import CUSTOMERS
from domain.taverna.state import initial
from tests.taverna.helpers import GAME, SPELL_IDS, act, favour, game_state, player, refused

LEVEL = favour("level")


def elf_table(state) -> PlaceCustomer:
    return next(PlaceCustomer(tavern=t, table=i) for t, tavern in state.taverns.items()
                for i in range(len(tavern.tables)) if table_people(state, t, i) == "elf")


def race(off_turn: bool):
    """Seat 0 is about to seat an elf on an elf table at elf level 6; seat 1, also at 6, holds a level
    favour: the top level goes to whoever gets there first."""
    state = replace(game_state(3), off_turn_favours=off_turn)
    state = player(state, 0, levels=(6, 0, 0, 0))
    state = player(state, 1, levels=(6, 0, 0, 0), favours=(LEVEL,))
    elf_card = next(c for c in state.row if "elf" in CUSTOMERS[c].peoples)
    state, events = act(state, 0, PickCustomer(card=elf_card, people="elf"))
    return state, events


def test_a_seat_holding_a_favour_is_asked_after_the_pick_and_takes_the_top_level_first():
    state, events = race(off_turn=True)
    assert events[-1] == ev.FavourWindow(moment="picked", seats=(1,))
    assert GAME.legal(state, 0) == [] and refused(state, 0, elf_table(state)) == "awaiting_favours"
    assert GAME.legal(state, 2) == [] and refused(state, 2, Pass()) == "not_asked"  # holds no favour: not asked
    assert UseFavour(favour=LEVEL, people="elf") in GAME.legal(state, 1)
    state, events = act(state, 1, UseFavour(favour=LEVEL, people="elf"))
    assert ev.LevelGained(seat=1, people="elf", level=7) in events
    assert events[-1] == ev.FavourWindow(moment="picked", seats=())  # nothing left to use: closed
    state, events = act(state, 0, elf_table(state))
    assert not any(isinstance(e, ev.LevelGained) for e in events)  # the top is held by seat 1
    assert state.players[0].levels[0] == 6 and state.players[1].levels[0] == 7


def test_without_the_option_the_active_seat_reaches_the_top():
    state, events = race(off_turn=False)
    assert not any(isinstance(e, ev.FavourWindow) for e in events)
    assert refused(state, 1, UseFavour(favour=LEVEL, people="elf")) == "not_your_turn"
    state, events = act(state, 0, elf_table(state))
    assert ev.LevelGained(seat=0, people="elf", level=7) in events


def test_a_match_recorded_before_the_option_existed_opens_no_window():
    """Rules version 2 charters lack the option: their fold and their audit play without windows."""
    assert initial(Setup(seats=3, options={"curse": False})).off_turn_favours is False
    assert GAME.setup(3).options["off_turn_favours"] is True


def test_a_pass_then_the_placement_window_then_the_ending_window():
    state, _ = race(off_turn=True)
    state, events = act(state, 1, Pass())
    assert events == [ev.WindowPassed(seat=1), ev.FavourWindow(moment="picked", seats=())]
    state, events = act(state, 0, elf_table(state))
    assert events[-1] == ev.FavourWindow(moment="placed", seats=(1,))  # once the customer is placed
    state, _ = act(state, 1, Pass())
    state, events = act(state, 0, EndTurn())
    assert events == [ev.FavourWindow(moment="ending", seats=(1,))]  # the turn is not over yet
    assert refused(state, 1, Pass(always=True)) == "bad_pass"
    state, events = act(state, 1, Pass())
    assert isinstance(events[-1], ev.TurnEnded) and state.turn.seat == 1 and state.turn.step == "pick"


def test_only_favours_that_need_no_card_of_ones_own_and_one_of_a_kind():
    card_favour = favour("add_guild", "beer")
    second = favour("second_spell")
    tokens = favour("guild_token")
    state = replace(game_state(3), off_turn_favours=True)
    state = player(state, 1, favours=(card_favour, second, tokens, LEVEL), hand=(SPELL_IDS[0],))
    elf_card = next(c for c in state.row if "elf" in CUSTOMERS[c].peoples)
    state, _ = act(state, 0, PickCustomer(card=elf_card, people="elf"))
    offered = {c.favour for c in GAME.legal(state, 1) if isinstance(c, UseFavour)}
    assert offered == {tokens, LEVEL}
    assert refused(state, 1, UseFavour(favour=card_favour)) == "wrong_step"
    state, _ = act(state, 1, UseFavour(favour=LEVEL, people="orc"))
    assert state.turn.window_seats == (1,)  # the guild token is still there to use
    assert state.turn.favours == () and state.turn.off_turn_favours == ((1, "level"),)


def test_who_is_asked_follows_from_the_face_up_favours_alone():
    """Hands and their spells never change who a window asks: favours are face up."""
    def asked(hand):
        state = replace(game_state(3), off_turn_favours=True)
        state = player(state, 1, favours=(LEVEL,), hand=hand)
        state = player(state, 2, hand=hand)
        elf_card = next(c for c in state.row if "elf" in CUSTOMERS[c].peoples)
        return act(state, 0, PickCustomer(card=elf_card, people="elf"))[1]

    assert asked(()) == asked(tuple(SPELL_IDS[:3]))


def test_bots_finish_real_matches_with_windows():
    """Real matches, greedy and random bots alternating: windows open, favours are used in another
    seat's turn, and every match ends (the greedy bot spends its favours on its own turn, so windows
    come mostly from the random bots' kept tiles)."""
    used = windows = 0
    for seats in (2, 5):
        for index in range(10):
            table = Table(GAME, GAME.setup(seats), f"off-turn-{seats}-{index}")
            bots = [make_bot(GAME, ("greedy", "random")[s % 2], table.setup.options) for s in range(seats)]
            while not table.finished:
                turn = table.state.turn
                events = table.submit(*bot_turn(table, bots))
                opened = turn is None or not turn.window
                windows += sum(1 for e in events if isinstance(e, ev.FavourWindow) and e.seats and opened)
                used += sum(1 for e in events if isinstance(e, ev.FavourUsed) and turn and e.seat != turn.seat)
    assert windows > 0 and used > 0
