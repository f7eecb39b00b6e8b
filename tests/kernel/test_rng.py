"""The seeded random source: deterministic, documented, uniform enough, and never shared by accident."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from domain.kernel import Rng


def test_first_word_follows_the_documented_derivation():
    digest = hashlib.sha256(b"tavern-rng/1|abc|rules|5|0").digest()
    words = [int.from_bytes(digest[i : i + 8], "big") for i in (0, 8, 16, 24)]
    rng = Rng("abc", 5)
    assert [rng.below(1000) for _ in range(4)] == [w % 1000 for w in words]


def test_same_seed_position_and_label_give_the_same_draws():
    assert Rng("s", 3).shuffle(range(50)) == Rng("s", 3).shuffle(range(50))


@pytest.mark.parametrize(("a", "b"), [(("s", 3, "rules"), ("s", 4, "rules")), (("s", 3, "rules"), ("t", 3, "rules")),
                                      (("s", 3, "rules"), ("s", 3, "bot:0"))])
def test_another_seed_position_or_label_gives_other_draws(a, b):
    assert Rng(*a).shuffle(range(50)) != Rng(*b).shuffle(range(50))


def test_shuffle_is_a_permutation_and_leaves_its_input_alone():
    items = list(range(118))
    shuffled = Rng("x", 0).shuffle(items)
    assert sorted(shuffled) == items and shuffled != items and items == list(range(118))


def test_draws_stay_in_range_and_cover_it():
    rng = Rng("range", 0)
    rolls = Counter(rng.die() for _ in range(6000))
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(800 < n < 1200 for n in rolls.values()), rolls
    assert {rng.randint(-2, 2) for _ in range(200)} == {-2, -1, 0, 1, 2}


def test_reading_more_than_one_block_continues_the_stream():
    rng = Rng("long", 0)
    draws = [rng.below(10) for _ in range(9)]  # 9 words span three 4-word blocks
    third = hashlib.sha256(b"tavern-rng/1|long|rules|0|2").digest()
    assert draws[8] == int.from_bytes(third[:8], "big") % 10


def test_below_refuses_an_empty_range():
    with pytest.raises(ValueError):
        Rng("x", 0).below(0)
