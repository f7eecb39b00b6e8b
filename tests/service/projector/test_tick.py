"""The projector's pause between drain steps grows with the share of a full batch a step claimed,
from the shortest tick to the longest."""

from __future__ import annotations

import pytest

from services.ops.settings import Settings, from_env
from services.projector.projector import Projector
from services.runtime import Runtime


@pytest.fixture
def projector() -> Projector:
    return Runtime(Settings(redis_url=None, queue_url=None, tick_s=0.012, min_tick_s=0.002)).projector


@pytest.mark.parametrize(
    ("claimed", "pause"), [(1, 0.002), (8, 0.002), (16, 0.003), (32, 0.006), (64, 0.012), (500, 0.012)]
)
def test_the_tick_grows_with_the_batch_between_the_settings(projector, claimed, pause):
    assert projector.batch == 64
    assert projector.tick(claimed) == pytest.approx(pause)


def test_no_tick_means_no_pause_whatever_the_shortest():
    settings = Settings(redis_url=None, queue_url=None, tick_s=0.0, min_tick_s=0.002)
    assert Runtime(settings).projector.tick(1) == 0.0


def test_the_defaults_and_their_environment_names():
    assert (from_env({}).tick_s, from_env({}).min_tick_s) == (0.012, 0.002)
    changed = from_env({"TAVERN_TICK_MS": "20", "TAVERN_MIN_TICK_MS": "5"})
    assert (changed.tick_s, changed.min_tick_s) == (0.020, 0.005)
