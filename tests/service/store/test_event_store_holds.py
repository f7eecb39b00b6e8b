"""EventStore.holds, on each backend: whether Redis still holds a match's log (history.py asks it
before it looks in the archive)."""

from __future__ import annotations

import secrets

import pytest

from services.store import keys
from services.store.event_store import EventStore

pytestmark = pytest.mark.anyio


async def test_holds_a_log_until_it_is_deleted(backend):
    store, match_id = EventStore(backend.events, 60), secrets.token_hex(8)
    assert await store.holds(match_id) is False
    await backend.events.xadd(keys.log(match_id), {"b": b"{}", "h": b"0"}, maxlen=10)
    assert await store.holds(match_id) is True
    await backend.events.delete(keys.log(match_id))
    assert await store.holds(match_id) is False
