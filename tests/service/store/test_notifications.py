"""The notifications' repository, on each backend: a delivery is made once per id; its attempts are
claimed one at a time under a lease (a lapsed one is claimed again: its sender died), and only the
attempt holding it writes its outcome; a done delivery is never claimed again; the player's
choices, targets and deliveries, and a match's turn marks."""

from __future__ import annotations

import pytest

from services.store.notifications import NotificationBook, due_member, of_member
from tests.service.store.partitioned import PARTITIONS, shares

pytestmark = pytest.mark.anyio


def book(backend) -> NotificationBook:
    return NotificationBook(backend.events, PARTITIONS, shares(backend))


async def test_a_delivery_is_made_once_and_listed_and_due(backend):
    notes = book(backend)
    assert await notes.make("p1", "d1", "webhook:h", "m:0:3:turn", "turn", b'{"a":1}', 100.0, 100.0)
    assert not await notes.make("p1", "d1", "webhook:h", "m:0:3:turn", "turn", b'{"b":2}', 101.0, 101.0)
    found = await notes.delivery("p1", "d1")
    assert found is not None
    assert (found.state, found.attempts, found.body, found.event_id) == ("pending", 0, b'{"a":1}', "m:0:3:turn")
    assert [d.id for d in await notes.deliveries("p1", 10)] == ["d1"]
    assert await notes.make("p1", "d2", "push:s", "m:ended", "ended", b"{}", 102.0, 102.0)
    assert [d.id for d in await notes.deliveries("p1", 10)] == ["d2", "d1"]  # the newest first
    assert [d.id for d in await notes.deliveries("p1", 1)] == ["d2"]
    assert await notes.due.due(101.0, 10) == [due_member("p1", "d1")]
    assert of_member(due_member("p1", "d1")) == ("p1", "d1")
    assert await notes.delivery("p1", "nope") is None


async def test_attempts_are_claimed_one_at_a_time_under_a_lease(backend):
    notes = book(backend)
    await notes.make("p1", "d1", "webhook:h", "e", "turn", b"{}", 100.0, 100.0)
    assert await notes.claim("p1", "d1", 100.0, 30.0) == ("claimed", 1.0)
    assert await notes.claim("p1", "d1", 110.0, 30.0) == ("leased", 130.0)  # its sender holds it
    # the sender died: after its lease another attempt takes it, and the first writes nothing
    assert await notes.claim("p1", "d1", 131.0, 30.0) == ("claimed", 2.0)
    assert not await notes.done("p1", "d1", 1, "delivered", 200, "", 132.0)
    assert await notes.done("p1", "d1", 2, "delivered", 200, "", 133.0)
    assert await notes.claim("p1", "d1", 500.0, 30.0) == ("delivered", 0.0)
    found = await notes.delivery("p1", "d1")
    assert found is not None and (found.state, found.attempts, found.status) == ("delivered", 2, 200)
    assert await notes.claim("p1", "gone", 100.0, 30.0) == ("gone", 0.0)


async def test_a_retry_is_claimed_again_and_a_failed_one_not(backend):
    notes = book(backend)
    await notes.make("p1", "d1", "push:s", "e", "ended", b"{}", 100.0, 100.0)
    assert (await notes.claim("p1", "d1", 100.0, 30.0))[0] == "claimed"
    assert await notes.done("p1", "d1", 1, "retry", 500, "boom", 101.0)
    assert await notes.claim("p1", "d1", 102.0, 30.0) == ("claimed", 2.0)  # no lease held: at once
    assert await notes.done("p1", "d1", 2, "failed", 410, "gone", 103.0)
    assert await notes.claim("p1", "d1", 104.0, 30.0) == ("failed", 0.0)


async def test_choices_targets_and_turn_marks(backend):
    notes = book(backend)
    assert await notes.choices("p1") == {}
    await notes.choose("p1", {"turn": False, "push": True})
    assert await notes.choices("p1") == {"turn": False, "push": True}
    await notes.add_target("p1", "webhook", "h1", b'{"url":"http://x"}')
    await notes.add_target("p1", "push", "s1", b'{"endpoint":"http://y"}')
    assert await notes.targets("p1", "webhook") == {"h1": b'{"url":"http://x"}'}
    assert await notes.drop_target("p1", "webhook", "h1")
    assert not await notes.drop_target("p1", "webhook", "h1")
    assert await notes.targets("p1", "push") == {"s1": b'{"endpoint":"http://y"}'}
    await notes.mark_turns("m", {0: 3, 1: 3}, [])
    await notes.mark_turns("m", {2: 5}, [0])
    assert await notes.turns("m") == {1: 3, 2: 5}
