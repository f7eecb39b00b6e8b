"""EventStore.write_views: a match's views and checkpoint move together and only forwards (a stalled
worker whose lease expired must not put older views back), with nothing left behind."""

from __future__ import annotations

import secrets

import pytest

from services.store import keys
from services.store.event_store import EventStore, ViewsAt

pytestmark = pytest.mark.anyio


@pytest.fixture
def store(linked):
    client, link = linked
    return EventStore(client, 60, link=link)


def views_at(match_id: str, version: int) -> ViewsAt:
    fields = {f"s:{seat}": b'{"version": %d, "seat": %d}' % (version, seat) for seat in range(3)}
    return ViewsAt(match_id, version, fields | {"spectator": b'{"version": %d}' % version})


async def stored(store: EventStore, match_id: str) -> dict[bytes, bytes]:
    return await store.redis.hgetall(keys.views(match_id))


async def test_views_move_only_forwards_and_leave_nothing_behind(store):
    match_id = secrets.token_hex(8)
    await store.write_views([views_at("warm", 1)], [b"warm"])  # loads promote.lua (its notice sent again after)
    listener = store.redis.pubsub()
    await listener.ssubscribe(keys.notices(match_id), keys.notices(match_id + "x"))
    await store.write_views([views_at(match_id, 5)], [b"five"])
    assert await stored(store, match_id) == {b"v": b"5"} | {
        k.encode(): v for k, v in views_at(match_id, 5).fields.items()
    }
    for older in (3, 5):  # a stalled worker's, and a redo of the same version
        await store.write_views([views_at(match_id, older)], [b"older"])
        assert (await stored(store, match_id))[b"s:0"] == b'{"version": 5, "seat": 0}'
    await store.write_views([views_at(match_id, 9), views_at(match_id + "x", 2)], [b"nine", b"two"])
    assert (await stored(store, match_id))[b"v"] == b"9"
    assert (await stored(store, match_id))[b"spectator"] == b'{"version": 9}'
    assert (await stored(store, match_id + "x"))[b"v"] == b"2"
    assert await store.redis.ttl(keys.views(match_id)) == -1  # kept for good
    assert sorted(await store.redis.keys(f"match:{{{match_id}}}*")) == [keys.views(match_id).encode()]
    notices = []
    for _ in range(10):  # the subscription's own confirmation comes first, as a None here
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=0.2)
        if message is not None:
            notices.append(message["data"])
            assert message["channel"] == keys.notices(match_id + ("x" if message["data"] == b"two" else "")).encode()
    assert notices == [b"five", b"older", b"older", b"nine", b"two"]  # each match's notice, on its channel
    await listener.aclose()
