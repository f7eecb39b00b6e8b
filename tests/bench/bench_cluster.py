"""The service on a Redis Cluster against a single Redis, in one run (printed, not asserted).

    python -m tests.bench.bench_cluster --matches 10 50 --seconds 8 --rounds 2

Starts three setups side by side, each one gateway and one worker: ``single`` (one redis-server,
queue included), ``cluster`` (a local 6-node cluster, tests/service/redis_cluster.py, the queue on
a plain Redis, WAIT for 1 replica: the cluster default) and ``cluster-nowait``
(TAVERN_WAIT_REPLICAS=0). Then, per round and per --matches, measures each in turn with
bench_service.py's closed loop (all four seats clients, SSE open), so the machine's drift falls on
all three alike. Only the measured setup has matches; the others idle. The cluster's six nodes
and the single Redis share the same cores as everything else: this measures what the cluster's
client path costs, not what more machines would give.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from tests.bench.bench_service import API_KEY, CREATES_OFF, measure, run, source_addresses, start, wait_healthy
from tests.service.conftest import free_port, service_env, start_redis
from tests.service.redis_cluster import Cluster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    source_addresses(64)  # as bench_service.py: the load from many addresses, each within its limits
    with tempfile.TemporaryDirectory() as directory:
        workdir = Path(directory)
        log = open(workdir / "services.log", "wb")  # noqa: SIM115 (closed below)
        cluster = Cluster(workdir).start()
        single, single_url = start_redis(workdir)
        queue, queue_url = start_redis(workdir)
        bench = {"TAVERN_BENCH": "1", "TAVERN_API_KEYS": API_KEY, **CREATES_OFF}  # bench_service.py's
        setups = {
            "single": service_env(single_url, **bench),
            "cluster": service_env(cluster.url, QUEUE_URL=queue_url, TAVERN_QUEUE="wait", **bench),
            "cluster-nowait": service_env(
                cluster.url, QUEUE_URL=queue_url, TAVERN_QUEUE="nowait", TAVERN_WAIT_REPLICAS="0", **bench
            ),
        }
        processes: list[subprocess.Popen] = []
        ports: dict[str, int] = {}
        # CPU per accepted command of each process a setup uses (the figure noise moves least)
        nodes = {f"node-{i}": process.pid for i, process in enumerate(cluster.processes.values())}
        pids: dict[str, dict[str, int]] = {
            "single": {"redis": single.pid},
            "cluster": {**nodes, "queue": queue.pid},
            "cluster-nowait": {**nodes, "queue": queue.pid},
        }
        try:
            for name, env in setups.items():
                ports[name] = free_port()
                processes.append(start(["serve", "--port", str(ports[name])], env, log))
                processes.append(start(["worker"], env, log))
                pids[name] |= {"gateway": processes[-2].pid, "worker": processes[-1].pid}
            for port in ports.values():
                run(wait_healthy(port))
            for round_ in range(options.rounds):
                for matches in options.matches:
                    for name, port in ports.items():
                        figures = measure([port], matches, options.seconds, options.warmup, pids[name], 0, 1)
                        print(json.dumps({"round": round_, "setup": name} | run(figures)), flush=True)
        finally:
            for process in processes:
                process.kill()
                process.wait(10)
            log.close()
            for redis_process in (single, queue):
                redis_process.kill()
                redis_process.wait(10)
            cluster.stop()


if __name__ == "__main__":
    main()
