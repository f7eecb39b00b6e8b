"""Every game, seat count and option set in cases.py, over many random matches."""

from __future__ import annotations

import pytest

from domain.games import get_game
from tests.conformance.cases import CASES
from tests.conformance.harness import check_match

CHUNK = 25  # matches per test, so that pytest-xdist can spread a case over both cores


def in_suite(case) -> int:
    """The matches the suite plays of a case: half its count (at least 5; the suite runs on every
    change, and on a slow machine the whole count took most of CI's time); every one of them is
    played by tests/bench/bench_conformance.py."""
    return min(case.matches, max(5, case.matches // 2))


def case_id(case, first: int) -> str:
    options = "-".join(f"{key}={value}" for key, value in case.options.items()) or "default"
    return f"{case.game}-{case.seats}-{options}-{first}"


PARAMS = [
    pytest.param(case, first, id=case_id(case, first))
    for case in CASES
    for first in range(0, in_suite(case), CHUNK)
]


@pytest.mark.parametrize(("case", "first"), PARAMS)
def test_random_matches_conform(case, first):
    game = get_game(case.game)
    setup = game.setup(case.seats, case.options)
    for index in range(first, min(first + CHUNK, in_suite(case))):
        check_match(game, setup, seed=f"conformance-{case.game}-{case.seats}-{index}")
