"""The greedy bot against the random bot, and the simulator's determinism."""

from __future__ import annotations

import io
import json

import pytest

from domain.games import make_bot
from domain.kernel import play
from domain.mercenaries import GAME
from services.cli.simulate import simulate


@pytest.mark.parametrize("greedy_seat", [0, 1])
def test_greedy_beats_random_clearly(greedy_seat):
    setup = GAME.setup(2, {"best_of": 1})
    wins = 0
    for index in range(30):
        kinds = ["random", "random"]
        kinds[greedy_seat] = "greedy"
        table = play(GAME, setup, f"bot-{greedy_seat}-{index}", [make_bot(GAME, k) for k in kinds])
        wins += GAME.result(table.state).winners == (greedy_seat,)
    assert wins >= 24  # at least 80% over 30 games


def match_lines(best_of: int) -> list[dict]:
    out = io.StringIO()
    simulate(GAME, GAME.setup(2, {"best_of": best_of}), "7", 40, ["random"], out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return [line for line in lines if "summary" not in line]


@pytest.mark.parametrize("best_of", [1, 3])
def test_simulate_finishes_every_match_and_is_deterministic(best_of):
    first, second = match_lines(best_of), match_lines(best_of)
    assert first == second and len(first) == 40
    for line in first:
        assert len(line["result"]["winners"]) == 1
        games = line["result"]["details"]["games"]
        assert max(sum(g["winner"] == seat for g in games) for seat in (0, 1)) == best_of // 2 + 1
