"""The archiver's side of the events' Redis (services/store/evictions.py) and the deferred marks
(unmarked.py), on each backend."""

from __future__ import annotations

import json

import pytest

from services.commands.matches import quota_of
from services.store import keys
from services.store.chat import CHANNELS, ChatLog
from services.store.evictions import Evictions
from services.store.match_meta import MatchMetas
from services.store.tournaments import TournamentBook
from services.store.unmarked import Unmarked
from tests.service.store.partitioned import PARTITIONS, shares

pytestmark = pytest.mark.anyio


async def test_a_match_leaves_in_one_delete_with_the_idempotency_records_named(backend):
    evictions, metas = Evictions(backend.events), MatchMetas(backend.events)
    await backend.events.hset(keys.meta("m"), mapping={"game": "g", "quota": json.dumps(["ann", "bob"])})
    await backend.events.xadd(keys.log("m"), {"b": b"1"}, maxlen=100)
    await backend.events.hset(keys.views("m"), mapping={"v": 1})
    await backend.events.set(keys.idempotency("m", 0, "k1"), b"answer")
    await backend.events.set(keys.idempotency("m", 1, "kept"), b"refusal")  # in no log: lapses by itself
    chat = ChatLog(backend.events)
    await chat.remove("m", "players", (await chat.say("m", "players", "0", "Ann", "hi")).id, "x")
    await chat.block("m", "0", "1", True)
    await chat.report("m", b"{}")
    await chat.close("m")  # as the archiver does before reading it: the mark goes with the match
    await TournamentBook(backend.events, PARTITIONS, shares(backend)).table("m", "cup")  # a tournament's table
    assert await metas.read("m") == {"game": "g", "quota": '["ann", "bob"]'}
    assert quota_of(await metas.field("m", "quota")) == ("ann", "bob")
    await evictions.evict("m", [(0, "k1"), (0, "k1"), (2, "never-sent")])
    assert await metas.read("m") is None
    assert quota_of(await metas.field("m", "quota")) == ()
    assert not await backend.events.exists(keys.log("m"), keys.views("m"), keys.idempotency("m", 0, "k1"))
    assert not await backend.events.exists(*keys.chat_keys("m", CHANNELS), keys.match_tournament("m"))
    assert await backend.events.exists(keys.idempotency("m", 1, "kept"))


async def test_matches_noted_unmarked_are_listed_until_marked(backend):
    unmarked = Unmarked(backend.events, PARTITIONS, shares(backend))
    assert await unmarked.all() == []
    await unmarked.note("b")
    await unmarked.note("a")
    await unmarked.note("a")
    assert await unmarked.all() == ["a", "b"]
    await unmarked.marked(["a"])
    await unmarked.marked([])
    assert await unmarked.all() == ["b"]
