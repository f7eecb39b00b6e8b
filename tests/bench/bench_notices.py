"""What each gateway hears of the projector's notices (services/store/notices.py): prints figures,
asserts nothing (tests/service/gateway/test_notice_shares.py checks the shares).

    python tests/bench/bench_notices.py [--matches 48] [--steps 20] [--gateways 2 4]

On a redis-server and on a 6-node Redis Cluster started here: 1, 2 and 4 gateways (a Hub each, each
with its own subscription), every match streamed by one gateway (4 seats and the spectator, as
the balancer's hash of the match id sends them), the matches spread evenly. A projector's steps
write every match's views (real envelopes of a half-played four-seat Hero's Tavern match) with
their notices, and each step waits until every stream has its version. Per gateway: the
messages and bytes of notices it heard, their share of all gateways', and the bytes of views it
read back (one HMGET per notice, the seats it streams). Beside them, what the former design sent:
one channel, every step's notice with every match's views, to every gateway (the same steps,
encoded as it encoded them: MessagePack of [match id, version, time, views] per match).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import msgspec
import redis.asyncio

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from projections.views import field
from services.gateway.hub import Hub, Listener
from services.ops.metrics import Metrics
from services.store.cluster import ClusterWire
from services.store.cluster_client import ClusterClient
from services.store.connections import link_to
from services.store.event_store import EventStore, ViewsAt
from services.store.notices import Notices, Views, encode
from tests.bench.bench_presence import envelope
from tests.service.conftest import start_redis
from tests.service.redis_cluster import Cluster

SEATS = 4
FIELDS = [*(field(seat) for seat in range(SEATS)), field(None)]


class Counted(Notices):
    """The gateway's notices, counting the bytes of the views it reads back."""

    read = 0

    async def views(self, wanted: list[tuple[str, list[str]]]) -> list[Views | Exception]:
        found = await super().views(wanted)
        read = [views.fields.values() for views in found if isinstance(views, Views)]
        self.read += sum(len(value) for values in read for value in values if value)
        return found


def views_at(raw: bytes, match_id: str, version: int) -> ViewsAt:
    head, tail = raw.split(b'"version":', 1)
    view = head + b'"version":%d' % version + tail[tail.index(b","):]
    return ViewsAt(match_id, version, dict.fromkeys(FIELDS, view))


async def run(events, matches: int, steps: int, gateways: int, raw: bytes) -> None:
    store = EventStore(events, 60, link=link_to(events))
    await store.write_views([views_at(raw, "warm", 1)], [encode(1, 0.0)])  # promote.lua loaded

    feeds = [Counted(events) for _ in range(gateways)]

    def current_of(feed: Counted):
        async def current(match_id: str, seat: int | None) -> bytes | None:
            return None  # nothing written yet: the notices bring every version

        return current

    hubs = [Hub(feed, current_of(feed), Metrics()) for feed in feeds]
    for hub in hubs:
        await hub.start(timeout_s=5)
    prefix = f"{gateways}-{time.monotonic_ns()}"
    ids = [f"{prefix}-{number}" for number in range(matches)]
    streams: list[Listener] = []
    for number, match_id in enumerate(ids):
        hub = hubs[number % gateways]
        streams += [await hub.attach(match_id, seat, 0) for seat in [*range(SEATS), None]]
    await asyncio.sleep(0.5)  # every channel's subscription confirmed
    before = 0
    for version in range(1, steps + 1):
        now = time.time()
        written = [views_at(raw, match_id, version) for match_id in ids]
        old = msgspec.msgpack.encode([[at.match_id, at.version, now, at.fields] for at in written])
        before += len(b"tavern:views") + len(old)
        await store.write_views(written, [encode(version, now)] * len(written))
        while not all(listener.latest == version for listener in streams):
            await asyncio.sleep(0.005)
    heard = [(hub.heard.messages, hub.heard.bytes) if hub.heard else (0, 0) for hub in hubs]
    messages, size = sum(m for m, _ in heard), sum(b for _, b in heard)
    print(f"  {gateways} gateway(s), {matches} matches, {steps} steps: notices heard {messages} ({size} B)")
    for number, ((count, got), feed) in enumerate(zip(heard, feeds, strict=True)):
        print(
            f"    gateway {number}: {count} notices ({count / messages:.1%}), {got} B ({got / size:.1%}),"
            f" {got / max(count, 1):.1f} B a notice; views read back {feed.read / 1e6:.2f} MB"
        )
    print(
        f"    before (one channel, views inside): each gateway {steps} messages, {before / 1e6:.2f} MB"
        f" ({before / steps / matches:.0f} B a match a step), whatever its share"
    )
    for hub in hubs:
        await hub.stop()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=48)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--gateways", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    raw = envelope("heros-tavern")
    print(f"a view: {len(raw)} B; a notice now: {len(encode(123, time.time()))} B + its channel")
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_redis(directory)
        cluster = Cluster(Path(directory) / "cluster")
        (Path(directory) / "cluster").mkdir()
        try:
            single = redis.asyncio.Redis.from_url(url, protocol=2)
            print("a redis-server:")
            for gateways in args.gateways:
                await run(single, args.matches, args.steps, gateways, raw)
            await single.aclose()
            cluster.start()
            link = ClusterWire.from_url(cluster.url, timeout_s=5)
            print("a Redis Cluster of 3 primaries:")
            for gateways in args.gateways:
                await run(ClusterClient(link, link), args.matches, args.steps, gateways, raw)
            link.close()
        finally:
            cluster.stop()
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    asyncio.run(main())
