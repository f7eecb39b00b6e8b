"""Every scoring category and staff card of the rulebook, with its thresholds (HT-T4 to HT-T8)."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from domain.heros_tavern import scoring
from domain.heros_tavern.content import Tokens


@pytest.mark.parametrize(
    ("counts", "heroes"),
    [
        ((3, 0, 0), (6, 0, 0)),  # sole leader, nobody else has any: no second place
        ((3, 3, 1), (3, 3, 0)),  # HT-T4: tie for most splits 6, no second place
        ((2, 2, 2), (2, 2, 2)),
        ((1, 1, 1, 1, 1), (1, 1, 1, 1, 1)),  # 6 // 5
        ((4, 2, 2, 2, 0), (6, 1, 1, 1, 0)),  # HT-T5: second place split three ways
        ((4, 1, 1, 1, 1), (6, 0, 0, 0, 0)),  # 3 // 4
        ((5, 3, 1), (6, 3, 0)),
        ((1, 3, 3, 0), (0, 3, 3, 0)),
        ((2, 1, 1), (6, 1, 1)),  # the rulebook's round 2: tied second-most, 1 each
        ((0, 0, 0), (0, 0, 0)),  # nobody has any: nobody scores
    ],
)
def test_entertainment_majorities(counts, heroes):
    assert scoring.entertainment(counts) == heroes


@pytest.mark.parametrize(("foods", "heroes"), [(0, 0), (2, 0), (3, 10), (5, 10), (6, 20), (9, 30)])
def test_food_scores_ten_per_complete_set_of_three(foods, heroes):
    assert scoring.food(foods) == heroes


@pytest.mark.parametrize(
    ("light", "dark", "heroes"),
    [(1, 1, 10), (1, 2, 10), (3, 1, 13), (4, 0, 6), (3, 3, 30), (0, 2, 3), (1, 0, 0), (2, 5, 23)],
)
def test_ale_pairs_chosen_for_the_best_score(light, dark, heroes):  # HT-T6
    assert scoring.ale(light, dark) == heroes


def best_pairing(light: int, dark: int, mixed_worth: int, same_worth: int) -> int:
    """Every way of forming mixed and same-kind pairs, the best of them (no card used twice)."""
    best = 0
    for mixed in range(min(light, dark) + 1):
        for lights, darks in product(range((light - mixed) // 2 + 1), range((dark - mixed) // 2 + 1)):
            best = max(best, mixed * mixed_worth + (lights + darks) * same_worth)
    return best


@pytest.mark.parametrize(("light", "dark"), list(product(range(13), range(13))))
def test_ale_and_bartender_pairing_is_the_best_of_every_pairing(light, dark):
    assert scoring.ale(light, dark) == best_pairing(light, dark, 10, 3)
    assert scoring.bartender(light, dark) == (best_pairing(light, dark, 5, 2) or 1)


@pytest.mark.parametrize(("rooms", "heroes"), [(0, 0), (1, 2), (4, 8)])
def test_lodging_scores_two_each(rooms, heroes):
    assert scoring.lodging(rooms) == heroes


@pytest.mark.parametrize(("markets", "heroes"), [(0, 0), (1, 1), (2, 3), (3, 5), (4, 7), (5, 10), (8, 10)])
def test_market_table(markets, heroes):
    assert scoring.market(markets) == heroes


@pytest.mark.parametrize(("shows", "heroes"), [(0, 1), (1, 2), (2, 2), (3, 4), (5, 4), (6, 6), (9, 6)])
def test_jester(shows, heroes):  # HT-T7
    assert scoring.jester(shows) == heroes


@pytest.mark.parametrize(("foods", "heroes"), [(0, 1), (2, 1), (3, 5), (5, 5), (6, 10)])
def test_cook(foods, heroes):
    assert scoring.cook(foods) == heroes


@pytest.mark.parametrize(
    ("light", "dark", "heroes"), [(1, 1, 5), (2, 0, 2), (0, 2, 2), (1, 0, 1), (0, 0, 1), (3, 1, 7), (2, 2, 10)]
)
def test_bartender(light, dark, heroes):
    assert scoring.bartender(light, dark) == heroes


@pytest.mark.parametrize(("rooms", "heroes"), [(0, 1), (1, 2), (2, 4), (3, 6), (4, 6)])
def test_maid(rooms, heroes):
    assert scoring.maid(rooms) == heroes


@pytest.mark.parametrize(("markets", "heroes"), [(0, 1), (3, 4), (5, 6), (7, 8)])
def test_shopkeeper_is_markets_plus_one_uncapped(markets, heroes):  # HT-9: the text wins
    assert scoring.shopkeeper(markets) == heroes


def test_shopkeeper_cap_option_stops_at_six():
    assert [scoring.shopkeeper(m, capped=True) for m in (3, 5, 7)] == [4, 6, 6]


def test_each_staff_copy_scores_on_its_own():  # HT-8
    row = scoring.score_row(Counter(shopkeeper=2, market=3, jester=2), shows=0)
    assert (row.shopkeeper, row.jester) == (8, 2)


@pytest.mark.parametrize(
    ("kinds", "award"),
    [
        ({}, Tokens()),
        ({"games": 1, "barrel": 2, "tools": 3}, Tokens(1, 3, 5)),
        ({"games": 4, "barrel": 5, "tools": 7}, Tokens(7, 10, 10)),
    ],
)
def test_resources_follow_the_1_3_5_7_10_table(kinds, award):
    assert scoring.resources(Counter(kinds)) == award


def test_score_row_totals_its_categories():
    kinds = Counter(entertainment=2, food=4, light_ale=2, dark_ale=1, lodging=2, market=2, cook=1, maid=1, games=3)
    row = scoring.score_row(kinds, shows=3)
    parts = (row.entertainment, row.food, row.ale, row.lodging, row.market, row.cook, row.maid)
    assert parts == (3, 10, 10, 4, 3, 5, 4) and row.total == sum(parts)


@pytest.mark.parametrize(
    ("totals", "unspent", "places"),
    [
        ((50, 50, 40), (3, 2, 9), (1, 2, 3)),  # HT-T8: equal totals, more unspent tokens wins
        ((50, 50, 40), (3, 3, 9), (1, 1, 3)),  # equal tokens too: a shared victory
        ((40, 60, 50), (9, 0, 0), (3, 1, 2)),  # tokens only break ties
    ],
)
def test_ranks_break_ties_by_unspent_tokens_then_share(totals, unspent, places):
    assert scoring.ranks(totals, unspent) == places
