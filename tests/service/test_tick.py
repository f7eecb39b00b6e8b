"""The projector's pause between drain steps grows with the share of a full batch a step claimed."""

from __future__ import annotations

import pytest

from services.projector import Projector
from services.runtime import Runtime
from services.settings import Settings


@pytest.fixture
def projector() -> Projector:
    return Runtime(Settings(redis_url=None, queue_url=None, tick_s=0.012)).projector


@pytest.mark.parametrize(("claimed", "pause"), [(0, 0.0), (16, 0.003), (32, 0.006), (64, 0.012), (500, 0.012)])
def test_the_tick_grows_with_the_batch_and_stops_at_the_setting(projector, claimed, pause):
    assert projector.batch == 64
    assert projector.tick(claimed) == pytest.approx(pause)
