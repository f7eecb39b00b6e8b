"""Whole matches: simulate finishes and repeats itself; the greedy bot beats the random one."""

from __future__ import annotations

import io
import json

import pytest

from domain.games import get_game
from services.cli.simulate import simulate

GAME = get_game("taverna")


def match_lines(seats: int, bots: list[str], matches: int, seed: str = "7") -> list[dict]:
    out = io.StringIO()
    simulate(GAME, GAME.setup(seats, {}), seed, matches, bots, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[-1]["summary"] and lines[-1]["matches"] == matches
    return lines[:-1]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_simulate_finishes_and_is_deterministic(seats):
    first = match_lines(seats, ["random"], 6)
    assert first == match_lines(seats, ["random"], 6)
    assert all(line["result"]["winners"] for line in first)


def test_greedy_beats_random():
    """One greedy seat against two random ones: it should win far more than its fair third."""
    lines = match_lines(3, ["greedy", "random", "random"], 30, seed="greedy")
    wins = sum(0 in line["result"]["winners"] for line in lines)
    assert wins >= 24, f"greedy won {wins} of 30"
