"""The links to the queue's Redis of a backend as a process has them (services/store/connections.py):
on a real Redis a Wire of its own, on fakeredis the client's pool."""

from __future__ import annotations

from services.store import resp
from services.store.wire import Wire
from tests.service.backends import Backend


def queue_link(backend: Backend) -> resp.Link:
    url = backend.queue_url or backend.url  # beside a cluster, the queue's plain Redis
    return Wire(url) if url else resp.Pooled(backend.queue)
