"""Drive the hub's bare SSE endpoint as a server would: collect what it sends, disconnect at close."""

from __future__ import annotations

import asyncio
from typing import Any

from services.gateway import sse


class Probe:
    def __init__(self, hub: Any, match_id: str, seat: int | None, last_id: int = 0) -> None:
        self.sent: asyncio.Queue[dict] = asyncio.Queue()
        self.gone = asyncio.Event()
        self.task = asyncio.create_task(sse.serve(hub, match_id, seat, last_id, self._receive, self.sent.put))

    async def _receive(self) -> dict:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def start(self, timeout: float = 5) -> dict:
        """The response's start message."""
        message = await asyncio.wait_for(self.sent.get(), timeout)
        assert message["type"] == "http.response.start", message
        return message

    async def chunk(self, timeout: float = 5) -> bytes:
        """The next piece of the body."""
        while True:
            message = await asyncio.wait_for(self.sent.get(), timeout)
            if message["type"] == "http.response.body":
                return message["body"]

    async def close(self) -> None:
        """The client goes away; the endpoint must end."""
        self.gone.set()
        await asyncio.wait_for(self.task, 5)
