"""domain/ and projections/ stay pure: the standard library (less I/O, clocks and randomness) and msgspec;
projections/ also cryptography's Ed25519, whose signing and checking with a given key are pure
computations (the export's signed head: projections/receipts.py; keys are made and kept in services/),
and Babel's gettext catalogs, looked up by message id (the texts in a language: projections/i18n/; the
catalogs are package data, read once like the seeds)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_THIRD_PARTY = {"msgspec", "domain", "projections"}
ALSO_IN_PROJECTIONS = {"cryptography", "babel"}
FORBIDDEN_STDLIB = {
    "asyncio", "http", "multiprocessing", "random", "secrets", "select", "selectors", "socket",
    "sqlite3", "ssl", "subprocess", "threading", "time", "urllib", "uuid",
}
FILES = sorted(p for pkg in ("domain", "projections") for p in (ROOT / pkg).rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_imports(path):
    roots = imported_roots(path)
    third_party = {r for r in roots if r not in sys.stdlib_module_names and r != "__future__"}
    allowed = ALLOWED_THIRD_PARTY | (ALSO_IN_PROJECTIONS if path.is_relative_to(ROOT / "projections") else set())
    assert third_party <= allowed, f"{path} imports {third_party - allowed}"
    assert not roots & FORBIDDEN_STDLIB, f"{path} imports {roots & FORBIDDEN_STDLIB}"


def test_the_check_catches_an_impure_module(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import redis\nfrom time import monotonic\n")
    assert imported_roots(bad) == {"redis", "time"}
