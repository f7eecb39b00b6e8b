"""The ``tavern`` command: one subcommand per job."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version
from typing import Any

from domain.games import game_ids, get_game
from domain.kernel import RulesError
from services.ops import settings


def games_described() -> str:
    """Each game's seats, bots and options (choices, default first), from the games' registry."""
    lines = ["games (seats; bots; options, KEY=VALUE, the default first):"]
    for game_id in game_ids():
        game = get_game(game_id)
        lines.append(f"  {game.id} ({game.name}): {game.min_seats} to {game.max_seats} seats; "
                     f"bots: {', '.join(['random', *game.bots])}")
        for option in game.options:
            choices = [option.default, *(c for c in option.choices if c != option.default)]
            lines.append(f"    {option.name}={'|'.join(option_text(c) for c in choices)}")
    return "\n".join(lines)


def option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def build_parser() -> argparse.ArgumentParser:
    # the environment's settings, from their one table, under the help of what reads them
    described: dict[str, Any] = {
        "epilog": settings.described(),
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
    parser = argparse.ArgumentParser(prog="tavern", description="Tavern board games, event-sourced.", **described)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('tavern')}")
    sub = parser.add_subparsers(dest="command", required=True)

    simulate = sub.add_parser(
        "simulate",
        help="play bot matches in-process and print one JSON line each",
        description="Play bot matches in-process: one JSON line a match, then a summary line.",
        epilog=games_described(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    simulate.add_argument("game", choices=game_ids(), help="the game (its seats, options and bots below)")
    simulate.add_argument("--seats", type=int, required=True, help="how many seats (each game's range below)")
    simulate.add_argument("--matches", type=int, default=1, help="how many matches (default 1)")
    simulate.add_argument("--seed", default="0", help="the seed the matches' seeds come from (default 0)")
    simulate.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option; repeat for several"
    )
    simulate.add_argument(
        "--bot", action="append", metavar="KIND",
        help="a bot kind (random, or the game's own below; default random); repeat to give each seat its own, in order",
    )
    serve = sub.add_parser(
        "serve", help="run the gateway (and, without REDIS_URL, a worker on an embedded Redis)", **described
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    serve.add_argument("--embedded-worker", action="store_true", help="also run an RQ worker in this process")

    sub.add_parser("worker", help="run an RQ worker: projections and bot seats (needs REDIS_URL)", **described)

    audit = sub.add_parser("audit", help="verify an exported match offline: chain, seed, every event (docs/AUDIT.md)")
    audit.add_argument("file", help="the export: GET /v1/matches/{match_id}/export, one JSON line an entry")
    audit.add_argument("--key", help="the service's public key (64 hex, as GET /.well-known/tavern-signing-key "
                       "gives it, or a file holding that or its JSON): the signed head must be its")
    audit.add_argument("--key-from", metavar="URL", help="fetch that key from the service at URL (its base)")
    audit.add_argument("--receipt", action="append", default=[], metavar="VERSION:RECEIPT",
                       help="a receipt from an accepted command's answer; repeat for several")
    audit.add_argument("--last-hash", metavar="HEX", help="the last entry's hash, kept from elsewhere")
    replay = sub.add_parser("replay", help="print the view at a version of an exported match")
    replay.add_argument("file", help="the export: GET /v1/matches/{match_id}/export, one JSON line an entry")
    replay.add_argument("--at", type=int, help="the version (default: the last)")
    replay.add_argument("--seat", type=int, help="whose view (default: a spectator's)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "simulate":
            from services.cli import simulate

            return simulate.run(args)
        if args.command == "serve":
            from services.cli import serve

            return serve.run(args.host, args.port, args.embedded_worker)
        if args.command in ("audit", "replay"):
            from services.cli import audit

            if args.command == "audit":
                return audit.run_audit(args.file, args.key, args.key_from, args.receipt, args.last_hash)
            return audit.run_replay(args.file, args.at, args.seat)
        if args.command == "worker":
            from services.cli import worker

            return worker.main()
    except RulesError as error:
        print(f"tavern: {error.code}: {error.message}", file=sys.stderr)
        return 2
    return 1
