"""The service's gateway fixtures (tests/service/conftest.py), here on fakeredis only."""

from __future__ import annotations

import uuid

import pytest

from services.ops.settings import Settings
from tests.service.conftest import anyio_backend, api, app, embedded_worker  # noqa: F401 (fixtures used by name)


@pytest.fixture
def settings() -> Settings:
    return Settings(redis_url=None, queue_url=None, queue_name=f"audit-{uuid.uuid4().hex[:8]}", lease_s=1.0)
