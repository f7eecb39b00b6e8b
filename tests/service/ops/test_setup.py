"""The README's two commands: `make test` checks the system packages the tests use (installing
them where it may, else one line saying what to run), `make serve` takes HOST= and PORT=."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from tests.service.conftest import ROOT, free_port, service_env

PROGRAMS = (
    "redis-server", "redis-sentinel", "redis-cli", "chromium", "nginx", "promtool", "npm",
    "podman", "runc", "mmdebstrap",
)


def deps(path: Path) -> subprocess.CompletedProcess:
    script = ROOT / "tests" / "system-deps.sh"
    return subprocess.run(["/bin/bash", script], env={"PATH": str(path)}, capture_output=True, text=True, timeout=30)


def fake(directory: Path, *names: str) -> None:
    for name in names:
        (directory / name).write_text("#!/bin/sh\n")
        (directory / name).chmod(0o755)


def test_nothing_to_do_when_everything_is_there(tmp_path):
    fake(tmp_path, *PROGRAMS)
    done = deps(tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_without_a_package_manager_one_line_says_what_to_run(tmp_path):
    fake(tmp_path, *(name for name in PROGRAMS if name != "chromium"))  # no chromium, no apt-get
    done = deps(tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        "make test needs chromium: install them (sudo apt-get install -y chromium), then run make test again\n"
    )


def test_make_serve_takes_host_and_port_and_says_serving_once_it_listens():
    port = free_port()
    venv = Path(sys.executable).parent.parent
    process = subprocess.Popen(
        ["make", "-s", "serve", f"PORT={port}", "HOST=127.0.0.1", f"VENV={venv}"],
        cwd=ROOT,
        env=service_env(None),
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # make and the server it starts, stopped together
    )
    try:
        line = process.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith(f"tavern: serving on http://127.0.0.1:{port} ")
        assert httpx.get(f"http://127.0.0.1:{port}/livez", timeout=5).status_code == 200
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(15)
