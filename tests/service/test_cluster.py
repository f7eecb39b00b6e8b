"""Cluster mode's settings: what a process refuses before it connects anywhere. (The service on a
real Redis Cluster, its failover and resharding, and the queue on Sentinel are played through
deploy/local.sh's topology: tests/deploy/test_local.py.)"""

from __future__ import annotations

import subprocess
import sys

from tests.service.conftest import ROOT, service_env


def test_cluster_mode_needs_a_queue_url():
    env = service_env("redis+cluster://127.0.0.1:1")  # refused before any connection
    command = [sys.executable, "-m", "services.cli", "worker"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=60)
    assert done.returncode != 0 and b"QUEUE_URL" in done.stderr
