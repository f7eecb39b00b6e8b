"""Audit benchmark: prints figures, asserts nothing (pytest does not collect it).

    python tests/bench/bench_audit.py [--game mercenaries] [--seats 2] [--option best_of=3] [--runs 5]

One long bot match is played in memory and sealed as the service seals its log; then the whole
offline audit (file, chain, seed, every command decided again) runs over its export several
times. Printed: entries verified per second (median): the plain audit, the audit given the
service's key and the finishing seat's receipt (the export signed), and the chain check alone.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import get_game
from projections.audit import Anchors, audit, verify_chain
from projections.chain import ExportHeader
from projections.receipts import receipt
from tests.audit.offline import export_of_play


def rate(check, data: bytes, entries: int, runs: int) -> float:
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        check(data)
        rates.append(entries / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="mercenaries")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--option", action="append", metavar="KEY=VALUE", help="default for mercenaries: best_of=3")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    game = get_game(args.game)
    given = args.option if args.option is not None else (["best_of=3"] if args.game == "mercenaries" else [])
    options = {k: game.option_from_text(k, v) for k, v in (o.split("=", 1) for o in given)}
    signer = Ed25519PrivateKey.generate()
    longest = max((export_of_play(args.game, args.seats, f"bench:{i}", options, signer=signer) for i in range(5)),
                  key=len)
    report = audit(longest)
    # the end pinned as an auditor holding the service's key and the finishing seat's receipt does
    header = msgspec.json.decode(longest.partition(b"\n")[0], type=ExportHeader)
    match_id = msgspec.json.decode(header.charter)["match_id"]
    last = ((report.entries, receipt(header.seed, match_id, report.entries, report.last_hash)),)
    anchors = Anchors(signer.public_key(), last)
    print(f"{args.game}, {args.seats} seats, {options}: the longest of 5 matches")
    print(f"  {report.entries} entries, {report.commands} commands, {len(longest) / 1e6:.2f} MB")
    print(f"  full audit : {rate(audit, longest, report.entries, args.runs):,.0f} entries/s")
    pinned = functools.partial(audit, anchors=anchors)
    print(f"  full audit with the key and a receipt: {rate(pinned, longest, report.entries, args.runs):,.0f} entries/s")
    print(f"  chain only : {rate(verify_chain, longest, report.entries, args.runs):,.0f} entries/s")


if __name__ == "__main__":
    main()
