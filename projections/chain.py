"""The match log as a hash chain, and its export format (``tavern-export/1``); pure.

A match opens with its *charter*: the JSON text naming the match, the game, its rules version,
the seats, the options, the seed commitment and the random derivation. The charter's SHA-256 is
the *genesis*, the ``prev`` of entry 1. Each entry's body is the JSON of an ``Envelope`` (version,
event type, event, the command behind it, time, ``prev``); its hash is the SHA-256 of those exact
bytes, and the next entry's ``prev``. So every byte of every entry and of the charter is covered.

The export is JSON Lines: first an ``ExportHeader`` (the charter text, its hash, the revealed seed),
then one ``ExportEntry`` per envelope, in version order, then on a finished match's export the
service's signature over its head (an ``ExportSignature``, projections/receipts.py; docs/AUDIT.md).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.receipts import HEAD_FORMAT, Head, signature_line

EXPORT_FORMAT = "tavern-export/1"
CHARTER_FORMAT = "tavern-charter/1"
LEGACY_GENESIS = "0" * 64  # the ``prev`` of entry 1 in logs written before charters existed


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def commitment(seed: str) -> str:
    """What is published at creation: the SHA-256 of the seed's UTF-8 text."""
    return digest(seed.encode())


class Cause(msgspec.Struct, frozen=True):
    """The command behind an event (all None for the opening events written at creation)."""

    id: str | None = None
    seat: int | None = None
    idempotency_key: str | None = None
    command: Any = None  # the command as decided (its JSON object), so an auditor can decide it again
    entropy: dict[str, str] | None = None  # on the opening entries: each seat's contribution, by seat


class Envelope(msgspec.Struct, frozen=True):
    version: int
    type: str
    event: msgspec.Raw  # the game's event as JSON, decoded lazily with the game's event type
    command: Cause
    time: float
    prev: str


class Charter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a match commits to at creation, before anything is dealt."""

    format: str
    match_id: str
    game: str
    rules_version: int
    seats: int
    options: dict[str, Any]
    seed_commitment: str
    rng: str
    entropy_seats: list[int]  # the seats whose entropy the opening waits for (none: the seed alone)


class ExportHeader(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: str
    charter: str  # the charter's JSON text, byte for byte as hashed
    genesis: str  # SHA-256 of ``charter``: the ``prev`` of entry 1
    seed: str  # revealed: its SHA-256 is the charter's seed_commitment


class ExportEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    body: str  # the envelope's JSON text, byte for byte as hashed
    hash: str


def effective_seed(seed: str, entropy: dict[str, str] | None) -> str:
    """The seed every draw uses (``tavern-entropy/1``): the server's seed, then each seat's
    contribution in seat order, folded in by s = hex SHA-256("{s}|{seat}|{contribution}")."""
    for seat, contribution in sorted((entropy or {}).items(), key=lambda item: int(item[0])):
        seed = digest(f"{seed}|{seat}|{contribution}".encode())
    return seed


def charter_text(charter: Charter) -> str:
    return msgspec.json.encode(charter).decode()


def export_lines(
    charter: str, seed: str, bodies: list[tuple[bytes, str]], signer: Ed25519PrivateKey | None = None
) -> bytes:
    """The export file: the header, then each (body, hash) in order, then, given the service's key
    (a finished match's export), its signed head (projections/receipts.py); every line ends with a newline."""
    encode = msgspec.json.encode
    genesis = digest(charter.encode())
    lines = [encode(ExportHeader(EXPORT_FORMAT, charter, genesis, seed))]
    lines += [encode(ExportEntry(body.decode(), hash)) for body, hash in bodies]
    if signer is not None and bodies:
        lines.append(signature_line(signer, head_of(msgspec.json.decode(charter, type=Charter), genesis, bodies)))
    return b"".join(line + b"\n" for line in lines)


def head_of(charter: Charter, genesis: str, bodies: list[tuple[bytes, str]]) -> Head:
    """The head a signature covers: the match, and its last entry's version and hash."""
    return Head(HEAD_FORMAT, charter.match_id, charter.game, charter.seed_commitment, genesis, len(bodies),
                bodies[-1][1] if bodies else genesis)
