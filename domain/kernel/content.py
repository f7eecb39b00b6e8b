"""Where game content lives: ``seeds/<game>/`` at the project root (``TAVERN_SEEDS`` overrides)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgspec

SEEDS = Path(os.environ.get("TAVERN_SEEDS", Path(__file__).resolve().parents[2] / "seeds"))


def load_seed(game: str, name: str, type_: Any = Any) -> Any:
    """Decode ``seeds/<game>/<name>`` (JSON) into ``type_``; a malformed file fails loudly."""
    return msgspec.json.decode((SEEDS / game / name).read_bytes(), type=type_)
