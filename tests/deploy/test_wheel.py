"""The wheel as a packager builds it and an operator installs it, away from the checkout: built from
the files the image copies (deploy/Dockerfile's COPY lines), installed as the image installs it (the
dependencies from requirements.lock, hash-checked, then the wheel alone) into a fresh venv in a
temporary folder, and run from there with PYTHONPATH unset and no setting of the project's: `tavern
simulate` of every game, `tavern serve` (the embedded default) with a match of every game played to
the end through the HTTP API, and `tavern audit` of each one's export."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.service.client import bearer, create, play_to_end
from tests.service.conftest import free_port, wait_healthy
from tests.service.durable_play import GAMES

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
STEP_S = 300  # a bound on each build and install step (pip's cache makes them seconds)

# the whole module on one xdist worker: the wheel and its venv are made once
pytestmark = pytest.mark.xdist_group("wheel")


@dataclass(frozen=True)
class Installed:
    bin: Path  # the venv's scripts
    away: Path  # a folder outside the checkout, the working directory of every command
    env: dict[str, str]  # the caller's environment less PYTHONPATH and the project's settings

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=self.away, env=self.env, capture_output=True, text=True, timeout=timeout)


def copied_sources() -> list[str]:
    """What deploy/Dockerfile copies from the build context (COPY lines without --from)."""
    sources: list[str] = []
    for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(word.startswith("--from") for word in words):
            sources += [word for word in words[1:-1] if not word.startswith("--")]
    return sources


def operator_env() -> dict[str, str]:
    project = ("TAVERN_", "REDIS_", "QUEUE_", "LOG_")
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith(project)}


def step(*args: str | Path, cwd: Path) -> None:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=STEP_S)
    assert done.returncode == 0, f"{' '.join(map(str, args))}\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    top = tmp_path_factory.mktemp("wheel")
    assert ROOT not in top.parents, "the temporary folder is inside the checkout"
    source, dist, venv, away = top / "source", top / "dist", top / "venv", top / "away"
    away.mkdir()
    sources = copied_sources()
    assert {"pyproject.toml", "seeds", "services"} <= set(sources), sources
    for name in sources:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    step(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", dist, source, cwd=away)
    (wheel,) = dist.glob("tavern-*.whl")
    step(sys.executable, "-m", "venv", venv, cwd=away)
    pip = venv / "bin" / "pip"
    step(pip, "install", "--quiet", "--require-hashes", "--no-deps", "-r", LOCK, cwd=away)
    step(pip, "install", "--quiet", "--no-deps", wheel, cwd=away)
    step(pip, "check", cwd=away)  # the lock holds every dependency the wheel names
    yield Installed(venv / "bin", away, operator_env())


def test_the_code_that_runs_is_the_wheels(installed: Installed) -> None:
    done = installed.run(str(installed.bin / "python"), "-c", "import domain, seeds, services; "
                         "print(domain.__file__, seeds.__file__, services.__file__)")
    assert done.returncode == 0, done.stderr
    site = installed.bin.parent / "lib"
    assert all(site in Path(path).parents for path in done.stdout.split()), done.stdout


def test_the_compiled_catalogs_are_in_the_wheel(installed: Installed) -> None:
    """projections/i18n's .mo files are package data: without them French would quietly be English."""
    done = installed.run(str(installed.bin / "python"), "-c", "from projections.i18n import texts; "
                         "print(texts('fr')._('Gold'), texts('fr').n_('{count} coin', '{count} coins', 2))")
    assert done.returncode == 0 and done.stdout.split() == ["Or", "2", "pièces"], done.stdout + done.stderr


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_simulate_every_game(installed: Installed, game: str, seats: int) -> None:
    done = installed.run(str(installed.bin / "tavern"), "simulate", game, "--seats", str(seats), "--matches", "3")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["summary"] and summary["game"] == game and summary["matches"] == 3 and summary["events"] > 0


async def play_and_export(base: str, away: Path) -> list[Path]:
    """A match of every game, seat 0 played through the API and the others by the service's bots,
    each one's export written to a file: the files."""
    exports = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        page = await api.get("/")  # the web client is in the wheel too
        assert page.status_code == 200 and "<script" in page.text, page.text
        for number, (game, seats) in enumerate(GAMES):
            created = await create(api, seats=seats, bots=list(range(1, seats)), game=game)
            final = await play_to_end(api, created, [0], seed=number, timeout=60)
            assert final["status"] == "finished" and final["result"]
            answer = await api.get(f"/v1/matches/{created['match_id']}/export",
                                   headers=bearer(created["spectator_token"]))
            assert answer.status_code == 200, answer.text
            exports.append(away / f"{game}.jsonl")
            exports[-1].write_bytes(answer.content)
    return exports


def test_serve_plays_every_game_to_the_end_and_audit_checks_the_exports(installed: Installed) -> None:
    port = free_port()
    with open(installed.away / "serve.log", "wb") as log:
        gateway = subprocess.Popen([str(installed.bin / "tavern"), "serve", "--port", str(port)],
                                   cwd=installed.away, env=installed.env, stdout=log, stderr=log)
        try:
            wait_healthy(f"http://127.0.0.1:{port}", gateway)
            exports = asyncio.run(asyncio.wait_for(play_and_export(f"http://127.0.0.1:{port}", installed.away), 240))
        finally:
            gateway.kill()
            gateway.wait(10)
    for export in exports:
        audited = installed.run(str(installed.bin / "tavern"), "audit", export.name)
        assert audited.returncode == 0, f"{export.name}: {audited.stdout}{audited.stderr}"
