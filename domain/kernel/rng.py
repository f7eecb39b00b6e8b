"""The deterministic random source, derivation ``tavern-rng/1``.

Every random outcome of a match (shuffle, deal, die roll, bot choice) is drawn from a stream
named by the match seed, a label and the log position at which it is drawn:

    block k = SHA-256("tavern-rng/1|{seed}|{label}|{position}|{k}")   (UTF-8, k = 0, 1, 2, ...)

Each 32-byte block is read as four unsigned 64-bit big-endian integers, in order. From them:

- ``below(n)``: rejection sampling; draw x until x < n * floor(2**64 / n), return x mod n.
- ``shuffle(items)``: Fisher-Yates from the last index down: for i = len-1 .. 1, j = below(i + 1),
  swap items[i] and items[j].

The rules draw with label ``rules`` at the version the command was decided against, so the same
seed and the same commands always give the same events, and an auditor holding the revealed seed
can recompute every outcome. The derivation is versioned: a change gets a new name.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import TypeVar

DERIVATION = "tavern-rng/1"
_T = TypeVar("_T")
_SPAN = 1 << 64


class Rng:
    """One named stream of the match seed; cheap to create, consumed by drawing."""

    __slots__ = ("_block", "_prefix", "_words")

    def __init__(self, seed: str, position: int, label: str = "rules") -> None:
        self._prefix = f"{DERIVATION}|{seed}|{label}|{position}|"
        self._block = 0
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(f"{self._prefix}{self._block}".encode()).digest()
            self._block += 1
            # reversed so that pop() yields the words in reading order
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (_SPAN // n) * n
        while True:
            x = self._next_word()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def choice(self, items: Sequence[_T]) -> _T:
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[_T]) -> list[_T]:
        """A shuffled copy; the input is left alone."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


_FLOATS = struct.Struct(">32Q")


class Floats:
    """Uniform floats in [0, 1) from one seed, derivation ``tavern-floats/1``: block k is
    SHAKE-128("tavern-floats/1|{seed}|{k}") read as 32 big-endian 64-bit integers, each over 2**64.
    For a bot's playouts, which draw thousands a move (the rules draw with ``Rng``): the same seed
    always gives the same floats, on every platform."""

    __slots__ = ("_block", "_left", "_prefix")

    def __init__(self, seed: int | float) -> None:
        self._prefix = f"tavern-floats/1|{seed!r}|"
        self._block = 0
        self._left: list[float] = []

    def random(self) -> float:
        if not self._left:
            raw = hashlib.shake_128(f"{self._prefix}{self._block}".encode()).digest(_FLOATS.size)
            self._block += 1
            self._left = [word * 5.421010862427522e-20 for word in _FLOATS.unpack(raw)]  # 2**-64
        return self._left.pop()

