"""LobbyListings' contract, on each backend: a public match is on the pages (all games and its
own), a private one only on the waiting list; pages are oldest first; the waiting list is read
oldest first up to a time; removal takes a match off every list, its game's when known."""

from __future__ import annotations

import secrets

import pytest

from services.store.lobby import LobbyListings
from tests.service.store.partitioned import PARTITIONS, shares

pytestmark = pytest.mark.anyio


def new_id() -> str:
    return secrets.token_hex(8)


async def test_a_public_match_is_on_both_pages_and_waiting(backend):
    lobby, match_id = LobbyListings(backend.events, PARTITIONS, shares(backend)), new_id()
    await lobby.add(match_id, "heros-tavern", 100.0, public=True)
    assert await lobby.page(None, 0, 10) == [match_id]
    assert await lobby.page("heros-tavern", 0, 10) == [match_id]
    assert await lobby.page("tavern-masters", 0, 10) == []
    assert await lobby.waiting_since(101.0, 10) == [match_id]


async def test_a_private_match_only_waits(backend):
    lobby, match_id = LobbyListings(backend.events, PARTITIONS, shares(backend)), new_id()
    await lobby.add(match_id, "heros-tavern", 100.0, public=False)
    assert await lobby.page(None, 0, 10) == []
    assert await lobby.page("heros-tavern", 0, 10) == []
    assert await lobby.waiting_since(101.0, 10) == [match_id]


async def test_pages_are_oldest_first_from_an_offset(backend):
    lobby = LobbyListings(backend.events, PARTITIONS, shares(backend))
    ids = [new_id() for _ in range(5)]
    for created, match_id in reversed(list(enumerate(ids))):
        await lobby.add(match_id, "g", float(created), public=True)
    assert await lobby.page(None, 0, 2) == ids[:2]
    assert await lobby.page("g", 2, 2) == ids[2:4]
    assert await lobby.page("g", 4, 2) == ids[4:]
    assert await lobby.page("g", 5, 2) == []


async def test_waiting_since_gives_only_the_old_enough_oldest_first_up_to_a_count(backend):
    lobby = LobbyListings(backend.events, PARTITIONS, shares(backend))
    ids = [new_id() for _ in range(4)]
    for created, match_id in enumerate(ids):
        await lobby.add(match_id, "g", 10.0 + created, public=False)
    assert await lobby.waiting_since(9.5, 10) == []
    assert await lobby.waiting_since(12.0, 10) == ids[:3]  # created at 12 counts
    assert await lobby.waiting_since(100.0, 2) == ids[:2]


async def test_adding_again_is_one_listing(backend):
    lobby, match_id = LobbyListings(backend.events, PARTITIONS, shares(backend)), new_id()
    await lobby.add(match_id, "g", 1.0, public=True)
    await lobby.add(match_id, "g", 1.0, public=True)
    assert await lobby.page(None, 0, 10) == [match_id]


async def test_remove_takes_a_match_off_every_list(backend):
    lobby, match_id, other = LobbyListings(backend.events, PARTITIONS, shares(backend)), new_id(), new_id()
    await lobby.add(match_id, "g", 1.0, public=True)
    await lobby.add(other, "g", 2.0, public=True)
    await lobby.remove(match_id, "g")
    assert await lobby.page(None, 0, 10) == [other]
    assert await lobby.page("g", 0, 10) == [other]
    assert await lobby.waiting_since(10.0, 10) == [other]
    await lobby.remove(match_id, "g")  # again: nothing left to remove, no error


async def test_remove_of_a_match_whose_game_is_unknown_leaves_its_game_page(backend):
    lobby, match_id = LobbyListings(backend.events, PARTITIONS, shares(backend)), new_id()
    await lobby.add(match_id, "g", 1.0, public=True)
    await lobby.remove(match_id, None)
    assert await lobby.page(None, 0, 10) == []
    assert await lobby.waiting_since(10.0, 10) == []
    assert await lobby.page("g", 0, 10) == [match_id]


async def test_matches_being_played_are_listed_the_latest_started_first_until_they_end(backend):
    lobby = LobbyListings(backend.events, PARTITIONS, shares(backend))
    ids = [new_id() for _ in range(3)]
    for started, match_id in enumerate(ids):
        await lobby.add_live(match_id, "g" if started else "h", 100.0 + started)
    assert await lobby.live(None, 0, 10) == ids[::-1]
    assert await lobby.live("g", 0, 10) == [ids[2], ids[1]]
    assert await lobby.live(None, 1, 1) == [ids[1]]
    assert await lobby.page(None, 0, 10) == [] and await lobby.waiting_since(1000.0, 10) == []  # not waiting
    await lobby.remove_live(ids[1], "g")
    assert await lobby.live(None, 0, 10) == [ids[2], ids[0]]
    assert await lobby.live("g", 0, 10) == [ids[2]]
