"""docs/API.md in step with the service: every operation of /openapi.json, every error code the
gateway answers, the games' refusal codes as the rules have them; and its two example clients,
Python and node, each play a match to the end against a live gateway (`tavern serve`)."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from services.gateway.openapi import document
from tests.service.conftest import ROOT
from tests.service.contract import error_codes

DOC = (ROOT / "docs" / "API.md").read_text()


def test_every_operation_of_the_openapi_document_is_in_the_reference():
    declared = json.loads(msgspec.json.encode(document()))["paths"]
    for path, operations in declared.items():
        for method in operations:
            assert f"`{method.upper()} {path}" in DOC, f"{method.upper()} {path} is not in docs/API.md"


def test_every_code_the_services_answer_is_in_the_reference():
    # each ApiError / Refused / RulesError / error() the services raise with a literal code
    found = set()
    for path in (ROOT / "services").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                position = {"ApiError": 1, "Refused": 1, "RulesError": 0, "error": 0}.get(name)
                if name == "error" and not isinstance(node.func, ast.Name):
                    continue  # log.error("event", ...): a log line's event, no code answered
                if position is not None and len(node.args) > position:
                    code = node.args[position]
                    if isinstance(code, ast.Constant) and isinstance(code.value, str):
                        found.add(code.value)
    assert len(found) > 10
    missing = sorted(code for code in found if f"`{code}`" not in DOC)
    assert not missing, f"codes missing from docs/API.md: {missing}"


def test_the_games_refusal_codes_are_generated_from_the_rules():
    assert error_codes.table() in DOC, "run: python -m tests.service.contract.error_codes (and paste into docs/API.md)"
    assert re.search(r"\| taverna \| `\w+` \|", DOC) and re.search(r"\| mercenaries \| `\w+` \|", DOC)


def test_the_refusal_tables_examples_are_messages_not_source():
    every = error_codes.codes()
    examples = [message for codes in every.values() for message in codes.values()]
    assert len(examples) > 100
    source = [m for m in examples if re.search(r"\{[^}]*\}|^f['\"]|!r\b|\.join\(", m)]
    assert not source, source
    assert error_codes.EXAMPLES.keys() <= {(where, code) for where, codes in every.items() for code in codes}


def test_an_example_that_no_longer_fits_its_message_is_refused():
    import ast

    built = ast.parse("f'{card} costs {cost}'", mode="eval").body
    assert error_codes.pattern(built).fullmatch("ht-food-12 costs 3")
    assert not error_codes.pattern(built).fullmatch("ht-food-12 is 3 Gold")


@pytest.mark.parametrize(
    ("command", "game"),
    [([sys.executable, "docs/examples/client.py"], "heros-tavern"), (["node", "docs/examples/client.mjs"], "taverna")],
)
def test_the_example_clients_play_a_match_to_the_end(gateway, command, game):
    if command[0] == "node" and shutil.which("node") is None:
        pytest.fail("node is missing: install nodejs (.ci/run does)")
    done = subprocess.run([*command, gateway, game], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.strip().splitlines()[-1])
    assert final["version"] > 20 and final["result"]["standings"]
    assert Path(ROOT / command[1]).read_text().count("\n") <= 60  # "in 50 lines", give or take comments
