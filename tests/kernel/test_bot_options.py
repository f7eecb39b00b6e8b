"""Bots play the match they are in (issue 36): a bot is made for the match's options, the search
bots' determinizations are played by those options' rules, a bot in a match with options other
than the defaults only sends commands legal under them, and the bot that plays a timed-out seat
is made for the match's options too."""

from __future__ import annotations

from typing import Any

import pytest

from domain.bots.settings import WithoutSettings
from domain.games import fallback_bot, fallback_tables, game_ids, get_game, make_bot
from domain.kernel import AnyGame, Bot, Rng, Setup, Table, bot_turn
from domain.kernel.online import TimedOut, bot_label, online
from domain.kernel.search import Search
from domain.mercenaries.search import MercenariesSearch
from domain.taverna import GAME as TAVERNA
from domain.taverna import events as taverna_events
from tests.kernel.test_search_bot import Checked, sampler

# every option of each game away from its default (Taverna's auto_pass_entries has one value)
OTHER_OPTIONS: dict[str, dict[str, Any]] = {
    "heros-tavern": {"shopkeeper_cap": True, "zero_entertainment_second": True, "finite_tokens": True,
                     "staff_copies": "once"},
    "tavern-masters": {"dirty_deeds": True, "round_cap": 20, "draft": "booklet", "card_list": 1},
    "taverna": {"curse": False, "repeat_favour_kinds": True, "repeat_privilege_right": True,
                "off_turn_favours": False, "notary_second_deed": True},
    "mercenaries": {"best_of": 3, "ava_trash": "lowest_overall", "sell_from": "hand_or_field"},
}
SEATS = {"heros-tavern": 3, "tavern-masters": 3, "taverna": 3, "mercenaries": 2}
KINDS = [(game_id, kind) for game_id in game_ids() for kind in sorted({"search", *fallback_tables(get_game(game_id))})]


def option_fields(game: AnyGame, setup: Setup) -> list[str]:
    """The fields of the game's state that these options set apart from the defaults'."""
    mine, default = game.initial(setup), game.initial(game.setup(setup.seats))
    return [name for name in type(mine).__struct_fields__ if getattr(mine, name) != getattr(default, name)]


def midgame(game: AnyGame, setup: Setup, seed: str, commands: int) -> Table:
    table = Table(game, setup, seed)
    bots = [make_bot(game, "greedy", setup.options) for _ in range(setup.seats)]
    for _ in range(commands):
        if table.finished:
            break
        table.submit(*bot_turn(table, bots))
    return table


@pytest.mark.parametrize("game_id", game_ids())
def test_every_option_set_apart_is_an_option_of_the_game(game_id):
    game = get_game(game_id)
    setup = game.setup(SEATS[game_id], OTHER_OPTIONS[game_id])
    assert all(setup.options[name] != spec.default for spec in game.options for name in OTHER_OPTIONS[game_id]
               if spec.name == name)
    assert option_fields(game, setup)  # the options change the rules' state


@pytest.mark.parametrize("game_id", game_ids())
def test_the_search_bot_samples_states_under_the_matchs_options(game_id):
    """The options reach the simulator: every determinization carries the match's options where the
    true state does, and so shows every seat the view and legal list the true state shows."""
    game = get_game(game_id)
    setup = game.setup(SEATS[game_id], OTHER_OPTIONS[game_id])
    bot = make_bot(game, "search", setup.options)
    if isinstance(bot, WithoutSettings):  # Taverna's: its search offered no setting (Game.setting)
        bot = bot.bot
    assert isinstance(bot, Search | MercenariesSearch) and dict(bot.options) == setup.options
    fields = option_fields(game, setup)
    checked = 0
    for commands in (6, 30, 60):
        state = midgame(game, setup, f"options-{game_id}-{commands}", commands).state
        for seat in range(setup.seats):
            seen = game.view(state, seat)
            drawn = sampler(game_id)(seen, Rng("draw", commands, "sample"), bot.options)
            assert {name: getattr(drawn, name) for name in fields} == {name: getattr(state, name) for name in fields}
            assert game.view(drawn, seat) == seen
            assert game.legal(drawn, seat) == game.legal(state, seat)
            checked += 1
    assert checked == 3 * setup.seats


@pytest.mark.parametrize(("game_id", "kind"), KINDS)
def test_a_bot_in_a_match_with_other_options_sends_only_their_legal_commands(game_id, kind):
    """The bot plays seat 0 of a match with every option away from its default; the rules take
    each of its commands (Table.submit refuses an illegal one) and it chose from its legal list."""
    game = get_game(game_id)
    setup = game.setup(SEATS[game_id], OTHER_OPTIONS[game_id])
    checked = Checked(make_bot(game, kind, setup.options))
    bots: list[Bot] = [checked, *(make_bot(game, "greedy", setup.options) for _ in range(setup.seats - 1))]
    table = Table(game, setup, f"other-options-{game_id}-{kind}")
    while not table.finished and checked.moves < 8:
        table.submit(*bot_turn(table, bots))
    assert checked.moves == 8


@pytest.mark.parametrize("game_id", game_ids())
def test_the_bot_of_a_timed_out_seat_is_made_for_the_matchs_options(game_id):
    game = get_game(game_id)
    made: list[tuple[str, dict[str, Any]]] = []

    def bots(kind: str, options: dict[str, Any]) -> Bot:
        made.append((kind, options))
        return make_bot(game, kind, options)

    played = online(game, bots)
    setup = played.setup(SEATS[game_id], OTHER_OPTIONS[game_id])
    table = Table(played, setup, f"timeout-options-{game_id}")
    table.submit(table.actors()[0], TimedOut(bot=bot_label(game, fallback_bot(game, setup))))
    assert made == [(fallback_bot(game, setup), setup.options)]


def test_taverna_search_expects_the_favour_windows_other_seats_get_in_its_turn():
    """With off-turn favours on (the default), a move of the turn's seat that opens a favour window
    for the other seats opens the same window in the states the search bot samples from its view:
    its playouts let those seats use their favours there (and open none with the option off)."""
    found = 0
    for options, index in ((o, i) for o in ({}, {"off_turn_favours": False}) for i in range(6)):
        setup = TAVERNA.setup(3, options)
        table = Table(TAVERNA, setup, f"windows-{index}")
        bots = [make_bot(TAVERNA, "random", setup.options) for _ in range(3)]
        search = make_bot(TAVERNA, "search", setup.options).bot  # its search, offered no setting (WithoutSettings)
        assert isinstance(search, Search)
        while not table.finished:
            seat, command = bot_turn(table, bots)
            before = table.state
            events = table.submit(seat, command)
            if before.turn is None or before.turn.seat != seat or before.turn.window_seats:
                continue
            opened = [e.seats for e in events if isinstance(e, taverna_events.FavourWindow) and e.seats]
            assert not opened or setup.options["off_turn_favours"]
            if opened:
                drawn = search.sample(TAVERNA.view(before, seat), Rng("draw", found, "sample"), search.options)
                again = TAVERNA.decide(drawn, command, seat, Rng("rules", found))
                assert [e.seats for e in again if isinstance(e, taverna_events.FavourWindow) and e.seats] == opened
                found += 1
    assert found >= 3
