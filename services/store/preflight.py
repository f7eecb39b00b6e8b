"""At start, once Redis answers (services/store/reach.py): settings that parse but name the wrong
thing, refused in one line before the process serves anything.

- ``REDIS_URL=redis://<a node of a Redis Cluster>``: a plain client of one node would start, say
  it is ready, then answer 500s (``MOVED``) for every key of another node's slots.
- ``QUEUE_URL`` naming a cluster node: RQ and the projector's bookkeeping need a plain Redis.
- an archive this process cannot write to (a directory) or reach (a bucket): each match it would
  archive would fail, once an hour, in a worker's log.
"""

from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.ops import logs
from services.ops.settings import Settings
from services.store import archive
from services.store.reach import where

log = logs.get("tavern.preflight")


def refusal(settings: Settings) -> str | None:
    """None if the settings name what they should, else why not, in one line."""
    for name, url, fix in (
        ("REDIS_URL", settings.redis_url, "name the cluster as redis+cluster://host:port[,host:port...] "
                                          "and the queue's plain Redis in QUEUE_URL"),
        *(("QUEUE_URL", url, "the queue (RQ, the projector's bookkeeping) needs a plain Redis")
          for url in settings.queue_urls),
    ):
        if url is not None and not url.startswith("redis+cluster://") and _cluster_enabled(url, settings):
            return f"{name} ({where(url)}) is a node of a Redis Cluster: {fix}"
    return _archive_refusal(settings)


def _cluster_enabled(url: str, settings: Settings) -> bool:
    timeout = settings.redis_timeout_s
    client = redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
    try:
        return bool(client.info("cluster").get("cluster_enabled"))
    finally:
        client.close()


def _archive_refusal(settings: Settings) -> str | None:
    try:
        named = archive.opened(
            settings.archive_dir, settings.archive_s3_bucket, settings.archive_s3_endpoint, settings.archive_s3_prefix
        )
    except ImportError:
        return "TAVERN_ARCHIVE_S3_BUCKET needs boto3: install tavern[s3]"
    if named is None:
        if not settings.embedded:
            log.warning("archive_off", detail="no TAVERN_ARCHIVE_DIR or TAVERN_ARCHIVE_S3_BUCKET: finished "
                        "matches stay in Redis, idle ones are not ended (deploy/README.md)")
        return None
    return named.problem()
