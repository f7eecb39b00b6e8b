"""A live gateway for the contract tests that run outside clients against it."""

from __future__ import annotations

import pytest

from tests.service.conftest import free_port, service_env, wait_healthy


@pytest.fixture
def gateway(processes) -> str:
    """`tavern serve` on the embedded Redis, on a free port: its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    wait_healthy(base, processes(["serve", "--port", str(port)], service_env(None)))
    return base
