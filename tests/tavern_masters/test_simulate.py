"""Bot play to the end in every mode: deterministic simulate, and the greedy bot beating random."""

from __future__ import annotations

import io

import msgspec
import pytest

from domain.bots.random_bot import RandomBot
from domain.games import get_game
from domain.kernel import play
from domain.tavern_masters import GAME
from domain.tavern_masters.bot import GreedyBot
from services.cli.simulate import simulate

MODES = [(4, "competitive"), (3, "cooperative"), (1, "solo")]


def lines(out: io.StringIO) -> list[bytes]:
    return out.getvalue().splitlines()[:-1]  # the summary line holds the clock


@pytest.mark.parametrize(("seats", "mode"), MODES)
def test_simulate_finishes_every_match_and_is_deterministic(seats, mode):
    game = get_game("tavern-masters")
    setup = game.setup(seats, {"mode": mode, "dirty_deeds": True})
    first, second = io.StringIO(), io.StringIO()
    simulate(game, setup, "7", 4, ["random"], first)
    simulate(game, setup, "7", 4, ["random"], second)
    assert lines(first) == lines(second) and len(lines(first)) == 4
    for line in lines(first):
        assert msgspec.json.decode(line)["result"] is not None


def test_greedy_beats_random_in_competitive_play():
    setup = GAME.setup(2, {"mode": "competitive"})
    wins = 0
    for index in range(20):
        greedy = index % 2  # alternate the seats
        bots = [GreedyBot(), RandomBot()] if greedy == 0 else [RandomBot(), GreedyBot()]
        result = GAME.result(play(GAME, setup, f"greedy-{index}", bots).state)
        wins += result.winners == (greedy,)
    assert wins >= 16


def solo_golds(bot) -> list[int]:
    setup = GAME.setup(1, {"mode": "solo", "challenge": "buzzed"})
    return [play(GAME, setup, f"solo-{i}", [bot()]).state.players[0].gold for i in range(20)]


def test_greedy_earns_far_more_than_random_alone():
    greedy, rand = solo_golds(GreedyBot), solo_golds(RandomBot)
    assert sum(greedy) > 3 * sum(rand)
    assert sum(g >= 20 for g in greedy) >= sum(r >= 20 for r in rand)


def test_all_greedy_co_operative_tables_win_where_random_ones_do_not():
    setup = GAME.setup(3, {"mode": "cooperative", "challenge": "buzzed"})

    def wins(bot) -> int:
        return sum(bool(GAME.result(play(GAME, setup, f"coop-{i}", [bot() for _ in range(3)]).state).winners)
                   for i in range(16))

    # random tables win a rare deal (1 of these 16 since issue 38 let offers name cards gone unseen,
    # which changed the random play), greedy ones nearly all
    assert wins(RandomBot) <= 2 and wins(GreedyBot) >= 12
