"""``tavern simulate``: bot matches played in-process, one JSON line each, then a summary line."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

import msgspec

from domain.games import get_game, make_bot
from domain.kernel import Game, Setup, play


def match_seed(seed: str, index: int) -> str:
    return f"{seed}:{index}"


def simulate(
    game: Game, setup: Setup, seed: str, matches: int, bots: Sequence[str], out: TextIO = sys.stdout
) -> dict[str, Any]:
    """Play ``matches`` matches; match lines depend only on the arguments, the summary on the clock."""
    kinds = [bots[seat % len(bots)] for seat in range(setup.seats)]
    events = 0
    started = time.perf_counter()
    for index in range(matches):
        table = play(game, setup, match_seed(seed, index), [make_bot(game, kind, setup.options) for kind in kinds])
        events += table.version
        line = {
            "game": game.id,
            "match": index,
            "seed": table.seed,
            "seats": setup.seats,
            "options": setup.options,
            "bots": kinds,
            "events": table.version,
            "result": game.result(table.state),
        }
        out.write(msgspec.json.encode(line).decode() + "\n")
    seconds = time.perf_counter() - started
    summary = {
        "summary": True,
        "game": game.id,
        "matches": matches,
        "events": events,
        "seconds": round(seconds, 3),
        "matches_per_s": round(matches / seconds, 2) if seconds else None,
        "events_per_s": round(events / seconds, 1) if seconds else None,
    }
    out.write(msgspec.json.encode(summary).decode() + "\n")
    return summary


def parse_options(game: Game, pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes KEY=VALUE, not {pair!r}")
        options[key] = game.option_from_text(key, value)
    return options


def run(args: Any) -> int:
    game = get_game(args.game)
    setup = game.setup(args.seats, parse_options(game, args.option))
    simulate(game, setup, args.seed, args.matches, args.bot or ["random"])
    return 0
