"""With PROMETHEUS_MULTIPROC_DIR, the processes behind one port add up in any one's scrape."""

from __future__ import annotations

import os
import subprocess
import sys

from prometheus_client.parser import text_string_to_metric_families

from tests.service.conftest import ROOT

COUNT = "from services.ops import metrics; metrics.CREATED.labels('taverna').inc(); metrics.STREAMS.inc()"
SCRAPE = "from services.ops import metrics; import sys; sys.stdout.write(metrics.Metrics().text().decode())"


def run(code: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_processes_values_add_up(tmp_path):
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    for _ in range(2):
        run(COUNT, env)
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(run(SCRAPE, env))
        for sample in family.samples
    }
    assert samples["tavern_matches_created_total", (("game", "taverna"),)] == 2
    assert any(name == "process_cpu_seconds_total" for name, _ in samples)  # the scraping process's own
