"""MatchMetas' contract, on each backend: the meta written is read back as strings; single fields;
an expiry; and ``edit``, the lobby's read-decide-write under WATCH, which writes nothing when its
decision raises, and decides again when another writer moved the meta in between."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

import pytest

from services.store import keys
from services.store.match_meta import MatchMetas
from tests.service.store.direct import events_of

pytestmark = pytest.mark.anyio


@dataclass(frozen=True)
class Change:
    fields: dict[str, str]
    removed: list[str] = field(default_factory=list)


def new_id() -> str:
    return secrets.token_hex(8)


async def test_a_meta_written_is_read_back_as_strings(backend):
    metas, match_id = MatchMetas(backend.events), new_id()
    await metas.write(match_id, {"game": "heros-tavern", "seats": "3", "options": "{}"})
    assert await metas.read(match_id) == {"game": "heros-tavern", "seats": "3", "options": "{}"}
    assert await metas.field(match_id, "seats") == "3"
    assert await metas.field(match_id, "host") is None


async def test_a_match_redis_does_not_hold_reads_as_none(backend):
    metas = MatchMetas(backend.events)
    assert await metas.read(new_id()) is None
    assert await metas.fields_of([new_id()], ["game", "lobby"]) == [[None, None]]


async def test_fields_of_several_matches_come_in_their_order(backend):
    metas, first, second = MatchMetas(backend.events), new_id(), new_id()
    await metas.write(first, {"game": "a", "lobby": "cancelled"})
    await metas.write(second, {"game": "b", "ended": "abandoned"})
    found = await metas.fields_of([second, first], ["game", "ended", "lobby"])
    assert found == [["b", "abandoned", None], ["a", None, "cancelled"]]


async def test_set_field_overwrites_and_set_once_keeps_the_first(backend):
    metas, match_id = MatchMetas(backend.events), new_id()
    await metas.write(match_id, {"lobby": "open"})
    await metas.set_field(match_id, "lobby", "cancelled")
    assert await metas.field(match_id, "lobby") == "cancelled"
    assert await metas.set_once(match_id, "rematch", "first") is True
    assert await metas.set_once(match_id, "rematch", "second") is False
    assert await metas.field(match_id, "rematch") == "first"


async def test_keep_for_gives_the_meta_a_time_to_live(backend):
    metas, match_id = MatchMetas(backend.events), new_id()
    await metas.write(match_id, {"lobby": "cancelled"})
    assert events_of(backend).ttl(keys.meta(match_id)) == -1  # kept for good until then
    await metas.keep_for(match_id, 3600)
    assert 3590 < events_of(backend).ttl(keys.meta(match_id)) <= 3600


async def test_edit_sets_and_removes_fields_and_answers_the_edit(backend):
    metas, match_id = MatchMetas(backend.events), new_id()
    await metas.write(match_id, {"lobby": "open", "player:1": "p1", "token:1": "t1"})
    seen: list[dict[str, str] | None] = []

    def decide(fields: dict[str, str] | None) -> Change:
        seen.append(fields)
        return Change({"lobby": "started"}, ["player:1", "token:1"])

    edited = await metas.edit(match_id, decide, attempts=5)
    assert edited == Change({"lobby": "started"}, ["player:1", "token:1"])
    assert seen == [{"lobby": "open", "player:1": "p1", "token:1": "t1"}]
    assert await metas.read(match_id) == {"lobby": "started"}


async def test_edit_of_a_missing_meta_decides_on_none(backend):
    metas, match_id = MatchMetas(backend.events), new_id()

    def decide(fields: dict[str, str] | None) -> Change:
        assert fields is None
        raise LookupError("no such match")

    with pytest.raises(LookupError):
        await metas.edit(match_id, decide, attempts=5)
    assert await metas.read(match_id) is None


async def test_edit_writes_nothing_when_the_decision_raises(backend):
    metas, match_id = MatchMetas(backend.events), new_id()
    await metas.write(match_id, {"lobby": "open"})

    def decide(fields: dict[str, str] | None) -> Change:
        raise ValueError("refused")

    with pytest.raises(ValueError):
        await metas.edit(match_id, decide, attempts=5)
    assert await metas.read(match_id) == {"lobby": "open"}
    assert await metas.edit(match_id, lambda fields: Change({"lobby": "started"}), attempts=1) is not None


async def test_edit_decides_again_when_the_meta_moved_meanwhile(backend):
    """A rival writes between the read and the write: the first decision is not written, the
    second, on what the rival wrote, is."""
    metas, match_id, rival = MatchMetas(backend.events), new_id(), events_of(backend)
    await metas.write(match_id, {"seats": "0"})
    seen: list[str] = []

    def decide(fields: dict[str, str] | None) -> Change:
        assert fields is not None
        seen.append(fields["seats"])
        if len(seen) == 1:
            rival.hset(keys.meta(match_id), "seats", "1")
        return Change({"seats": str(int(fields["seats"]) + 10)})

    assert await metas.edit(match_id, decide, attempts=5) == Change({"seats": "11"})
    assert seen == ["0", "1"]
    assert await metas.field(match_id, "seats") == "11"


async def test_edit_gives_up_after_its_attempts_when_the_meta_keeps_moving(backend):
    metas, match_id, rival = MatchMetas(backend.events), new_id(), events_of(backend)
    await metas.write(match_id, {"seats": "0"})
    attempts: list[int] = []

    def decide(fields: dict[str, str] | None) -> Change:
        attempts.append(1)
        rival.hset(keys.meta(match_id), "seats", str(len(attempts)))
        return Change({"seats": "mine"})

    assert await metas.edit(match_id, decide, attempts=3) is None
    assert len(attempts) == 3
    assert await metas.field(match_id, "seats") == "3"
