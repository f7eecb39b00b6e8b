"""The backends fixture itself: each backend is empty at the start and takes a write and a read."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio


async def test_each_backend_starts_empty_and_keeps_a_write(backend):
    assert await backend.events.get("tavern:probe") is None
    await backend.events.set("tavern:probe", b"1")
    assert await backend.events.get("tavern:probe") == b"1"
