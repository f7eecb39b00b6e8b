"""Rate limits per seat token and per client address (creates, registrations, commands, reads), as
token buckets: those of creations, registrations, reads and a seat token's commands shared by every
gateway (services/store/rate_limits.py, on the shards: a token's on its match's, taken from by the
command's own append), a client address's commands and a seat token's in this gateway's memory
(``LocalBuckets``: per gateway, docs/LIMITS.md). Past one: the API's 429 with ``Retry-After``."""

from __future__ import annotations

import math
import time
from collections.abc import MutableMapping
from typing import Any

from projections.i18n import M_, N_
from services.gateway.access import ApiError
from services.ops.limits import Limits
from services.store.bucket import Bucket, digest
from services.store.rate_limits import RateLimits


def address_of(scope: MutableMapping[str, Any]) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class LocalBuckets:
    """Token buckets in this process's memory, one per key: a command's check per client address
    costs no Redis call. Each gateway holds its own, so the limit is per gateway (nginx spreads
    an address's matches over them by match id: an address may get up to N times the rate with
    N gateways). Full buckets are forgotten once there are ``KEPT`` (a full one is a fresh one)."""

    KEPT = 100_000

    def __init__(self, per_s: float, burst: int) -> None:
        self.per_s, self.burst = per_s, burst
        self._held: dict[str, tuple[float, float]] = {}  # key -> (tokens, monotonic s of the last take)

    def wait_ms(self, key: str, now: float | None = None) -> int:
        """0 if ``key``'s bucket holds a token, else the milliseconds until it does."""
        tokens = self._tokens(key, time.monotonic() if now is None else now)
        return 0 if tokens >= 1 else math.ceil((1 - tokens) / self.per_s * 1000)

    def take(self, key: str, now: float | None = None) -> None:
        """A token from ``key``'s bucket (after ``wait_ms`` said it holds one)."""
        now = time.monotonic() if now is None else now
        if len(self._held) >= self.KEPT:
            self._held = {held: (tokens, at) for held, (tokens, at) in self._held.items()
                          if tokens + (now - at) * self.per_s < self.burst}
        self._held[key] = (self._tokens(key, now) - 1, now)

    def _tokens(self, key: str, now: float) -> float:
        tokens, at = self._held.get(key, (self.burst, now))
        return min(self.burst, tokens + max(0.0, now - at) * self.per_s)


class RateLimiter:
    def __init__(self, buckets: RateLimits, limits: Limits) -> None:
        self.limits = limits
        self.buckets = buckets
        self.addresses = LocalBuckets(limits.commands_per_s_address, limits.commands_burst_address)
        self.tokens = LocalBuckets(limits.commands_per_s_token, limits.commands_burst_token)
        self.chat_empty: dict[str, float] = {}  # a chat bucket found empty -> when it holds a token again (monotonic s)

    async def creates(self, address: str, creator: str | None, authorization: str | None = None) -> None:
        """Per API key (a trusted frontend's, ``creator``) or else per address, and per bearer token
        (a player's) when sent, wherever they call from; the token is not looked up first: a bucket
        per token sent is as cheap. A key's creates draw on its own bucket only: its frontend creates
        for many people from its own address, whose anonymous callers must not spend them."""
        buckets = []
        if self.limits.creates_per_s > 0:
            rate = self.limits.creates_per_s, self.limits.creates_burst
            if creator is not None:
                buckets.append(Bucket("create:key", digest(creator), *rate))
            else:
                buckets.append(Bucket("create", address, *rate))
            if authorization:
                buckets.append(Bucket("create:token", digest(authorization), *rate))
        await self._check(buckets, N_("matches created"))

    async def players(self, address: str) -> None:
        """Registering a player is a creation too (its record is kept): per address, at the creates' rate."""
        if self.limits.creates_per_s > 0:
            await self._check([Bucket("player", address, self.limits.creates_per_s, self.limits.creates_burst)],
                              N_("players registered"))

    def commands(self, address: str, token: str, match_id: str) -> Bucket | None:
        """Per client address and per seat token in this gateway's memory, before the command is
        decided: a flood, stale or malformed, is refused without a Redis call. Then the token's
        bucket shared by every gateway, on ``match_id``'s shard, returned for the command's first
        call there (its append, or the read before it: Handler.submit) to take from."""
        limits, now = self.limits, time.monotonic()
        per_address, per_token = limits.commands_per_s_address > 0, limits.commands_per_s_token > 0
        if per_address and (wait_ms := self.addresses.wait_ms(address, now)):
            raise refusal(wait_ms, N_("commands"))
        who = digest(token) if per_token else ""
        if per_token and (wait_ms := self.tokens.wait_ms(who, now)):
            raise refusal(wait_ms, N_("commands"))
        if per_address:
            self.addresses.take(address, now)
        if not per_token:
            return None
        self.tokens.take(who, now)
        return Bucket("cmd:token", who, limits.commands_per_s_token, limits.commands_burst_token, match_id=match_id)

    async def chat(self, match_id: str, sender: str) -> None:
        """A chat message, block or report: per sender (a seat, a spectator's address) within its match,
        on the match's shard, in a bucket of its own: never the commands' (a flood of chat takes no
        token a seat's moves need)."""
        if self.limits.chat_per_s <= 0:
            return
        bucket = Bucket("chat", sender, self.limits.chat_per_s, self.limits.chat_burst, match_id=match_id)
        # a bucket found empty holds no token before the time Redis said (no gateway adds any): a
        # flood is refused here until then, each of its requests costing no Redis call
        now = time.monotonic()
        if (until := self.chat_empty.get(bucket.key, 0.0)) > now:
            raise refusal(math.ceil((until - now) * 1000), N_("chat messages"))
        if len(self.chat_empty) >= LocalBuckets.KEPT:
            self.chat_empty = {key: until for key, until in self.chat_empty.items() if until > now}
        wait_ms = await self.buckets.take([bucket])
        if wait_ms:
            self.chat_empty[bucket.key] = now + wait_ms / 1000
            raise refusal(wait_ms, N_("chat messages"))

    async def reads(self, address: str, authorization: str | None, heavy: bool) -> None:
        """A read (reads.py says which requests are, and which are heavy): per bearer token when
        sent and per address; a heavy one from the heavy buckets too, in the same take."""
        limits, buckets = self.limits, []
        rates = [(limits.reads_per_s_token, limits.reads_burst_token, limits.reads_per_s_address,
                  limits.reads_burst_address, "read")]
        if heavy:
            rates.append((limits.heavy_reads_per_s_token, limits.heavy_reads_burst_token,
                          limits.heavy_reads_per_s_address, limits.heavy_reads_burst_address, "read:heavy"))
        for per_s_token, burst_token, per_s_address, burst_address, kind in rates:
            if authorization and per_s_token > 0:
                buckets.append(Bucket(f"{kind}:token", digest(authorization), per_s_token, burst_token))
            if per_s_address > 0:
                buckets.append(Bucket(f"{kind}:addr", address, per_s_address, burst_address))
        await self._check(buckets, N_("reads"))

    async def _check(self, buckets: list[Bucket], what: str) -> None:
        wait_ms = await self.buckets.take(buckets)
        if wait_ms:
            raise refusal(wait_ms, what)


def refusal(wait_ms: int, what: str) -> ApiError:
    """The 429 of a bucket holding no token for ``wait_ms`` (a command's shared one: RateLimited)."""
    retry = max(1, math.ceil(wait_ms / 1000))
    return ApiError(429, "rate_limited", "too many {what}: retry after {retry} s", retry, what=M_(what), retry=retry)
