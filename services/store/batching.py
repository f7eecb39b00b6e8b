"""Group commit: calls made by concurrent coroutines of one event loop, sent together.

While one batch is in flight, the calls that arrive wait and leave together in the next one. A
busy gateway thus pays one Redis round trip (and one write, services/store/resp.py) for many commands,
and an idle one pays nothing extra: the first call leaves on the next turn of the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batched(Generic[T, R]):
    def __init__(self, send: Callable[[list[T]], Awaitable[list[R]]]) -> None:
        self._send = send  # the answers in the order of the items
        self._pending: list[tuple[T, asyncio.Future[R]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def __call__(self, item: T) -> R:
        loop = asyncio.get_running_loop()
        if self._sender is not None and self._sender.get_loop() is not loop:
            # a loop that stopped left its sender and callers behind: they never resume
            self._sender, self._pending = None, [(i, f) for i, f in self._pending if f.get_loop() is loop]
        future: asyncio.Future[R] = loop.create_future()
        self._pending.append((item, future))
        if self._sender is None:
            self._sender = loop.create_task(self._send_all())
        return await future

    async def _send_all(self) -> None:
        batch: list[tuple[T, asyncio.Future[R]]] = []
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    answers = await self._send([item for item, _ in batch])
                except Exception as problem:
                    for _, future in batch:
                        if not future.done():  # a caller that was cancelled no longer listens
                            future.set_exception(problem)
                    continue
                for (_, future), answer in zip(batch, answers, strict=True):
                    if not future.done():
                        future.set_result(answer)
        finally:
            self._sender = None
            left, self._pending = batch + self._pending, []
            for _, future in left:  # only when cancelled (the loop stops): nobody waits forever
                future.cancel()
