"""How many streams (SSE and WebSocket together) one seat token and one client address hold open
on this gateway: past ``TAVERN_STREAMS_PER_TOKEN`` or ``TAVERN_STREAMS_PER_ADDRESS``, the API's
429 ``rate_limited`` with ``Retry-After`` (a WebSocket: closed with 4429).

Counted in the gateway's memory, not in Redis: a stream is a connection to this process, and ends
with it, so nothing can outlive a gateway that died. Behind the deploy kit's proxy a match's
requests, and so a seat token's streams, all reach one gateway (its hash on the match id); an
address's are capped per gateway, and the proxy caps its connections overall (``limit_conn``,
deploy/nginx.conf). The spectator's token is shared by everyone its creator gave it to: only its
address is capped."""

from __future__ import annotations

import math
from collections import Counter

from projections.i18n import M_
from services.gateway.access import ApiError
from services.ops.limits import Limits
from services.store.bucket import digest


class StreamCaps:
    def __init__(self, limits: Limits) -> None:
        self.per_token = limits.streams_per_token
        self.per_address = limits.streams_per_address
        # told to a client refused: a stream ends when its client goes, as soon as a reconnect would
        self.retry_s = max(1, math.ceil(limits.stream_retry_ms / 1000))
        self.open: Counter[str] = Counter()  # "token:<digest>" or "addr:<address>" -> its open streams

    def take(self, authorization: str, seat: int | None, address: str) -> list[str]:
        """One more stream of the address and of the seat's token (none for the spectator's):
        what was counted, for ``give`` once the stream ends; or the 429, when either is at its
        cap (then nothing is counted)."""
        counted = [(f"addr:{address}", self.per_address)]
        if seat is not None:
            counted.append((f"token:{digest(authorization)}", self.per_token))
        for name, cap in counted:
            if cap > 0 and self.open[name] >= cap:
                what = M_("this address") if name.startswith("addr:") else M_("this seat's token")
                raise ApiError(429, "rate_limited", "{cap} streams are open for {what} already", self.retry_s, cap=cap,
                               what=what)
        for name, _ in counted:
            self.open[name] += 1
        return [name for name, _ in counted]

    def give(self, names: list[str]) -> None:
        for name in names:
            self.open[name] -= 1
            if not self.open[name]:
                del self.open[name]
