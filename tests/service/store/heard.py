"""What a gateway's subscription (services/store/notices.py) hears, as the tests wait for it."""

from __future__ import annotations

import asyncio

from services.store.notices import Heard, Subscription


async def next_heard(heard: Subscription, timeout_s: float) -> list[Heard]:
    """What is heard next (all that came together), or nothing within ``timeout_s``."""
    try:
        async with asyncio.timeout(timeout_s):
            return await heard.batch()
    except TimeoutError:
        return []


async def until_quiet(heard: Subscription, quiet_s: float) -> list[Heard]:
    """Everything heard until nothing more comes for ``quiet_s``."""
    found: list[Heard] = []
    while batch := await next_heard(heard, quiet_s):
        found += batch
    return found
