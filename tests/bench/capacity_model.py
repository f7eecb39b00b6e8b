"""docs/CAPACITY.md's model: bench_capacity.py's per-command figures turned into a fleet, and its
per-instance predictions checked against the topologies measured. It rewrites the doc's generated
blocks (between ``<!-- generated:NAME -->`` and ``<!-- /generated:NAME -->``) from the bench's JSON,
so the doc's figures are the last run's:

    python -m tests.bench.capacity_model docs/capacity.json [--doc docs/CAPACITY.md]

The assumptions (a match's length with people at the table, the games' mix, how busy an instance
is planned to run, a Redis's memory) are the constants below; the doc says why each.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any

# a match's length with people, in minutes: the box's where its rulebook prints one (Hero's Tavern
# 20, Tavern Masters 20-30), else assumed
MINUTES = {"heros-tavern": 20.0, "tavern-masters": 25.0, "mercenaries": 30.0, "taverna": 30.0}
MIX = {game: 0.25 for game in MINUTES}  # the four games in equal shares
REDIS_BUDGET = 0.5  # of a Redis's one core (it runs commands on one thread): headroom for peaks and failovers
PROCESS_BUDGET = 0.6  # of a gateway's or worker's one core (one event loop each)
REDIS_MEMORY = 16 * 2**30  # planned per Redis instance (its host twice that: a fork's copy-on-write)
FLEETS = (10_000, 100_000, 1_000_000)


def by_role(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per role ("cluster primary", "queue replica"...): its instances, per accepted command the
    mean of one instance's figures, its busiest instance's CPU, and its calls by command."""
    roles: dict[str, dict[str, Any]] = {}
    for instance in run["instances"]:
        name = f"{instance['kind']} {instance['role']}"
        role = roles.setdefault(name, {"instances": 0, "sum": {}, "max_cpu_us": 0.0, "by_command": {}})
        role["instances"] += 1
        for key, value in instance["per_command"].items():
            role["sum"][key] = role["sum"].get(key, 0.0) + value
        role["max_cpu_us"] = max(role["max_cpu_us"], instance["per_command"]["cpu_us"])
        role["idle_cpu_us_per_s"] = role.get("idle_cpu_us_per_s", 0.0) + instance.get("idle_cpu_us_per_s", 0.0)
        for command, calls in instance["by_command"].items():
            role["by_command"][command] = role["by_command"].get(command, 0) + calls
    for role in roles.values():
        role["mean"] = {key: value / role["instances"] for key, value in role.pop("sum").items()}
        role["idle_cpu_us_per_s"] /= role["instances"]
    return dict(sorted(roles.items()))


def marginal_cpu_us(run: dict[str, Any], role: str) -> float:
    """One instance's CPU per command of a role less what it spends per second idle: the part that
    grows with the commands."""
    found = by_role(run)[role]
    return found["mean"]["cpu_us"] - found["idle_cpu_us_per_s"] / run["accepted"]["per_s"]


def processes(run: dict[str, Any], kind: str) -> list[float]:
    """CPU us per accepted command of each process of a kind (gateway, worker, nginx)."""
    return [process["cpu_us_per_command"] for process in run["processes"] if process["kind"] == kind]


