"""A token bucket as the store names it (bucket.lua beside it holds the arithmetic): taken from by
rate_limit.lua (rate_limits.py), and a seat token's command bucket by append.lua itself
(event_store.py), in the append's own call."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from services.store import keys


@dataclass(frozen=True, slots=True)
class Bucket:
    kind: str  # what it counts and per what: "create", "create:key", "cmd:token"...
    who: str  # whose bucket: an address, or a secret's digest (``digest``)
    per_s: float  # its sustained rate
    burst: int  # its size
    match_id: str | None = None  # the match it counts within (kept on that match's shard)

    @property
    def key(self) -> str:
        return keys.rate(self.kind, self.who, self.match_id)

    @property
    def tag(self) -> str:
        return self.match_id or self.who


class RateLimited(Exception):
    """A bucket held no token: nothing was done; ``wait_ms`` until it holds one."""

    def __init__(self, wait_ms: int) -> None:
        super().__init__(f"rate limited for {wait_ms} ms")
        self.wait_ms = wait_ms


def digest(secret: str) -> str:
    """A secret's name in a key: its digest, so that Redis's key space never holds a token."""
    return hashlib.blake2b(secret.encode("utf-8", "replace"), digest_size=12).hexdigest()
