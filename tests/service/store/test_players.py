"""PlayerRegistry's contract, on each backend: a player kept is found by its id and by its
token's digest, with the stored shape the earlier releases wrote."""

from __future__ import annotations

import pytest

from services.store import keys
from services.store.players import Player, PlayerRegistry

pytestmark = pytest.mark.anyio


async def test_a_player_added_is_found_by_id_and_by_its_token_digest(backend):
    registry = PlayerRegistry(backend.events)
    ann = Player("a1b2c3d4e5f60718", "Ann Ö'Neil", 1700000000.25)
    await registry.add(ann, "d" * 64)
    assert await registry.get(ann.id) == ann
    assert await registry.by_token("d" * 64) == ann.id


async def test_an_unknown_player_or_token_is_none(backend):
    registry = PlayerRegistry(backend.events)
    assert await registry.get("0000000000000000") is None
    assert await registry.by_token("e" * 64) is None


async def test_the_stored_shape_is_a_hash_and_a_string(backend):
    """What is already stored keeps its meaning: ``player:{ID}`` name/created, ``player-token:DIGEST``."""
    registry = PlayerRegistry(backend.events)
    await registry.add(Player("ffff000011112222", "Bo", 12.5), "f" * 64)
    assert await backend.events.hgetall(keys.player("ffff000011112222")) == {b"name": b"Bo", b"created": b"12.5"}
    assert await backend.events.get(keys.player_token("f" * 64)) == b"ffff000011112222"
    await registry.add(Player("eeee000011112222", "Cy", 13.5, bot=True, language="fr"), "e" * 64)
    stored = await backend.events.hgetall(keys.player("eeee000011112222"))
    assert stored == {b"name": b"Cy", b"created": b"13.5", b"bot": b"1", b"language": b"fr"}
