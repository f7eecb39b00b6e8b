"""At start: whether the Redis servers of the settings answer, tried for ``TAVERN_START_S``.

A process that cannot reach Redis exits with one line rather than serving errors (or, before,
hanging in its start-up): its supervisor or orchestrator restarts it, with a back-off of its own.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.ops.settings import Settings

CLUSTER = "redis+cluster://"


def where(url: str) -> str:
    """The URL without its password, for a log line."""
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def _node(url: str | None) -> str | None:
    """A Redis Cluster's first seed node as a plain URL (redis+cluster://[auth@]h1:p1,h2:p2...)."""
    if url is None or not url.startswith(CLUSTER):
        return url
    auth, _, nodes = url[len(CLUSTER) :].split("/", 1)[0].rpartition("@")
    return f"redis://{auth + '@' if auth else ''}{nodes.split(',')[0]}"


def unreachable(settings: Settings) -> str | None:
    """None once every Redis of the settings answers a PING (a cluster's first seed node; the
    sentinels' master is left to redis-py); else what went wrong, in one line."""
    named: dict[str | None, str] = {_node(settings.redis_url): "REDIS_URL"}
    named.update(dict.fromkeys(settings.queue_urls, "QUEUE_URL"))
    deadline = time.monotonic() + settings.start_s
    for url, name in named.items():
        if url is None:
            continue
        while True:
            left = max(0.1, min(settings.redis_timeout_s, deadline - time.monotonic()))
            client = redis.Redis.from_url(
                url, socket_timeout=left, socket_connect_timeout=left, retry=Retry(NoBackoff(), 0)
            )
            try:
                client.ping()
                break
            except (redis.ConnectionError, redis.TimeoutError) as problem:
                if time.monotonic() >= deadline:
                    return f"cannot reach Redis at {where(url)} ({name}) in {settings.start_s:g} s: {problem}"
                time.sleep(0.25)
            except redis.RedisError as problem:  # it answers, and refuses: no use trying again
                return f"Redis at {where(url)} ({name}) refused us: {problem}"
            finally:
                client.close()
    return None
