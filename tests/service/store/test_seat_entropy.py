"""SeatEntropy's contract, on each backend: each seat's contribution is kept once, the first one."""

from __future__ import annotations

import secrets

import pytest

from services.store import keys
from services.store.seat_entropy import SeatEntropy

pytestmark = pytest.mark.anyio


async def test_each_seat_gives_once_and_the_first_contribution_stays(backend):
    entropy, match_id = SeatEntropy(backend.events), secrets.token_hex(8)
    assert await entropy.given(match_id) == {}
    assert await entropy.give(match_id, 0, "dice") is True
    assert await entropy.give(match_id, 0, "other") is False
    assert await entropy.give(match_id, 2, "ünïcode") is True
    assert await entropy.given(match_id) == {"0": "dice", "2": "ünïcode"}


async def test_the_contributions_sit_beside_the_match_on_its_slot(backend):
    entropy, match_id = SeatEntropy(backend.events), secrets.token_hex(8)
    await entropy.give(match_id, 1, "x")
    assert keys.entropy(match_id) == f"match:{{{match_id}}}:entropy"
    assert await backend.events.hgetall(keys.entropy(match_id)) == {b"1": b"x"}
