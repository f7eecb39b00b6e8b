"""Seat tokens: random bearer secrets, stored only as SHA-256 hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SPECTATOR = "spectator"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def identify(token: str, hashes: dict[str, str]) -> str | None:
    """Which holder (``"0"``, ``"1"``, ..., ``"spectator"``) the token belongs to, or None.

    Every stored hash is compared, without stopping at a match, so timing says nothing."""
    given = digest(token)
    found = None
    for holder, stored in hashes.items():
        if hmac.compare_digest(given, stored):
            found = holder
    return found
