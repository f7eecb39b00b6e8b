"""The arena: every bot of a game against every other, round robin, and a rating table with
confidence intervals. Prints figures, asserts nothing.

    python tests/bench/bench_arena.py [--matches 120] [--games mercenaries ...] [--option key=value ...]
        [--outside http://127.0.0.1:8000 [--outside-cmd 'python docs/examples/bot.py {url} {match} {token}']]

Each game is played at one seat count (``SEATS``, or ``--seats``). Match ``i`` seats a group of distinct entrants
(every group of that size in turn), in an order that rotates with ``i``, so that each entrant
meets each other one in every seat; the seed is ``arena-<game>-<i>``. The entrants are ``random``,
``greedy``, the game's other bots (``careful``, ``planner``) and ``search``, all played in this
process from their seat's view through ``make_bot`` with the match's options (``--option``, e.g.
``--option best_of=3``, applies to every game that has the option).

With ``--outside URL`` (a running ``tavern serve``), an ``outside-random`` entrant joins: the
matches it plays are created on that service and every seat, its own and the others, plays through
the HTTP API (``GET .../view``, ``POST .../commands``), the in-process bots deciding from the view
envelope as the service sent it. By default the outside seat picks uniformly from ``legal`` as the
example bot does; ``--outside-cmd`` names a separate process instead, started once a match with
``{url}``, ``{match}``, ``{token}``, ``{game}`` and ``{seat}`` filled in, which plays its seat to the
end itself (the bench waits for it).

The table: a Bradley-Terry rating per entrant, fitted by maximum likelihood (Hunter's MM
iteration) over every pair of seats of every match (the better rank wins the pair, equal ranks
share it), on the Elo scale with greedy at 0; its 95% interval comes from a bootstrap over matches
(``--bootstrap`` resamples), each resample fitted again and anchored at greedy again, so that an
interval that lies above 0 says the entrant beats greedy by more than the noise; under the table,
the first entrant's lead over the second with its interval from the same resamples (above 0: the
first is ahead by more than the noise). Why Bradley-Terry rather than win rates: in a table of
three or more, a win rate depends on whom a bot happened to sit with, while pairwise comparisons
pool every match into one consistent scale. Half
a win against every other entrant is added as a prior, so that an entrant that never wins (random)
keeps a finite rating. Beside it: the entrant's share of pairs won, its wins over its matches
against the fair share (1 / seats) with a 95% Wilson interval, and its time per move with a choice
(process CPU time, other processes' load excluded; wall time for the outside entrant, its HTTP
round trips included; 0 for a process of its own, which the bench does not time) as median and
99th percentile.

Measured for issue 36 (closing note; a machine loaded 3 to 20 on 2 cores, so the times are high) with:

    python tests/bench/bench_arena.py --games heros-tavern --matches 30
    python tests/bench/bench_arena.py --games taverna --matches 30
    python tests/bench/bench_arena.py --games mercenaries --matches 60
    python tests/bench/bench_arena.py --games tavern-masters --matches 150 --bots planner search
    python tests/bench/bench_arena.py --games tavern-masters --matches 600 --bots planner search  (search@3)
    python tests/bench/bench_arena.py --games tavern-masters --seats 2 --matches 150 --bots planner search
    python tests/bench/bench_arena.py --games tavern-masters --seats 2 --matches 450 --bots search planner \
        --shard 0/2 --save s2_0.json    # and 1/2 alongside, then --merge s2_0.json s2_1.json (RULINGS.md 46)

Mercenaries' search of generation 3 (its own simulator; seeds/mercenaries/RULINGS.md has the table), the
arena shared by three processes (``--shard I/N`` plays the matches whose index is I modulo N,
``--save`` writes them with their times, ``--merge`` prints the table of the saved shards; its
"in 0 s" is the merge's own time):

    python tests/bench/bench_arena.py --games mercenaries --bots careful search --matches 300 \
        --shard 0/3 --save shard0.json     # and 1/3, 2/3 alongside
    python tests/bench/bench_arena.py --games mercenaries --bots careful search --merge shard0.json \
        shard1.json shard2.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import shlex
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import game_ids, get_game, make_bot
from domain.kernel import AnyGame, Bot, Result, Rng, Setup, play
from tests.bench.bench_search_bot import Timed, percentile, wilson

SEATS = {"heros-tavern": 3, "tavern-masters": 3, "taverna": 3, "mercenaries": 2}
OUTSIDE = "outside-random"


# --- ratings ---------------------------------------------------------------------------------------


def pairs(entrants: Sequence[str], result: Result) -> list[tuple[int, int, float]]:
    """(entrant index, entrant index, the first's score: 1, 0.5 or 0) for every pair of seats."""
    rank = {s.seat: s.rank for s in result.standings}
    out = []
    for a, b in itertools.combinations(range(len(entrants)), 2):
        score = 1.0 if rank[a] < rank[b] else 0.5 if rank[a] == rank[b] else 0.0
        out.append((a, b, score))
    return out


def bradley_terry(n: int, games: Sequence[tuple[int, int, float]], prior: float = 0.5) -> list[float]:
    """Maximum-likelihood strengths (geometric mean 1) from (i, j, i's score) comparisons, each
    pair of entrants credited ``prior`` wins each way (Hunter 2004, the MM iteration)."""
    wins = [[prior * (i != j) for j in range(n)] for i in range(n)]
    for i, j, score in games:
        wins[i][j] += score
        wins[j][i] += 1 - score
    strength = [1.0] * n
    for _ in range(500):
        new = []
        for i in range(n):
            denominator = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(sum(wins[i]) / denominator)
        scale = math.exp(statistics.fmean(math.log(s) for s in new))
        new = [s / scale for s in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) < 1e-9
        strength = new
        if done:
            break
    return strength


def elo(strength: Sequence[float], anchor: int) -> list[float]:
    return [400 * math.log10(s / strength[anchor]) for s in strength]


# --- matches ---------------------------------------------------------------------------------------


def schedule(entrants: Sequence[str], seats: int, matches: int) -> list[list[str]]:
    """Match by match, the entrant in each seat: every group of ``seats`` in turn, each rotated one
    seat further every round of groups."""
    groups = list(itertools.combinations(entrants, seats)) if len(entrants) >= seats else [tuple(entrants)]
    out = []
    for index in range(matches):
        group, turn = groups[index % len(groups)], index // len(groups)
        out.append([group[(seat + turn) % len(group)] for seat in range(seats)])
    return out


def local_match(game: AnyGame, setup: Setup, seed: str, seated: Sequence[str],
                times: dict[str, list[float]]) -> Result:
    bots: list[Bot] = [Timed(make_bot(game, kind, setup.options), times[kind]) for kind in seated]
    result = game.result(play(game, setup, seed, bots).state)
    assert result is not None
    return result


class Service:
    """A running tavern service, reached through its public HTTP API only."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        data = None if body is None else json.dumps(body).encode()
        for _ in range(100):
            request = urllib.request.Request(self.url + path, data, headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status, json.load(answer)
            except urllib.error.HTTPError as refused:
                if refused.code == 429:  # the service's rate limits: wait as it asks
                    time.sleep(float(refused.headers.get("Retry-After", "1")))
                    continue
                return refused.code, json.load(refused)
        raise RuntimeError(f"{method} {path}: rate limited too long")


def outside_match(service: Service, game: AnyGame, setup: Setup, seed: str, seated: Sequence[str],
                  times: dict[str, list[float]], command_line: str | None) -> Result:
    """One match on the service, every seat played through the API; the outside seat by a uniform
    pick from ``legal`` in this process, or by its own process (``command_line``)."""
    status, created = service.call("POST", "/v1/matches", {"game": game.id, "seats": setup.seats,
                                                            "options": setup.options, "bots": []})
    if status != 201:
        raise RuntimeError(f"creating a match: {status} {created}")
    match_id, tokens = created["match_id"], [seat["token"] for seat in created["seats"]]
    envelope: Any = msgspec.defstruct("Envelope", [("version", int), ("status", str), ("view", game.view_type),
                                                    ("legal", list[game.command_type]), ("result", Result | None)])
    outside = seated.index(OUTSIDE)
    process = None
    if command_line is not None:
        words = [word.format(url=service.url, match=match_id, token=tokens[outside], game=game.id, seat=outside)
                 for word in shlex.split(command_line)]
        process = subprocess.Popen(words, stdout=subprocess.DEVNULL)
    bots = {seat: make_bot(game, kind, setup.options) for seat, kind in enumerate(seated) if kind != OUTSIDE}
    picks = random.Random(seed)
    try:
        while True:
            moved = False
            for seat, token in enumerate(tokens):
                if seat == outside and process is not None:
                    continue
                start = time.perf_counter()  # the outside seat's time: its HTTP round trips included
                status, raw = service.call("GET", f"/v1/matches/{match_id}/view", token=token)
                if status != 200:
                    raise RuntimeError(f"view: {status} {raw}")
                seen = msgspec.convert(raw, envelope)
                if seen.status == "finished":
                    assert seen.result is not None
                    return seen.result
                if not seen.legal:
                    continue
                if seat == outside:
                    body = picks.choice(raw["legal"])
                else:
                    bot = Timed(bots[seat], times[seated[seat]])
                    chosen = bot.choose(seen.view, seen.legal, Rng(seed, seen.version, f"bot:{seat}"))
                    body = msgspec.to_builtins(chosen)
                status, _ = service.call("POST", f"/v1/matches/{match_id}/commands",
                                         {**body, "expected_version": seen.version}, token)
                if seat == outside and len(seen.legal) > 1:
                    times[OUTSIDE].append(time.perf_counter() - start)
                moved |= status == 200
            if not moved:
                time.sleep(0.02)  # the outside process's turn, or views not yet projected
    finally:
        if process is not None:
            process.wait(timeout=600)


# --- the table -------------------------------------------------------------------------------------


def arena(game_id: str, matches: int, options: dict[str, str], service: Service | None, command_line: str | None,
          bootstrap: int, only: Sequence[str], every: int, seats: int | None, shard: tuple[int, int] = (0, 1),
          save: str | None = None, merge: Sequence[str] = ()) -> None:
    game = get_game(game_id)
    given = {name: game.option_from_text(name, text) for name, text in options.items()
             if any(spec.name == name for spec in game.options)}
    seats = seats or SEATS[game_id]
    setup = game.setup(seats, given)
    entrants = [kind for kind in ("random", *game.bots) if not only or kind in only or kind == "greedy"]
    entrants += [OUTSIDE] if service else []
    if len(entrants) < 2:
        raise SystemExit(f"{game_id}: an arena needs two entrants or more, not {entrants}")
    times: dict[str, list[float]] = {kind: [] for kind in entrants}
    played: list[tuple[list[int], Result]] = []
    started = time.perf_counter()
    for path in merge:  # shards played apart (--shard, --save): their matches and times, pooled
        saved = msgspec.json.decode(Path(path).read_bytes(), type=Shard)
        played += [(seated_ids, result) for seated_ids, result in saved.played]
        for kind, spent in saved.times.items():
            times[kind] += spent
    for index, seated in enumerate(schedule(entrants, seats, 0 if merge else matches)):
        if index % shard[1] != shard[0]:
            continue
        seed = f"arena-{game_id}-{index}"
        if OUTSIDE in seated:
            assert service is not None
            result = outside_match(service, game, setup, seed, seated, times, command_line)
        else:
            result = local_match(game, setup, seed, seated, times)
        played.append(([entrants.index(kind) for kind in seated], result))
        if every and len(played) % every == 0 and len(played) < matches:
            table(game, given, entrants, played, times, time.perf_counter() - started, bootstrap)
    if save:
        Path(save).write_bytes(msgspec.json.encode(Shard(played=played, times=times)))
    table(game, given, entrants, played, times, time.perf_counter() - started, bootstrap)


class Shard(msgspec.Struct):
    """The matches of one shard of an arena and its entrants' times per move, saved to be merged."""

    played: list[tuple[list[int], Result]]
    times: dict[str, list[float]]


def comparisons(played: Sequence[tuple[list[int], Result]]) -> list[tuple[int, int, float]]:
    """Every pair of seats of every match held by two entrants, as (entrant, entrant, the first's score)."""
    out = []
    for seated_ids, result in played:
        out += [(seated_ids[a], seated_ids[b], score) for a, b, score in pairs(seated_ids, result)
                if seated_ids[a] != seated_ids[b]]
    return out


def table(game: AnyGame, given: dict[str, Any], entrants: Sequence[str], played: Sequence[tuple[list[int], Result]],
          times: dict[str, list[float]], elapsed: float, bootstrap: int) -> None:
    seats = len(played[0][0])
    anchor = entrants.index("greedy")
    rating = elo(bradley_terry(len(entrants), comparisons(played)), anchor)
    draws = random.Random(f"bootstrap-{game.id}")
    resampled = [elo(bradley_terry(len(entrants), comparisons(draws.choices(played, k=len(played)))), anchor)
                 for _ in range(bootstrap)]
    print(f"\n{game.name} ({game.id}), {seats} seats, {len(played)} matches in {elapsed:.0f} s, options {given or '-'}")
    print("entrant          Elo  (95% CI)       pairs won  wins/matches  (95% CI)   fair   ms/move p50    p99")
    for index, kind in sorted(enumerate(entrants), key=lambda item: -rating[item[0]]):
        low, high = (percentile([r[index] for r in resampled], q) for q in (0.025, 0.975))
        mine = [(seated_ids, result) for seated_ids, result in played if index in seated_ids]
        wins = sum(1 for seated_ids, result in mine if seated_ids.index(index) in result.winners)
        scored = [score if i == index else 1 - score for i, j, score in comparisons(played) if index in (i, j)]
        w_low, w_high = wilson(wins, len(mine))
        share = statistics.fmean(scored) if scored else 0.0  # a shard (--shard) may leave an entrant out
        p50, p99 = (percentile(times[kind], q) * 1000 for q in (0.5, 0.99))
        print(f"{kind:14} {rating[index]:+5.0f}  ({low:+5.0f} {high:+5.0f})   {share:8.0%}  "
              f"{wins:4}/{len(mine):<4} ({w_low:4.0%}-{w_high:4.0%})  {1 / seats:4.0%}  {p50:11.2f}  {p99:6.2f}",
              flush=True)
    first, second = sorted(range(len(entrants)), key=lambda index: -rating[index])[:2]
    low, high = (percentile([r[first] - r[second] for r in resampled], q) for q in (0.025, 0.975))
    print(f"{entrants[first]} ahead of {entrants[second]} by {rating[first] - rating[second]:+.0f} Elo "
          f"(95% CI {low:+.0f} {high:+.0f}, the same resamples)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=120, help="matches per game")
    parser.add_argument("--games", nargs="*", default=game_ids())
    parser.add_argument("--option", action="append", default=[], help="key=value, for every game with that option")
    parser.add_argument("--outside", help="a running service's URL: adds the outside-random entrant, played through it")
    parser.add_argument("--outside-cmd", help="the outside entrant's own process, a command line with {url} {match} "
                                              "{token} {game} {seat}")
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--bots", nargs="*", default=[], help="only these entrants (greedy always plays)")
    parser.add_argument("--seats", type=int, help="the seat count, for every game named (default: SEATS)")
    parser.add_argument("--every", type=int, default=0, help="print the table so far every this many matches too")
    parser.add_argument("--shard", default="0/1", help="I/N: play only the matches whose index is I modulo N, so "
                                                       "that N processes share an arena")
    parser.add_argument("--save", help="write this run's matches and times to this file (a shard's, for --merge)")
    parser.add_argument("--merge", nargs="*", default=[], help="print the table of these saved shards, playing none")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    service = Service(args.outside) if args.outside else None
    for game_id in args.games:
        arena(game_id, args.matches, options, service, args.outside_cmd, args.bootstrap, args.bots, args.every,
              args.seats, (int(args.shard.split("/")[0]), int(args.shard.split("/")[1])), args.save, args.merge)


if __name__ == "__main__":
    main()
