"""Settings from the environment: one table (``VARIABLES``) says each variable's name, default and
meaning; ``from_env`` reads and checks them, and ``tavern --help`` prints the same table."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.ops import limits, signing, vapid
from services.ops.limits import Limits, limits_from_env


class BadSetting(ValueError):
    """A variable of the environment with a value the service cannot run on."""


def _url(text: str) -> str | None:
    if not text:
        return None
    if not text.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("a Redis URL (redis://, rediss:// or unix://)")
    return text


def _urls(text: str) -> str | None:
    """QUEUE_URL: one Redis URL, or several comma-separated (one queue instance each)."""
    for part in text.split(",") if text else ():
        _url(part.strip())
    return ",".join(part.strip() for part in text.split(",")) or None


def _words(text: str) -> str:
    """QUEUE_MASTER: one master name, or several comma-separated (one queue instance each)."""
    return ",".join(_word(part.strip()) for part in text.split(","))


def _events_url(text: str) -> str | None:
    """REDIS_URL may also name a Redis Cluster: redis+cluster://host:port[,host:port...]."""
    return text if text.startswith("redis+cluster://") else _url(text)


def _addresses(text: str) -> tuple[tuple[str, int], ...]:
    """QUEUE_SENTINELS: host:port[,host:port...]."""
    found = []
    for part in filter(None, (part.strip() for part in text.split(","))):
        host, _, port = part.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"host:port pairs, comma-separated ({part!r} is not)")
        found.append((host, int(port)))
    return tuple(found)


def _origins(text: str) -> tuple[str, ...]:
    """TAVERN_CORS_ORIGINS: scheme://host[:port], comma-separated, or * (any origin)."""
    found = tuple(filter(None, (part.strip().rstrip("/") for part in text.split(","))))
    for origin in found:
        scheme, _, rest = origin.partition("://")
        if origin != "*" and (scheme not in ("http", "https") or not rest or "/" in rest):
            raise ValueError(f"origins (scheme://host[:port]) comma-separated, or * ({origin!r} is not)")
    return found


def _networks(text: str) -> tuple[str, ...]:
    """TAVERN_NOTIFY_NETWORKS: CIDRs (10.0.0.0/8, fd00::/8, 127.0.0.1/32), comma-separated."""
    found = tuple(filter(None, (part.strip() for part in text.split(","))))
    for cidr in found:
        try:
            ipaddress.ip_network(cidr, strict=False)
        except ValueError:
            raise ValueError(f"networks (CIDRs) comma-separated ({cidr!r} is not one)") from None
    return found


def _replicas(text: str) -> int | None:
    if not text:
        return None
    value = int(text)
    if value < 0:
        raise ValueError("a whole number of replicas, 0 or more")
    return value


def _word(text: str) -> str:
    if not text or any(c.isspace() for c in text):
        raise ValueError("a non-empty name without spaces")
    return text


def _level(text: str) -> str:
    if text.lower() not in ("debug", "info", "warning", "error"):
        raise ValueError("one of debug, info, warning, error")
    return text.lower()


def _number(kind: Callable[[str], Any], ok: Callable[[Any], bool], what: str) -> Callable[[str], Any]:
    """A parser of a number of ``kind`` that ``ok`` accepts, else ValueError saying ``what`` it must be."""

    def parse(text: str) -> Any:
        value = kind(text)
        if not ok(value):
            raise ValueError(what)
        return value

    return parse


_seconds = _number(float, lambda value: value > 0, "a number of seconds above 0")
_whole_seconds = _number(int, lambda value: value >= 1, "a whole number of seconds, at least 1")
_partitions = _number(int, lambda value: 1 <= value <= 1000, "a whole number from 1 to 1000")
_buckets = _number(int, lambda value: 1 <= value <= 4096, "a whole number from 1 to 4096")
_grace = _number(float, lambda value: value >= 0, "a number of seconds, 0 or more")
_kept_s = _number(int, lambda value: value >= 0, "a whole number of seconds, 0 or more")
_port = _number(int, lambda value: 0 <= value < 65536, "a port number (0: none)")


def _milliseconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise ValueError("a number of milliseconds, 0 or more")
    return value / 1000


def _optional(text: str) -> str | None:
    return text or None


def _directory(text: str) -> str | None:
    # a relative one is each process's own (its working directory: each container's /var/lib/tavern)
    if text and not os.path.isabs(text):
        raise ValueError("an absolute path (one every gateway and worker sees)")
    return text or None


@dataclass(frozen=True, slots=True)
class Variable:
    name: str  # in the environment
    field: str  # of Settings
    default: str  # as it would be written in the environment ("": unset)
    parse: Callable[[str], Any]
    help: str


