"""Whole matches: the simulator is deterministic and finishes, and the greedy bot beats random."""

from __future__ import annotations

import io
import json

from domain.bots.random_bot import RandomBot
from domain.heros_tavern import GAME
from domain.kernel import play
from services.cli.simulate import simulate


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
    lines = match_lines(["greedy", "random", "random", "random"], 40, seed="greedy-test")
    share = sum(1 / len(m["result"]["winners"]) for m in lines if 0 in m["result"]["winners"]) / len(lines)
    assert share > 0.8, f"greedy won {share:.0%} of 40 matches against random (baseline 25%)"


def test_a_whole_match_fills_every_pad_and_totals_it_with_the_unspent_tokens():
    table = play(GAME, GAME.setup(5), "pads", [RandomBot() for _ in range(5)])
    view = GAME.view(table.state, None)
    result = GAME.result(table.state)
    assert view.phase == "over" and table.state.round == 5
    for seat, standing in zip(view.seats, result.standings, strict=True):
        assert len(seat.pad) == 6  # five rounds and the final scoring
        assert standing.score == seat.score == sum(row.total for row in seat.pad) + seat.tokens.count
        assert standing.tiebreak == seat.tokens.count
        assert all(t.tokens == t.card.cost for t in seat.tavern)  # only purchased cards are left
