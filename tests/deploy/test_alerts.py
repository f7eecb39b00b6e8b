"""deploy/alerts.yml checked by Prometheus's promtool (syntax, and its rules firing on made-up series:
alerts_test.yml), and every Tavern metric the rules and the Grafana dashboard name is one we export."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client import REGISTRY

from services.ops import metrics

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("promtool is missing: apt-get install prometheus (.ci/run does)")
    return found


def test_promtool_checks_the_rules_and_their_tests():
    checked = subprocess.run([promtool(), "check", "rules", str(DEPLOY / "alerts.yml")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = subprocess.run(
        [promtool(), "test", "rules", "alerts_test.yml"], cwd=Path(__file__).parent, capture_output=True, text=True
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_promtool_checks_prometheus_yml_and_the_rules_it_loads():
    checked = subprocess.run(
        [promtool(), "check", "config", str(DEPLOY / "prometheus.yml")], capture_output=True, text=True
    )
    assert checked.returncode == 0 and "1 rule files found" in checked.stdout, checked.stdout + checked.stderr
    jobs = {job["job_name"] for job in yaml.safe_load((DEPLOY / "prometheus.yml").read_text())["scrape_configs"]}
    # the alert rules' job labels are the scrape jobs'
    assert set(re.findall(r'job="([a-z-]+)"', (DEPLOY / "alerts.yml").read_text())) <= jobs



def test_every_composed_process_that_exports_metrics_is_scraped():
    """Each gateway, worker and Redis in compose.yaml (sentinels and the init steps aside) is a
    target of prometheus.yml: a queue instance added to compose and not here went unwatched."""
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    targets = {target for job in yaml.safe_load((DEPLOY / "prometheus.yml").read_text())["scrape_configs"]
               for config in job["static_configs"] for target in config["targets"]}
    for name, service in services.items():
        command = service.get("command", [])
        if name.startswith("gateway-"):
            assert f"{name}:8000" in targets
        elif name.startswith("worker-"):
            assert f"{name}:{service['environment']['TAVERN_WORKER_METRICS_PORT']}" in targets
        elif command[:1] == ["redis-server"]:
            assert f"redis://{name}:6379" in targets, name

def exported() -> set[str]:
    metrics.prime(["heros-tavern"])
    names = set()
    for family in REGISTRY.collect():
        names |= {sample.name for sample in family.samples} | {family.name}
        if family.type == "counter":  # a labelled counter with no series yet has no sample to name it
            names.add(f"{family.name}_total")
    return names


def test_the_rules_and_the_dashboard_name_only_exported_metrics():
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    named = set(re.findall(r"\btavern_[a-z_]+", (DEPLOY / "alerts.yml").read_text() + "\n".join(exprs)))
    histograms = {name.removesuffix("_bucket") for name in named if name.endswith("_bucket")}
    assert named - exported() - {name + "_bucket" for name in histograms} == set()
    assert histograms <= exported()