VARIABLES = (
    Variable(
        "REDIS_URL",
        "redis_url",
        "",
        _events_url,
        "the event streams and views (redis+cluster://: a Redis Cluster); unset: an embedded in-memory Redis",
    ),
    Variable(
        "QUEUE_URL",
        "queue_url",
        "",
        _urls,
        "RQ and the projector's keys; comma-separated: several queue instances, a match's on one by its "
        "hash; unset: the same Redis as REDIS_URL",
    ),
    Variable("QUEUE_SENTINELS", "queue_sentinels", "", _addresses, "the queue's Redis found through these sentinels"),
    Variable(
        "QUEUE_MASTER",
        "queue_master",
        "tavern",
        _words,
        "the queue's master name at the sentinels; comma-separated: several queue instances",
    ),
    Variable("TAVERN_QUEUE", "queue_name", "tavern", _word, "the RQ queue's name"),
    Variable("LOG_LEVEL", "log_level", "info", _level, "the JSON log lines' level: debug, info, warning, error"),
    Variable(
        "TAVERN_LEASE_S", "lease_s", "5", _seconds,
        "a claim on a match, or a share of the sweepers' partitions, before another takes it",
    ),
    Variable("TAVERN_TICK_MS", "tick_s", "12", _milliseconds, "the longest pause between a worker's drain steps"),
    Variable("TAVERN_MIN_TICK_MS", "min_tick_s", "2", _milliseconds, "the shortest pause after a step that claimed"),
    Variable(
        "TAVERN_REDIS_TIMEOUT_S", "redis_timeout_s", "5", _seconds, "the longest wait for a Redis reply or connect"
    ),
    Variable(
        "TAVERN_DEQUEUE_S", "dequeue_s", "30", _whole_seconds, "how long a worker's blocking wait for a job lasts"
    ),
    Variable("TAVERN_STOP_S", "stop_s", "8", _seconds, "on SIGTERM, the longest a process takes to stop"),
    Variable("TAVERN_START_S", "start_s", "5", _seconds, "at start, how long to try to reach Redis before giving up"),
    Variable(
        "TAVERN_ARCHIVE_DIR", "archive_dir", "", _directory,
        "where finished matches go: a directory every process sees; unset (and no bucket): matches stay in Redis",
    ),
    Variable("TAVERN_ARCHIVE_S3_BUCKET", "archive_s3_bucket", "", _optional, "an S3-compatible bucket instead"),
    Variable("TAVERN_ARCHIVE_S3_ENDPOINT", "archive_s3_endpoint", "", _optional, "its endpoint; unset: AWS"),
    Variable("TAVERN_ARCHIVE_S3_PREFIX", "archive_s3_prefix", "", str, "a prefix of every archived object's name"),
    Variable("TAVERN_ARCHIVE_GRACE_S", "archive_grace_s", "3600", _grace, "a finished match stays in Redis this long"),
    Variable("TAVERN_IDLE_LIMIT_S", "idle_limit_s", "604800", _seconds, "no event this long: ended as abandoned"),
    Variable("TAVERN_ARCHIVE_EVERY_S", "archive_every_s", "5", _seconds, "how often a worker sweeps for archiving"),
    Variable(
        "TAVERN_HIBERNATE_AFTER_S", "hibernate_after_s", "86400", _grace,
        "a match being played with no event this long leaves Redis for the archive until next read (0: never)",
    ),
    Variable(
        "TAVERN_ASLEEP_BUCKETS", "asleep_buckets", "8", _buckets,
        "the lists of hibernated matches per game and partition; the same on every process, for life",
    ),
    Variable("TAVERN_IDEMPOTENCY_TTL_S", "idempotency_ttl_s", "86400", _whole_seconds,
             "an accepted command's answer is kept under its Idempotency-Key this long"),
    Variable("TAVERN_IDEMPOTENCY_REFUSAL_TTL_S", "idempotency_refusal_ttl_s", "60", _kept_s,
             "a refused command's answer this long (0: not kept; a retry decides it again)"),
    Variable(
        "TAVERN_WAIT_REPLICAS",
        "wait_replicas",
        "",
        _replicas,
        "an append is answered once this many replicas hold it (WAIT), else 503; unset: 1 on a cluster, else 0",
    ),
    Variable("TAVERN_WAIT_TIMEOUT_MS", "wait_timeout_s", "500", _milliseconds, "how long WAIT waits for replicas"),
    Variable(
        "TAVERN_PARTITIONS", "partitions", "16", _partitions,
        "the shards of each sweeper set (lobby, deadlines, lifecycle); the same on every process, for life",
    ),
    Variable(
        "TAVERN_SIGNING_KEY", "signing_key", "", _optional,
        "the Ed25519 key signing finished matches' exports (PEM or 64 hex); the same in every process",
    ),
    Variable(
        "TAVERN_SIGNING_KEY_FILE", "signing_key_file", "", _directory,
        "a file holding it instead; neither: one kept in ~/.local/share/tavern/signing-key",
    ),
    Variable(
        "TAVERN_CORS_ORIGINS", "cors_origins", "", _origins,
        "web origins a browser may call the API from (comma-separated, or *); unset: none (docs/API.md)",
    ),
    Variable("TAVERN_WORKER_METRICS_PORT", "worker_metrics_port", "0", _port, "a worker's /metrics port; 0: none"),
    Variable(
        "TAVERN_VAPID_KEY", "vapid_key", "", _optional,
        "the P-256 key signing Web Push requests (base64url raw, DER or PEM); unset: the shipped one, "
        "whose private half is public (docs/notifications.md): set your own",
    ),
    Variable(
        "TAVERN_VAPID_SUBJECT", "vapid_subject", "mailto:operator@tavern.invalid", _word,
        "how push services reach the operator (mailto: or https:)",
    ),
    Variable("TAVERN_NOTIFY_LEASE_S", "notify_lease_s", "30", _seconds,
             "a notification's attempt holds it this long: one whose sender died is sent again after it"),
    Variable("TAVERN_NOTIFY_RETRY_S", "notify_retry_s", "5", _seconds,
             "a failed notification is tried again after this, doubled at each attempt (8 at most)"),
    Variable(
        "TAVERN_NOTIFY_NETWORKS", "notify_networks", "", _networks,
        "private networks webhooks and push may reach (CIDRs, comma-separated); unset: public addresses only",
    ),
)
# The embedded default's VAPID key (TAVERN_VAPID_KEY unset): generated once for this purpose and
# public in this source, so that a laptop's `tavern serve` pushes without setup; a deployment sets
# its own (docs/notifications.md: browsers' subscriptions are bound to the key they were made with)
DEFAULT_VAPID_KEY = "P9ezBPqyUO_MCeCFwMyPDuVBPrfIoA4ctRfDJN-oa6A"
_BY_FIELD = {variable.field: variable for variable in VARIABLES}


