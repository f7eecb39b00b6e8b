"""What one accepted command costs each Redis and each process of deploy/local.sh's topology, for
docs/CAPACITY.md's model (printed and written to JSON, not asserted).

For each setup, local.sh's topology (tests/deploy/local_topology.py: nginx, 2 gateways, 2 workers,
the cluster with ``--shards`` shards of a primary and a replica, the queue's Redis with a replica
and 3 Sentinels; ``--queues`` is passed as TAVERN_LOCAL_QUEUES, the queue instances local.sh
runs) is brought up on free ports and played through nginx: ``--matches``
matches at a time, the four games in turn, each a client playing seat 0 with random legal
commands and bots the others (tests/service/durable_play.py: a 503 sent again with its key), a
finished match replaced by a new one. First ``--idle`` seconds are measured with no match (each
instance's CPU per second idle); then, after ``--warmup`` seconds of play, ``--seconds``:

- per Redis instance (its role as it says at the end: cluster primary or replica, queue primary or
  replica): calls by command (INFO commandstats), CPU (used_cpu_user + used_cpu_sys), bytes in and
  out (total_net_input_bytes / total_net_output_bytes; the replication stream is among them, and
  also given apart: total_net_repl_*), deltas over the window;
- per gateway and worker: CPU (/proc, with its children's), and nginx's (its workers');
- the commands accepted meanwhile (tavern_commands_total{outcome="accepted"} of every gateway, the
  players', and worker, the bots').

Each figure is also divided by the accepted commands. Then, outside the window, a match's Redis
memory (MEMORY USAGE of each key in its slot with its hash tag; in play and finished), and the
commands of each game's finished matches (their exports). The limits are on as shipped
(deploy/tavern.env); none needed lifting from the bench's one address at these rates (per-address
commands 1000/s, creations 5/s and 50 open matches: the bench stays under each; past them it
would have to lift the per-address ones, which stand for one abuser, not for a fleet of players).

    python -m tests.bench.bench_capacity --shards 1 2 3 --queues 1 2 --seconds 30 --out docs/capacity.json
    python -m tests.bench.capacity_model docs/capacity.json   # docs/CAPACITY.md's tables from it
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import redis
from redis.crc import key_slot

from projections.chain import Envelope, ExportEntry
from services.store import keys
from tests.audit.forgery import entry_lines
from tests.bench.bench_service import cpu_seconds
from tests.bench.capacity_model import table
from tests.deploy.local_topology import KEY, Local
from tests.service.client import bearer
from tests.service.durable_play import GAMES, Tally, call, play

FRONTEND = {"X-API-Key": KEY}  # creations as a trusted frontend makes them (the kit's TAVERN_CREATE_IDENTITY)
ACCEPTED = re.compile(r'^tavern_commands_total\{[^}]*outcome="accepted"[^}]*\} (\S+)$', re.M)


def redis_snapshot(port: int) -> dict[str, Any]:
    """One Redis's counters so far: calls by command, CPU seconds, bytes, its role and memory."""
    client = redis.Redis(port=port, socket_timeout=5)
    try:
        info = client.info("everything")
    finally:
        client.close()
    calls = {name[len("cmdstat_") :]: stat["calls"] for name, stat in info.items() if name.startswith("cmdstat_")}
    return {
        "role": "primary" if info["role"] == "master" else "replica",
        "calls": calls,
        "cpu_s": info["used_cpu_user"] + info["used_cpu_sys"],
        "net_in": info["total_net_input_bytes"],
        "net_out": info["total_net_output_bytes"],
        "repl_in": info.get("total_net_repl_input_bytes", 0),
        "repl_out": info.get("total_net_repl_output_bytes", 0),
        "used_memory": info["used_memory"],
    }


def children_of() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                found.setdefault(parent, []).append(int(entry.name))
    return found


