"""Whole matches: the simulator is deterministic and finishes, and the greedy bot beats random."""

from __future__ import annotations

import io
import json

from domain.heros_tavern import GAME
from services.simulate import simulate


def match_lines(bots: list[str], matches: int, seats: int = 4, seed: str = "7") -> list[dict]:
    out = io.StringIO()
    simulate(GAME, GAME.setup(seats), seed, matches, bots, out)
    return [json.loads(line) for line in out.getvalue().splitlines() if '"summary"' not in line]


def test_simulate_twice_gives_byte_identical_match_lines():
    first, second = io.StringIO(), io.StringIO()
    for out in (first, second):
        simulate(GAME, GAME.setup(4), "7", 40, ["random"], out)
    lines = [out.getvalue().splitlines()[:-1] for out in (first, second)]  # the last is the timed summary
    assert len(lines[0]) == 40 and lines[0] == lines[1]
    assert all(json.loads(line)["result"]["winners"] for line in lines[0])


def test_greedy_beats_three_random_bots_clearly():
    lines = match_lines(["greedy", "random", "random", "random"], 60, seed="greedy-test")
    share = sum(1 / len(m["result"]["winners"]) for m in lines if 0 in m["result"]["winners"]) / len(lines)
    assert share > 0.45, f"greedy won {share:.0%} of 60 matches against random (baseline 25%)"
