"""The ``tavern`` command: one subcommand per job."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version

from domain.kernel import RulesError
from services.ops import settings


def build_parser() -> argparse.ArgumentParser:
    # the environment's settings, from their one table, under the help of what reads them
    described = {"epilog": settings.described(), "formatter_class": argparse.RawDescriptionHelpFormatter}
    parser = argparse.ArgumentParser(prog="tavern", description="Tavern board games, event-sourced.", **described)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('tavern')}")
    sub = parser.add_subparsers(dest="command", required=True)

    simulate = sub.add_parser("simulate", help="play bot matches in-process and print one JSON line each")
    simulate.add_argument("game")
    simulate.add_argument("--seats", type=int, required=True)
    simulate.add_argument("--matches", type=int, default=1)
    simulate.add_argument("--seed", default="0")
    simulate.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    simulate.add_argument(
        "--bot", action="append", metavar="KIND", help="random or greedy; repeat to give each seat its own, in order"
    )

    serve = sub.add_parser(
        "serve", help="run the gateway (and, without REDIS_URL, a worker on an embedded Redis)", **described
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--embedded-worker", action="store_true", help="also run an RQ worker in this process")

    sub.add_parser("worker", help="run an RQ worker: projections and bot seats (needs REDIS_URL)", **described)

    audit = sub.add_parser("audit", help="verify an exported match offline: chain, seed, every event (docs/AUDIT.md)")
    audit.add_argument("file")
    replay = sub.add_parser("replay", help="print the view at a version of an exported match")
    replay.add_argument("file")
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
                return audit.run_audit(args.file)
            return audit.run_replay(args.file, args.at, args.seat)
        if args.command == "worker":
            from services.cli import serve

            return serve.run_worker()
    except RulesError as error:
        print(f"tavern: {error.code}: {error.message}", file=sys.stderr)
        return 2
    return 1