def table(run: dict[str, Any]) -> str:
    """A run's figures as markdown: per Redis role, then per process kind, then a match's memory."""
    total = max(run["accepted"]["total"], 1)
    accepted = run["accepted"]
    lines = [
        f"**{run['shards']} shard(s), {run['queue_instances']} queue instance(s)**: {accepted['total']:.0f} "
        f"commands accepted in {run['seconds']:.1f} s ({accepted['per_s']:.0f}/s; players {accepted['players']:.0f}, "
        f"bots {accepted['bots']:.0f}), {run['matches']} matches at a time, {run['unavailable']} answers 503",
        "",
        "| Redis, per instance | instances | calls / command | CPU us / command (busiest) | idle CPU us / s "
        "| bytes in / command | bytes out / command (to replicas) | most called, per command |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, role in by_role(run).items():
        mean, count = role["mean"], role["instances"]
        ranked = sorted(role["by_command"].items(), key=lambda item: -item[1])[:4]
        top = ", ".join(f"{command.upper()} {calls / total / count:.1f}" for command, calls in ranked)
        lines.append(
            f"| {name} | {count} | {mean['calls']:.1f} | {mean['cpu_us']:.0f} ({role['max_cpu_us']:.0f}) "
            f"| {role['idle_cpu_us_per_s']:,.0f} "
            f"| {mean['bytes_in']:.0f} | {mean['bytes_out']:.0f} ({mean['repl_out']:.0f}) | {top} |"
        )
    lines += ["", "| process | CPU us / command, each | together |", "| --- | --- | --- |"]
    for kind in ("gateway", "worker", "nginx"):
        found = processes(run, kind)
        if found:
            lines.append(f"| {kind} ({len(found)}) | {sum(found) / len(found):.0f} | {sum(found):.0f} |")
    memory = run["memory"]
    lines += [
        "",
        f"A match's Redis memory: {memory['in_play']['bytes_mean'] / 1024:.1f} KiB in play "
        f"({memory['in_play']['matches']} matches cut mid-play), {memory['finished']['bytes_mean'] / 1024:.1f} KiB "
        f"finished ({memory['finished']['matches']} matches).",
    ]
    return "\n".join(lines)


def games(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per game, over every run's finished matches: matches, mean commands, and commands per minute
    of a match played by people (MINUTES)."""
    pooled: dict[str, list[float]] = {}
    for run in runs:
        for game, found in run["games"].items():
            entry = pooled.setdefault(game, [0.0, 0.0])
            entry[0] += found["matches"]
            entry[1] += found["commands"] * found["matches"]
    return {
        game: {"matches": count, "commands": total / count, "per_minute": total / count / MINUTES[game]}
        for game, (count, total) in sorted(pooled.items())
    }


def per_match_minute(runs: list[dict[str, Any]]) -> float:
    """Commands per match per minute of the mix."""
    found = games(runs)
    return sum(share * found[game]["per_minute"] for game, share in MIX.items() if game in found)


def match_bytes(runs: list[dict[str, Any]]) -> float:
    """A match's Redis memory at its largest: the mean finished match's (its whole log and views)."""
    sizes = [(run["memory"]["finished"]["bytes_mean"], run["memory"]["finished"]["matches"]) for run in runs]
    return sum(size * count for size, count in sizes) / max(sum(count for _, count in sizes), 1)


class Costs:
    """Per accepted command, from one run: the cluster's CPU (less each node's idle CPU, which is per
    second: ``idle_us``) and bytes, all primaries together (a shard serves its share), the queue's,
    and the gateways' and workers' together."""

    def __init__(self, run: dict[str, Any]) -> None:
        roles = by_role(run)
        cluster, queue = roles["cluster primary"], roles["queue primary"]
        self.run = run
        self.cluster_cpu_us = marginal_cpu_us(run, "cluster primary") * cluster["instances"]
        self.idle_us = cluster["idle_cpu_us_per_s"]  # a primary's, per second
        self.cluster_bytes = (cluster["mean"]["bytes_in"] + cluster["mean"]["bytes_out"]) * cluster["instances"]
        self.queue_cpu_us = queue["mean"]["cpu_us"] * queue["instances"]
        self.queue_instances = queue["instances"]
        self.gateway_cpu_us = sum(processes(run, "gateway"))
        self.worker_cpu_us = sum(processes(run, "worker"))


def fleet(costs: Costs, per_minute: float, bytes_per_match: float, matches: int) -> dict[str, float]:
    rate = matches * per_minute / 60
    redis_core = REDIS_BUDGET * 1e6  # CPU us one Redis may spend per second
    shards_cpu = math.ceil(rate * costs.cluster_cpu_us / (redis_core - costs.idle_us))
    shards_memory = math.ceil(matches * bytes_per_match / REDIS_MEMORY)
    shards = max(shards_cpu, shards_memory, 1)
    queues = max(math.ceil(rate * costs.queue_cpu_us / redis_core), 1)
    return {
        "matches": matches,
        "rate": rate,
        "shards_cpu": shards_cpu,
        "shards_memory": shards_memory,
        "shards": shards,
        "queues": queues,
        "gateways": max(math.ceil(rate * costs.gateway_cpu_us / (PROCESS_BUDGET * 1e6)), 2),
        "workers": max(math.ceil(rate * costs.worker_cpu_us / (PROCESS_BUDGET * 1e6)), 2),
        "memory_gib": matches * bytes_per_match * 2 / 2**30,  # primaries and their replicas
        "shard_mb_s": rate * costs.cluster_bytes / shards / 1e6,
    }


def fleet_table(runs: list[dict[str, Any]]) -> str:
    costs = Costs(max(runs, key=lambda run: run["shards"]))
    per_minute, size = per_match_minute(runs), match_bytes(runs)
    lines = [
        f"From the {costs.run['shards']}-shard run: per accepted command, the cluster's primaries "
        f"{costs.cluster_cpu_us:.0f} us of CPU together (and each {costs.idle_us:,.0f} us per second idle), "
        f"the queue's primary {costs.queue_cpu_us:.0f} us, the "
        f"gateways {costs.gateway_cpu_us:.0f} us, the workers {costs.worker_cpu_us:.0f} us; "
        f"{per_minute:.2f} commands per match per minute (the mix); {size / 1024:.0f} KiB of Redis per match.",
        "",
        "| concurrent matches | commands/s | cluster shards (for CPU, for memory) | queue instances "
        "| gateways | workers | Redis memory, with replicas | per shard, in + out |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for matches in FLEETS:
        f = fleet(costs, per_minute, size, matches)
        lines.append(
            f"| {matches:,} | {f['rate']:,.0f} | {f['shards']} ({f['shards_cpu']}, {f['shards_memory']}) "
            f"| {f['queues']} | {f['gateways']} | {f['workers']} | {f['memory_gib']:,.0f} GiB "
            f"| {f['shard_mb_s']:.1f} MB/s |"
        )
    return "\n".join(lines)


def games_table(runs: list[dict[str, Any]]) -> str:
    lines = [
        "| game | finished matches measured | commands per match | minutes with people "
        "| commands per match per minute |",
        "| --- | --- | --- | --- | --- |",
    ]
    for game, found in games(runs).items():
        lines.append(
            f"| {game} | {found['matches']:.0f} | {found['commands']:.0f} | {MINUTES[game]:.0f} "
            f"| {found['per_minute']:.2f} |"
        )
    lines.append(f"| the mix (a quarter each) | | | | {per_match_minute(runs):.2f} |")
    return "\n".join(lines)


def saturation(runs: list[dict[str, Any]]) -> str:
    """Per run, each role's busiest instance: the commands/s at which it would use its whole core
    (Redis) or process's core, and so what saturates first on that topology."""
    lines = [
        "| topology | a cluster primary | the queue primary | a gateway | a worker | first to saturate |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for run in runs:
        roles = by_role(run)
        limits = {
            "cluster primary": 1e6 / roles["cluster primary"]["max_cpu_us"],
            "queue primary": 1e6 / roles["queue primary"]["max_cpu_us"],
            # each figure is one instance's CPU per command of the whole topology: the topology's
            # command rate at which that instance would spend its whole core
            "gateways": 1e6 / max(processes(run, "gateway")),
            "workers": 1e6 / max(processes(run, "worker")),
        }
        first = min(limits, key=lambda name: limits[name])
        cells = " | ".join(f"{limits[name]:,.0f}/s" for name in limits)
        lines.append(f"| {run['shards']} shard(s), {run['queue_instances']} queue | {cells} | {first} |")
    costs, per_minute = Costs(max(runs, key=lambda run: run["shards"])), per_match_minute(runs)
    whole = 1e6 / (costs.queue_cpu_us / costs.queue_instances)  # one queue instance's core, all of it
    lines += [
        "",
        f"With {costs.queue_instances} queue instance(s) as measured, the queue's Redis caps the deployment at "
        f"{whole * costs.queue_instances:,.0f} commands/s with its core(s) all spent "
        f"({whole * costs.queue_instances * 60 / per_minute:,.0f} concurrent matches of the mix), "
        f"{whole * costs.queue_instances * REDIS_BUDGET:,.0f}/s at the planned {REDIS_BUDGET:.0%} "
        f"({whole * costs.queue_instances * REDIS_BUDGET * 60 / per_minute:,.0f} matches), whatever the shards, "
        "gateways and workers.",
    ]
    return "\n".join(lines)


def check(runs: list[dict[str, Any]]) -> str:
    """The model's per-instance predictions for each larger topology, from the smallest run's figures
    (a shard serves 1/N of the cluster's work, a queue instance 1/N of the queue's; gateways and
    workers the same per command), against what that topology measured."""
    base = min(runs, key=lambda run: (run["shards"], run["queue_instances"]))
    base_roles = by_role(base)
    lines = [
        f"Predicted from the {base['shards']}-shard, {base['queue_instances']}-queue run, measured on the "
        "others (per accepted command, one instance's mean; measured / predicted):",
        "",
        "| topology | figure | predicted | measured | ratio |",
        "| --- | --- | --- | --- | --- |",
    ]
    for run in runs:
        if run is base:
            continue
        roles = by_role(run)
        scale = base["shards"] / run["shards"]
        queues = base["queue_instances"] / run["queue_instances"]
        where = f"{run['shards']} shards, {run['queue_instances']} queues"
        for role, share in (("cluster primary", scale), ("cluster replica", scale), ("queue primary", queues)):
            for figure, unit in (("calls", ""), ("cpu_us", " us"), ("bytes_out", " B")):
                predicted = base_roles[role]["mean"][figure] * share
                measured = roles[role]["mean"][figure]
                lines.append(
                    f"| {where} | {role}: {figure.replace('_', ' ')} | {predicted:.1f}{unit} "
                    f"| {measured:.1f}{unit} | {measured / predicted if predicted else float('nan'):.2f} |"
                )
        for role in ("cluster primary", "cluster replica"):
            # the part per command from the smallest run, divided by the shards, plus this run's
            # nodes' idle CPU per second spread over its commands
            idle = by_role(run)[role]["idle_cpu_us_per_s"] / run["accepted"]["per_s"]
            predicted = marginal_cpu_us(base, role) * scale + idle
            measured = roles[role]["mean"]["cpu_us"]
            lines.append(
                f"| {where} | {role}: cpu us, idle apart | {predicted:.1f} us | {measured:.1f} us "
                f"| {measured / predicted:.2f} |"
            )
        for kind in ("gateway", "worker"):
            predicted = sum(processes(base, kind)) / len(processes(run, kind))
            measured = sum(processes(run, kind)) / len(processes(run, kind))
            lines.append(
                f"| {where} | a {kind}: CPU | {predicted:.0f} us | {measured:.0f} us "
                f"| {measured / predicted:.2f} |"
            )
    return "\n".join(lines)


def measured(found: dict[str, Any]) -> str:
    machine = found["machine"]
    head = (
        f"Measured on {machine['cpus']} cores, load average {', '.join(f'{x:.1f}' for x in machine['loadavg'])} "
        f"at the end{': ' + machine['note'] if machine['note'] else ''}."
    )
    return "\n\n".join([head, *(table(run) for run in found["runs"])])


def blocks(found: dict[str, Any]) -> dict[str, str]:
    runs = found["runs"]
    return {
        "measured": measured(found),
        "games": games_table(runs),
        "fleet": fleet_table(runs),
        "saturation": saturation(runs),
        "check": check(runs),
    }


def rewrite(doc: str, generated: dict[str, str]) -> str:
    for name, text in generated.items():
        pattern = re.compile(rf"(<!-- generated:{name} -->\n).*?(<!-- /generated:{name} -->)", re.S)
        assert pattern.search(doc), f"the doc has no generated:{name} block"
        doc = pattern.sub(lambda match, text=text: f"{match[1]}{text}\n{match[2]}", doc)
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="bench_capacity.py's output")
    parser.add_argument("--doc", default="docs/CAPACITY.md")
    options = parser.parse_args()
    found = json.loads(Path(options.json).read_text())
    doc = Path(options.doc)
    doc.write_text(rewrite(doc.read_text(), blocks(found)))
    print(f"rewritten: {doc}")


if __name__ == "__main__":
    main()
