"""requirements.lock (`make lock`), the run-time dependencies the image installs: every one that
pyproject.toml names is pinned there within its range, each pin carries hashes, and what the tests
run with here is what the lock pins (`make test` installs from it before the test tools)."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def pinned() -> dict[str, Requirement]:
    """Each requirement of the lock, by its canonical name (continuation lines joined)."""
    text = (ROOT / "requirements.lock").read_text().replace("\\\n", " ")
    entries = [line.split("#")[0].strip() for line in text.splitlines()]
    requirements = [Requirement(entry.split(" --hash")[0]) for entry in entries if entry]
    return {canonicalize_name(requirement.name): requirement for requirement in requirements}


def pinned_version(requirement: Requirement) -> str:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==", requirement
    return specifier.version


def test_every_dependency_of_the_project_is_pinned_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lock = pinned()
    for text in [*project["dependencies"], *project["optional-dependencies"]["s3"]]:
        wanted = Requirement(text)
        assert canonicalize_name(wanted.name) in lock, f"{wanted.name} is not in requirements.lock: make lock"
        assert wanted.specifier.contains(pinned_version(lock[canonicalize_name(wanted.name)])), wanted


def test_every_pin_has_hashes() -> None:
    text = (ROOT / "requirements.lock").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        if line and not line.startswith((" ", "#")):
            assert "--hash=sha256:" in line, line


def test_the_installed_dependencies_are_the_locked_ones() -> None:
    for name, requirement in pinned().items():
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        try:
            installed = version(name)
        except PackageNotFoundError:
            installed = None
        assert installed == pinned_version(requirement), f"{name}: {installed} installed, the lock pins " \
            f"{pinned_version(requirement)} (make test reinstalls the venv from the lock)"
