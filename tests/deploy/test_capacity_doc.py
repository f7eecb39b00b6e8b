"""docs/CAPACITY.md's figures are the benchmark's: its generated tables are what
tests/bench/capacity_model.py makes of docs/capacity.json (bench_capacity.py's output), so a rerun
rewrites them all and none is edited by hand."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bench import capacity_model

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_capacity_doc_is_its_json_made_into_tables():
    found = json.loads((DOCS / "capacity.json").read_text())
    doc = (DOCS / "CAPACITY.md").read_text()
    generated = capacity_model.blocks(found)
    assert set(generated) == {"measured", "games", "fleet", "saturation", "check"}
    assert capacity_model.rewrite(doc, generated) == doc, "run: python -m tests.bench.capacity_model docs/capacity.json"
    assert {run["shards"] for run in found["runs"]} >= {1, 3}  # the model checks itself across shard counts
