"""Every game, seat count and option set in cases.py, over many random matches."""

from __future__ import annotations

import pytest

from domain.games import get_game
from tests.conformance.cases import CASES
from tests.conformance.harness import check_match

CHUNK = 25  # matches per test, so that pytest-xdist can spread a case over both cores



def case_id(case, first: int) -> str:
    options = "-".join(f"{key}={value}" for key, value in case.options.items()) or "default"
    return f"{case.game}-{case.seats}-{options}-{first}"


PARAMS = [
    pytest.param(case, first, id=case_id(case, first))
    for case in CASES
    for first in range(0, case.matches, CHUNK)
]


@pytest.mark.parametrize(("case", "first"), PARAMS)
def test_random_matches_conform(case, first):
    game = get_game(case.game)
    setup = game.setup(case.seats, case.options)
    for index in range(first, min(first + CHUNK, case.matches)):
        check_match(game, setup, seed=f"conformance-{case.game}-{case.seats}-{index}")
