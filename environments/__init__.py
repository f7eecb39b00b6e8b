"""Research environments: each game as a PettingZoo AEC environment (environments/aec.py), built on
the rules core and the service's per-seat views, for training and comparing agents
(docs/research.md). Needs the ``research`` extra (pettingzoo, gymnasium, numpy); the service never
imports it."""

from __future__ import annotations

from typing import Any

from environments.aec import TavernEnv


def env(game: str, **kwargs: Any) -> TavernEnv:
    """``TavernEnv(game, seats=None, options=None, observation="vector", render_mode=None)``."""
    return TavernEnv(game, **kwargs)


__all__ = ["TavernEnv", "env"]
