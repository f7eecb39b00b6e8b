"""Clients generated from /openapi.json by standard generators: openapi-python-client (PyPI)
generates a Python client that creates a match and plays it to the end against a live gateway by
sending elements of `legal`; openapi-typescript (npm) generates TypeScript types that tsc accepts."""

from __future__ import annotations

import importlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

HERE = Path(__file__).parent
BIN = Path(sys.executable).parent


def generate_python(document: Path, into: Path) -> None:
    generate = [BIN / "openapi-python-client", "generate", "--path", document, "--meta", "none"]
    done = subprocess.run(
        [*generate, "--output-path", into / "tavern_client"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=into,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # the one part it leaves out: the export's JSON Lines, a media type it does not read
    assert "Unable to" not in done.stdout and "will not be generated" not in done.stdout, done.stdout


def test_a_generated_python_client_plays_a_match_to_the_end(gateway, tmp_path, monkeypatch):
    document = tmp_path / "openapi.json"
    document.write_bytes(httpx.get(f"{gateway}/openapi.json").content)
    generate_python(document, tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    client = importlib.import_module("tavern_client")
    create_match = importlib.import_module("tavern_client.api.default.create_match")
    get_view = importlib.import_module("tavern_client.api.default.get_view")
    send_command = importlib.import_module("tavern_client.api.default.send_command")
    models = importlib.import_module("tavern_client.models")

    body = models.HerosTavernCreateMatch(game=models.HerosTavernCreateMatchGame("heros-tavern"), seats=3, bots=[2])
    created = create_match.sync(client=client.Client(base_url=gateway), body=body)
    assert isinstance(created, models.MatchCreated), created
    seats = [client.AuthenticatedClient(base_url=gateway, token=seat.token) for seat in created.seats[:2]]
    rng, heard, sent = random.Random(5), 0, 0
    for _ in range(5000):
        for seat in seats:
            view = get_view.sync(created.match_id, client=seat)
            assert isinstance(view, models.HerosTavernViewEnvelope), view
            if view.status.value == "finished":
                assert view.result.standings and sent > 20
                return
            if view.version < heard or not view.legal:
                continue
            answer = send_command.sync(created.match_id, client=seat, body=rng.choice(view.legal))
            if isinstance(answer, models.HerosTavernAccepted):
                heard, sent = max(heard, answer.version), sent + 1
            else:
                assert isinstance(answer, models.ErrorBody) and answer.error.code, answer  # a bot acted first
    raise AssertionError("the match did not finish")


def test_openapi_typescript_generates_types_that_tsc_accepts(gateway, tmp_path):
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is missing: install nodejs and npm (.ci/run does)")
    for name in ("package.json", "package-lock.json", "check.ts"):
        shutil.copy(HERE / "typescript" / name, tmp_path / name)
    installed = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=tmp_path, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    (tmp_path / "openapi.json").write_bytes(httpx.get(f"{gateway}/openapi.json").content)
    bins = tmp_path / "node_modules" / ".bin"
    generate = [bins / "openapi-typescript", "openapi.json", "-o", "api.d.ts"]
    generated = subprocess.run(generate, cwd=tmp_path, capture_output=True, text=True)
    assert generated.returncode == 0 and "⚠" not in generated.stdout + generated.stderr, generated.stderr
    checked = subprocess.run(
        [str(bins / "tsc"), "--noEmit", "--strict", "check.ts"], cwd=tmp_path, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads((tmp_path / "package.json").read_text())["devDependencies"]
