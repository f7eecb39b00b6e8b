"""A projection step's write: every moved match's views with their checkpoint and its notice to
the gateways that stream it (event_store.py, notices.py), and the matches still played listed by
their newest event (lifecycle.py), on the same Redis (or cluster): in one round trip."""

from __future__ import annotations

from collections.abc import Sequence

from services.store.event_store import EventStore, ViewsAt
from services.store.lifecycle import Lifecycle, Played


class ViewWrites:
    def __init__(self, store: EventStore, lifecycle: Lifecycle) -> None:
        self.store = store
        self.lifecycle = lifecycle

    async def write(self, written: Sequence[ViewsAt], notices: Sequence[bytes], played: Sequence[Played]) -> None:
        """``notices``: each match's of ``written``, in order (notices.encode)."""
        await self.store.write_views(list(written), list(notices), self.lifecycle.listing(played))