def tree_cpu_s(pid: int, children: dict[int, list[int]]) -> float:
    """A process's CPU seconds with its living descendants' (and those it has reaped: cutime, cstime)."""
    total = 0.0
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = cpu_seconds(pid) + (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return total + sum(tree_cpu_s(child, children) for child in children.get(pid, []))


def ports_env(local: Local) -> dict[str, list[int]]:
    """local.sh's ports.env: each name's ports."""
    found = {}
    for line in (local.directory / "ports.env").read_text().splitlines():
        name, _, value = line.partition("=")
        # QUEUES' items are primary:replica pairs, each also in QUEUE
        found[name] = [int(port) for item in value.strip("'").split() for port in item.split(":")]
    return found


def accepted(port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    return sum(float(value) for value in ACCEPTED.findall(text))


def snapshot(local: Local) -> dict[str, Any]:
    """Every counter the window's deltas are taken of."""
    pids, ports = local.pids(), ports_env(local)
    children = children_of()
    redises = {name: int(name.split("-")[1]) for name in pids if name.startswith(("node-", "queue-"))}
    return {
        "at": time.monotonic(),
        "redis": {name: redis_snapshot(port) for name, port in sorted(redises.items())},
        "cpu_s": {
            name: tree_cpu_s(pid, children)
            for name, pid in sorted(pids.items())
            if name.startswith(("gateway-", "worker-", "nginx"))
        },
        "accepted": {
            "players": sum(accepted(port) for port in ports["GATEWAYS"]),
            "bots": sum(accepted(port) for port in ports["WORKERS"]),
        },
    }


def deltas(before: dict[str, Any], after: dict[str, Any], idling: dict[str, float]) -> dict[str, Any]:
    """The window's figures: per Redis instance and per process, each also per accepted command,
    with its CPU per second when idle (``idle_cpu``)."""
    players = after["accepted"]["players"] - before["accepted"]["players"]
    bots = after["accepted"]["bots"] - before["accepted"]["bots"]
    commands = max(players + bots, 1)
    instances = []
    for name, end in after["redis"].items():
        start = before["redis"][name]
        calls = {
            command: count - start["calls"].get(command, 0)
            for command, count in end["calls"].items()
            if command != "info" and count > start["calls"].get(command, 0)  # less the bench's own INFO
        }
        figures = {
            "calls": sum(calls.values()),
            "cpu_us": (end["cpu_s"] - start["cpu_s"]) * 1e6,
            "bytes_in": end["net_in"] - start["net_in"],
            "bytes_out": end["net_out"] - start["net_out"],
            "repl_in": end["repl_in"] - start["repl_in"],
            "repl_out": end["repl_out"] - start["repl_out"],
        }
        instances.append(
            {
                "name": name,
                "kind": "cluster" if name.startswith("node-") else "queue",
                "role": end["role"],
                "used_memory": end["used_memory"],
                "idle_cpu_us_per_s": idling.get(name, 0.0),
                "by_command": dict(sorted(calls.items(), key=lambda item: -item[1])),
                **figures,
                "per_command": {key: value / commands for key, value in figures.items()},
            }
        )
    processes = [
        {
            "name": name,
            "kind": name.split("-")[0],
            "cpu_us": (cpu - before["cpu_s"].get(name, 0.0)) * 1e6,
            "cpu_us_per_command": (cpu - before["cpu_s"].get(name, 0.0)) * 1e6 / commands,
            "idle_cpu_us_per_s": idling.get(name, 0.0),
        }
        for name, cpu in after["cpu_s"].items()
    ]
    seconds = after["at"] - before["at"]
    return {
        "seconds": seconds,
        "accepted": {"players": players, "bots": bots, "total": players + bots, "per_s": (players + bots) / seconds},
        "instances": instances,
        "processes": processes,
    }


def match_memory(local: Local, match_id: str) -> int:
    """The bytes Redis holds for a match: MEMORY USAGE of each key of its slot with its hash tag."""
    log = keys.log(match_id)
    client = redis.Redis(port=local.cluster.primary_of(log), socket_timeout=5)
    try:
        tag = f"{{{match_id}}}".encode()
        found = client.execute_command("CLUSTER", "GETKEYSINSLOT", key_slot(log.encode()), 10_000)
        names = [name for name in found if tag in name]
        return sum(client.memory_usage(name, samples=0) or 0 for name in names)
    finally:
        client.close()


def commands_of(export: bytes) -> int:
    """The commands in a match's export: its entries' distinct causes (the opening's has none)."""
    causes = set()
    for line in entry_lines(export)[1:]:  # the first line is the header; the signed head is no entry
        body = msgspec.json.decode(msgspec.json.decode(line, type=ExportEntry).body, type=Envelope)
        if body.command.id is not None:
            causes.add(body.command.id)
    return len(causes)


class Load:
    """``matches`` matches in play at once through nginx, each replaced when it finishes."""

    def __init__(self, base: str, matches: int) -> None:
        self.api = httpx.AsyncClient(base_url=base, timeout=60, headers=FRONTEND)
        self.tally = Tally()
        self.playing: dict[str, tuple[str, dict]] = {}  # match id -> its game, its creation's answer
        self.finished: list[tuple[str, dict, float]] = []  # game, creation, seconds it took
        self.tasks = [asyncio.create_task(self.keep(slot)) for slot in range(matches)]

    async def keep(self, slot: int) -> None:
        for turn in range(1_000_000):
            game, seats = GAMES[(slot + turn) % len(GAMES)]
            body = {"game": game, "seats": seats, "bots": list(range(1, seats))}
            created = (await call(self.api, self.tally, "POST", "/v1/matches", json=body)).json()
            self.playing[created["match_id"]] = (game, created)
            began = time.monotonic()
            await play(self.api, created, 0, seed=slot * 1000 + turn, tally=self.tally, timeout=600)
            del self.playing[created["match_id"]]
            self.finished.append((game, created, time.monotonic() - began))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def games(self) -> dict[str, dict[str, float]]:
        """Per game: its finished matches, their mean commands and mean seconds in this bench."""
        found: dict[str, dict[str, float]] = {}
        for game, created, seconds in self.finished:
            url = f"/v1/matches/{created['match_id']}/export"
            answer = await call(self.api, self.tally, "GET", url, headers=bearer(created["spectator_token"]))
            entry = found.setdefault(game, {"matches": 0, "commands": 0.0, "seconds": 0.0})
            entry["matches"] += 1
            entry["commands"] += commands_of(answer.content)
            entry["seconds"] += seconds
        for entry in found.values():
            entry["commands"] /= entry["matches"]
            entry["seconds"] /= entry["matches"]
        return dict(sorted(found.items()))


def idle_cpu(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """Each Redis's and process's CPU us per second with no match in play: the work that comes per
    second (a cluster node's gossip and cron, the sweepers' polls), not per command."""
    seconds = after["at"] - before["at"]
    found = {name: (end["cpu_s"] - before["redis"][name]["cpu_s"]) for name, end in after["redis"].items()}
    found |= {name: cpu - before["cpu_s"].get(name, 0.0) for name, cpu in after["cpu_s"].items()}
    return {name: cpu * 1e6 / seconds for name, cpu in found.items()}


async def measure(
    shards: int, queues: int, matches: int, warmup: float, seconds: float, idle: float
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as directory:
        local = Local(Path(directory), shards=shards, TAVERN_LOCAL_QUEUES=str(queues))
        try:
            await asyncio.to_thread(local.up)
            await asyncio.to_thread(local.cluster.wait_healthy)  # each primary's replica in sync: WAIT holds
            quiet = await asyncio.to_thread(snapshot, local)
            await asyncio.sleep(idle)
            idling = idle_cpu(quiet, await asyncio.to_thread(snapshot, local))
            load = Load(local.nginx, matches)
            await asyncio.sleep(warmup)
            before = await asyncio.to_thread(snapshot, local)
            unavailable = load.tally.unavailable
            await asyncio.sleep(seconds)
            after = await asyncio.to_thread(snapshot, local)
            unavailable = load.tally.unavailable - unavailable
            in_play = [match_id for match_id in load.playing]
            await load.stop()
            memory = {
                "in_play": [await asyncio.to_thread(match_memory, local, match_id) for match_id in in_play],
                "finished": [
                    await asyncio.to_thread(match_memory, local, created["match_id"]) for _, created, _ in load.finished
                ],
            }
            games = await load.games()
            await load.api.aclose()
        finally:
            await asyncio.to_thread(local.down)
    redises = after["redis"].items()
    queue_instances = sum(name.startswith("queue-") and end["role"] == "primary" for name, end in redises)
    return {
        "shards": shards,
        "queues_asked": queues,
        "queue_instances": queue_instances,  # primaries, each with a replica
        "matches": matches,
        "warmup_s": warmup,
        **deltas(before, after, idling),
        "unavailable": unavailable,  # answers 503 in the window
        "memory": {
            kind: {"matches": len(sizes), "bytes_mean": sum(sizes) / len(sizes) if sizes else 0}
            for kind, sizes in memory.items()
        },
        "games": games,
    }


async def main(options: argparse.Namespace) -> None:
    runs = []
    for shards in options.shards:
        for queues in options.queues:
            run = await measure(shards, queues, options.matches, options.warmup, options.seconds, options.idle)
            runs.append(run)
            print(table(run), end="\n\n", flush=True)
    found = {
        "machine": {"cpus": os.cpu_count(), "loadavg": os.getloadavg(), "note": options.note},
        "runs": runs,
    }
    Path(options.out).write_text(json.dumps(found, indent=1) + "\n")
    print(f"written: {options.out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--queues", type=int, nargs="+", default=[1])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds measured before any match, for idle CPU")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--out", default="capacity.json")
    parser.add_argument("--note", default="", help="what else ran on the machine meanwhile")
    asyncio.run(main(parser.parse_args()))