def _default(field: str) -> Any:
    variable = _BY_FIELD[field]
    return variable.parse(variable.default)


@dataclass(frozen=True, slots=True)
class Settings:
    redis_url: str | None  # the event store and views; None: an embedded in-memory fakeredis
    queue_url: str | None  # RQ and the dirty set (comma-separated: several instances); None: the events' Redis
    # or the queue's Redis found through Sentinel: its sentinels (host, port) and master name(s)
    queue_sentinels: tuple[tuple[str, int], ...] = ()
    queue_master: str = _default("queue_master")
    queue_name: str = _default("queue_name")
    log_level: str = _default("log_level")
    idempotency_ttl_s: int = _default("idempotency_ttl_s")  # an accepted command's answer, for its retries
    # a refusal changes nothing and is decided again on a retry: kept briefly, 0 not at all
    idempotency_refusal_ttl_s: int = _default("idempotency_refusal_ttl_s")
    append_attempts: int = 16  # decides per command before giving up on a busy match (409 contention)
    lease_s: float = _default("lease_s")  # how long a projector's claim on a match lasts before another may redo it
    # the longest pause between drain steps (after a step that claimed a full batch; shorter
    # after smaller ones): the commands of a tick share one projection (deploy/README.md)
    tick_s: float = _default("tick_s")
    # the shortest pause after a step that claimed anything: without it, a moderately busy server
    # projects one or two matches a step, at three round trips each, and the worker's CPU per
    # command doubles (deploy/README.md)
    min_tick_s: float = _default("min_tick_s")
    redis_timeout_s: float = _default("redis_timeout_s")
    dequeue_s: int = _default("dequeue_s")
    stop_s: float = _default("stop_s")
    start_s: float = _default("start_s")
    # data lifecycle (services/projector/archiver.py, deploy/README.md): where finished matches go
    archive_dir: str | None = None  # None (and no bucket): no archiving, finished matches stay in Redis
    archive_s3_bucket: str | None = None  # an S3-compatible bucket instead of the directory
    archive_s3_endpoint: str | None = None
    archive_s3_prefix: str = ""
    archive_grace_s: float = _default("archive_grace_s")  # a finished match stays in Redis this long
    idle_limit_s: float = _default("idle_limit_s")  # a match with no event for this long is ended as abandoned
    archive_every_s: float = _default("archive_every_s")  # how often a worker looks for matches to archive
    # a match being played, idle this long, hibernates (services/commands/hibernation.py); 0: never
    hibernate_after_s: float = _default("hibernate_after_s")
    # the lists of them per game and partition, each kept under 128 members (compact: a listpack)
    asleep_buckets: int = _default("asleep_buckets")
    # the shards of each set the sweepers poll (services/store/partitions.py): every process of a
    # deployment must agree, and changing it strands what the dropped shards hold (deploy/README.md)
    partitions: int = _default("partitions")
    cors_origins: tuple[str, ...] = ()  # the web origins a browser may call the API from (CORS); none by default
    worker_metrics_port: int = 0  # a worker's /metrics (Prometheus) on this port; 0: none
    # the key signing the head of a finished match's export (services/ops/signing.py): its value, or
    # a file holding it; neither: one kept in the data directory (every process of a deployment
    # must share it: deploy/README.md)
    signing_key: str | None = field(default=None, repr=False)
    signing_key_file: str | None = None
    # notifications (docs/notifications.md): the Web Push key, and the deliveries' lease and back-off
    vapid_key: str | None = field(default=None, repr=False)
    vapid_subject: str = _default("vapid_subject")
    notify_lease_s: float = _default("notify_lease_s")
    notify_retry_s: float = _default("notify_retry_s")
    # the private networks a notification may be sent into; none by default (services/commands/egress.py)
    notify_networks: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)  # what one client may send, and how fast (ops/limits.py)
    # cluster mode: an append is answered once this many replicas hold it (WAIT), else 503;
    # None: 1 on a cluster, 0 (off) on a single Redis (deploy/README.md)
    wait_replicas: int | None = None
    wait_timeout_s: float = _default("wait_timeout_s")

    @property
    def replicas_to_wait(self) -> int:
        if self.wait_replicas is not None:
            return self.wait_replicas
        return 1 if (self.redis_url or "").startswith("redis+cluster://") else 0

    @property
    def queue_urls(self) -> tuple[str, ...]:
        """QUEUE_URL's instances (none: the queue is on the events' Redis, or found through Sentinel)."""
        return tuple(self.queue_url.split(",")) if self.queue_url else ()

    @property
    def queue_masters(self) -> tuple[str, ...]:
        """QUEUE_MASTER's instances at the sentinels."""
        return tuple(self.queue_master.split(","))

    @property
    def queue_count(self) -> int:
        """How many queue instances the projector's bookkeeping is spread over (services/store/connections.py)."""
        if self.embedded:
            return 1
        return len(self.queue_masters) if self.queue_sentinels else max(1, len(self.queue_urls))

    @property
    def embedded(self) -> bool:
        return self.redis_url is None


