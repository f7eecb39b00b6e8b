"""The events envelope and the replay frames carry each event in words, as the caller may read it."""

from __future__ import annotations

import pytest

from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def test_events_and_frames_are_narrated_for_the_caller(api):
    created = await create(api, seats=3, bots=[1, 2])
    url = f"/v1/matches/{created['match_id']}"
    mine = (await api.get(f"{url}/events", headers=bearer(seat_token(created, 0)))).json()
    theirs = (await api.get(f"{url}/events", headers=bearer(created["spectator_token"]))).json()
    dealt = next(e for e in mine if e["type"] == "Dealt")
    assert dealt["narration"].startswith("Round 1: a hand was dealt") and "Player 1 got " in dealt["narration"]
    shown = next(e for e in theirs if e["type"] == "Dealt")["narration"]
    assert shown == "Round 1: a hand was dealt to each player."  # a spectator sees no hand
    assert all(e["narration"].endswith(".") for e in mine)
    frames = (await api.get(f"{url}/replay", headers=bearer(seat_token(created, 0)))).json()
    # while the match runs the replay is the spectator's (API.md), and so are its labels; the bots play on
    # between the two reads, so only the versions both of them hold are compared
    told = {e["version"]: e["narration"] for e in theirs}
    framed = {f["version"]: f["narration"] for f in frames[1:]}
    both = sorted(told.keys() & framed.keys())
    assert both and both == list(range(1, len(both) + 1)), (sorted(told), sorted(framed))
    assert [framed[version] for version in both] == [told[version] for version in both]
