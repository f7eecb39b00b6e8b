"""Where game content lives: the ``seeds`` package's ``<game>/`` folders, found through the package (package data)."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import msgspec

SEEDS: Traversable = files("seeds")


def load_seed(game: str, name: str, type_: Any = Any) -> Any:
    """Decode ``seeds/<game>/<name>`` (JSON) into ``type_``; a malformed file fails loudly."""
    return msgspec.json.decode((SEEDS / game / name).read_bytes(), type=type_)
