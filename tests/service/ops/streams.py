"""An SSE stream read from outside as it goes: its frames with the time each arrived."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from tests.service.client import bearer, sse_frames


class Frames:
    """An SSE stream read in a task: every frame (its fields), with the time it arrived."""

    def __init__(self, api: httpx.AsyncClient, url: str, token: str) -> None:
        self.frames: list[tuple[float, dict[str, str]]] = []
        self.ended = False
        self.opened = asyncio.Event()
        self.task = asyncio.create_task(self._read(api, url, token))

    async def _read(self, api: httpx.AsyncClient, url: str, token: str) -> None:
        async with api.stream("GET", url, headers=bearer(token), timeout=None) as response:
            assert response.status_code == 200
            self.opened.set()
            async for frame in sse_frames(response):
                self.frames.append((time.monotonic(), frame))
        self.ended = True

    async def version_at(self, version: int, timeout: float) -> float:
        """When a view of at least ``version`` arrived (waiting up to ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, frame in self.frames:
                if frame.get("event") == "view" and json.loads(frame["data"])["version"] >= version:
                    return at
            await asyncio.sleep(0.005)
        raise AssertionError(f"no view of version {version} in {timeout} s")