def from_env(env: dict[str, str] | os._Environ[str] | None = None) -> Settings:
    """The settings, or ``BadSetting`` naming the first variable with a value that does not parse."""
    env = os.environ if env is None else env
    values = {}
    for variable in VARIABLES:
        text = env.get(variable.name, variable.default).strip()
        try:
            values[variable.field] = variable.parse(text)
        except ValueError as problem:
            raise BadSetting(f"{variable.name}={text!r} is not {_what(problem)}") from None
    if (values["redis_url"] or "").startswith("redis+cluster://") and not (
        values["queue_url"] or values["queue_sentinels"]
    ):
        raise BadSetting(
            "REDIS_URL names a Redis Cluster: set QUEUE_URL (or QUEUE_SENTINELS) to a plain Redis for "
            "the queue (RQ and the projector's bookkeeping cannot live on a cluster)"
        )
    if values["archive_dir"] and values["archive_s3_bucket"]:
        raise BadSetting("TAVERN_ARCHIVE_DIR and TAVERN_ARCHIVE_S3_BUCKET are both set: the archive is one of them")
    try:
        signing.signing_key(values["signing_key"], values["signing_key_file"])  # one that signs, or no start
    except (signing.BadKey, OSError) as problem:
        raise BadSetting(f"TAVERN_SIGNING_KEY(_FILE): {problem}") from None
    try:
        vapid.vapids(values["vapid_key"] or DEFAULT_VAPID_KEY, values["vapid_subject"])
    except ValueError as problem:
        raise BadSetting(f"TAVERN_VAPID_KEY: {problem}") from None
    try:
        limits = limits_from_env(env)
    except ValueError as problem:
        raise BadSetting(str(problem)) from None
    return Settings(**values, limits=limits)


def _what(problem: ValueError) -> str:
    text = str(problem)
    return "a number" if text.startswith(("could not convert", "invalid literal")) else text


def described() -> str:
    """The table for ``--help``: each variable, its default and what it sets."""
    lines = ["environment variables (default):"]
    for variable in VARIABLES:
        default = variable.default or "unset"
        lines.append(f"  {variable.name:<24} ({default}) {variable.help}")
    lines += ["limits on what one client may send, and how fast (default; 0 is off: docs/LIMITS.md):"]
    return "\n".join([*lines, *limits.described()])
