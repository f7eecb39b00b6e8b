"""npm packages a test runs with node, each folder pinned by its package-lock.json: `make test`
installs them first (`npm ci`); run alone, a test installs its folder itself, one worker at a time."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path


def npm() -> str:
    found = shutil.which("npm")
    assert found is not None, (
        "npm is missing: install nodejs and npm (tests/system-deps.sh installs npm, which brings node)"
    )
    return found


def installed(folder: Path) -> Path:
    """``folder``'s node_modules/.bin, after `npm ci` there unless its lock is installed already."""
    marker = folder / "node_modules" / ".package-lock.json"  # npm writes it last, from the lock it installed
    with open(folder / "package-lock.json") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two xdist workers must not install into one folder at once
        if not marker.exists() or marker.stat().st_mtime < (folder / "package-lock.json").stat().st_mtime:
            done = subprocess.run(
                [npm(), "ci", "--no-audit", "--no-fund"], cwd=folder, capture_output=True, text=True, timeout=600
            )
            assert done.returncode == 0, done.stderr
    return folder / "node_modules" / ".bin"


def node(*args: str | Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    found = shutil.which("node")
    assert found is not None, "node is missing: install nodejs (tests/system-deps.sh installs npm, which brings node)"
    return subprocess.run([found, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout)
