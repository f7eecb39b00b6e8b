"""``tavern audit FILE`` and ``tavern replay FILE``: an exported match checked or shown offline,
with no Redis and no service; the checks themselves are pure (projections/audit.py)."""

from __future__ import annotations

import sys
import time
import urllib.request
from pathlib import Path

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.kernel import fold
from projections.audit import Anchors, AuditFailure, audit, verify_chain
from projections.receipts import SIGNING_KEY_PATH, SigningKey, public_key
from projections.views import envelope


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError as problem:
        print(f"tavern: cannot read {path}: {problem.strerror}", file=sys.stderr)
        return None


def _key(given: str | None, url: str | None) -> Ed25519PublicKey | None:
    """The public key: given (its hex, or a file with its hex or the well-known route's JSON), or
    fetched from the service at ``url``; ValueError saying what is wrong."""
    text = given
    if url is not None:
        where = url.rstrip("/") + SIGNING_KEY_PATH
        try:
            with urllib.request.urlopen(where, timeout=10) as answer:
                text = answer.read().decode()
        except (OSError, UnicodeDecodeError) as problem:
            raise ValueError(f"cannot fetch the key from {where}: {problem}") from None
    elif given is not None and Path(given).is_file():
        text = Path(given).read_text()
    if text is None:
        return None
    text = text.strip()
    if text.startswith("{"):
        try:
            text = msgspec.json.decode(text, type=SigningKey).public_key
        except msgspec.DecodeError as problem:
            raise ValueError(f"not the signing key's JSON: {problem}") from None
    return public_key(text.lower())


def _receipts(given: list[str]) -> tuple[tuple[int, str], ...]:
    found = []
    for text in given:
        version, _, value = text.partition(":")
        if not version.isdigit() or len(value) != 64:
            raise ValueError(f"a receipt is VERSION:RECEIPT (64 hex), not {text!r}")
        found.append((int(version), value.lower()))
    return tuple(found)


def run_audit(
    path: str, key: str | None = None, key_from: str | None = None, receipts: list[str] | None = None,
    last_hash: str | None = None,
) -> int:
    """Print a report; exit 1 at the first failure, naming the line, the version and why (2: a file
    or a key that cannot be read)."""
    data = _read(path)
    if data is None:
        return 2
    try:
        anchors = Anchors(_key(key, key_from), _receipts(receipts or []), last_hash and last_hash.lower())
    except ValueError as problem:
        print(f"tavern: {problem}", file=sys.stderr)
        return 2
    try:
        report = audit(data, now=time.time(), anchors=anchors)
    except AuditFailure as failure:
        print(f"AUDIT FAILED {path}: {failure}", file=sys.stderr)
        return 1
    winners = ", ".join(map(str, report.result.winners)) or "none"
    print(f"audit ok: {path}")
    print(f"  match {report.match_id}: {report.game}, rules version {report.rules_version}, {report.seats} seats")
    print(f"  chain: {report.entries} entries, every hash and link checked; last hash {report.last_hash}")
    entropy = f"; entropy of seats {report.entropy_seats} folded in" if report.entropy_seats else ""
    print(f"  seed: matches its commitment{entropy}")
    print(f"  rules: {report.opening_events} opening events drawn again from the seed,")
    print(f"         {report.commands} commands decided again, every event the same")
    if report.legality_only:
        print(f"         but {report.legality_only} timed-out move(s), by a bot generation this release does not"
              " have: checked for legality only")
    print(f"  result: winners {winners}")
    print(f"  end: {report.signature}; {report.receipts} receipt(s) or last hash checked")
    return 0


def run_replay(path: str, at: int | None, seat: int | None) -> int:
    """Print the view envelope at version ``at`` (the last without it) for a seat or a spectator."""
    data = _read(path)
    if data is None:
        return 2
    try:
        chain = verify_chain(data)
    except AuditFailure as failure:
        print(f"REPLAY REFUSED {path}: {failure}", file=sys.stderr)
        return 1
    events = chain.events
    version = len(events) if at is None else at
    if not 0 <= version <= len(events):
        print(f"tavern: the log has versions 0 to {len(events)}, not {version}", file=sys.stderr)
        return 2
    if seat is not None and not 0 <= seat < chain.charter.seats:
        print(f"tavern: no seat {seat}", file=sys.stderr)
        return 2
    state = fold(chain.game, chain.setup, events[:version])
    shown = envelope(chain.game, chain.charter.match_id, state, version, seat)
    print(msgspec.json.format(msgspec.json.encode(shown).decode()))
    return 0
