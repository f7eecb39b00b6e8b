"""``tavern audit FILE`` and ``tavern replay FILE``: an exported match checked or shown offline,
with no Redis and no service; the checks themselves are pure (projections/audit.py)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import msgspec

from domain.kernel import fold
from projections.audit import AuditFailure, audit, verify_chain
from projections.views import envelope


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError as problem:
        print(f"tavern: cannot read {path}: {problem.strerror}", file=sys.stderr)
        return None


def run_audit(path: str) -> int:
    """Print a report; exit 1 at the first failure, naming the line, the version and why."""
    data = _read(path)
    if data is None:
        return 2
    try:
        report = audit(data, now=time.time())
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
    print(f"  result: winners {winners}")
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
