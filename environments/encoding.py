"""Fixed-size observations: named integer features, each a flat array of a fixed length and bounds.

A game's encoder fills a ``Features`` from a seat's view, always calling the same methods with the
same names and sizes, so the features' names, sizes and bounds (the observation space) are those of
any one observation. The vector observation is the features concatenated in the order they were
added; ``layout`` says where each one starts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from gymnasium import spaces

DTYPE = np.int32


class Features:
    """One observation being built: each feature's values and its bounds, in the order added (as
    plain lists: numpy arrays are made once, for the whole observation)."""

    def __init__(self) -> None:
        self.lists: dict[str, list[int]] = {}
        self.bounds: dict[str, tuple[int, int]] = {}

    def add(self, name: str, values: Iterable[int], low: int, high: int) -> None:
        """A feature of ``len(values)`` entries; each is clipped into [low, high] when the arrays are
        made (counts past the bound read as the bound) so that every observation lies in the space."""
        assert name not in self.lists, f"feature {name} added twice"
        self.lists[name] = values if isinstance(values, list) else list(values)  # bools count as 0 and 1
        self.bounds[name] = (low, high)

    def number(self, name: str, value: int, high: int, low: int = 0) -> None:
        self.add(name, [value], low, high)

    def numbers(self, name: str, values: Iterable[int], size: int, high: int, low: int = 0) -> None:
        """Up to ``size`` numbers, padded with zeros (a seat that is not at the table, say)."""
        out = list(values)[:size]
        self.add(name, out + [0] * (size - len(out)), low, high)

    def one_hot(self, name: str, value: object, choices: Sequence[object]) -> None:
        """Which of ``choices`` ``value`` is; a value outside them is a bug in the encoder."""
        out = [0] * len(choices)
        out[choices.index(value)] = 1
        self.add(name, out, 0, 1)

    def counts(self, name: str, items: Iterable[str], vocabulary: Mapping[str, int], high: int = 1) -> None:
        """How many of each identifier of the vocabulary ``items`` holds ("" is no item)."""
        out = [0] * len(vocabulary)
        for item in items:
            if item:
                out[vocabulary[item]] += 1
        self.add(name, out, 0, high)

    @property
    def values(self) -> dict[str, np.ndarray]:
        """Each feature as an array within its bounds: the dict observation."""
        return {
            name: np.clip(np.asarray(values, dtype=DTYPE), *self.bounds[name]) for name, values in self.lists.items()
        }


def vocabulary(identifiers: Iterable[str]) -> dict[str, int]:
    """Identifiers to their positions, in the order given (each once)."""
    return {item: index for index, item in enumerate(dict.fromkeys(identifiers))}


def dict_space(features: Features) -> spaces.Dict:
    return spaces.Dict(
        {
            name: spaces.Box(low, high, shape=(len(features.lists[name]),), dtype=DTYPE)
            for name, (low, high) in features.bounds.items()
        }
    )


def vector_space(features: Features) -> spaces.Box:
    sizes = [len(values) for values in features.lists.values()]
    lows, highs = zip(*features.bounds.values(), strict=True)
    return spaces.Box(
        np.repeat(np.asarray(lows, DTYPE), sizes), np.repeat(np.asarray(highs, DTYPE), sizes), dtype=DTYPE
    )


def vector(features: Features, space: spaces.Box) -> np.ndarray:
    """The features one after another, within the bounds of ``space`` (``vector_space``)."""
    flat = [v for values in features.lists.values() for v in values]
    return np.clip(np.asarray(flat, dtype=DTYPE), space.low, space.high)


def layout(features: Features) -> list[tuple[str, int, int]]:
    """(name, offset, size) of each feature within the vector."""
    out, offset = [], 0
    for name, values in features.lists.items():
        out.append((name, offset, len(values)))
        offset += len(values)
    return out


def relative_seats(seat: int, seats: int) -> list[int]:
    """The seats in table order starting from ``seat``: each observation puts the observer first."""
    return [(seat + k) % seats for k in range(seats)]
