"""Undo through the public API, in every game: a seat's view says when it may take back its last move;
the undo puts the match back as it was before that move; refusals carry their stable codes and
append nothing; the match's export, undos and all, audits clean once it ends."""

from __future__ import annotations

import random

import pytest

from domain.games import game_ids
from projections.audit import audit
from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token, send, view, wait_for

pytestmark = pytest.mark.anyio
SEATS = {"heros-tavern": 3, "tavern-masters": 2, "taverna": 2, "mercenaries": 2}
ROUGH = ("version", "players", "undo")  # not restored: the log's length, open streams, the undo offered


def same_position(before: dict, after: dict) -> bool:
    return {k: v for k, v in before.items() if k not in ROUGH} == {k: v for k, v in after.items() if k not in ROUGH}


async def refused(api, created, seat: int, code: str) -> None:
    before = (await view(api, created, seat_token(created, seat)))["version"]
    answer = await send(api, created, seat, {"type": "Undo"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, code), answer.text
    assert (await view(api, created, seat_token(created, seat)))["version"] == before  # nothing appended


@pytest.mark.parametrize("settings", BACKENDS[:1], indirect=True)
@pytest.mark.parametrize("game_id", game_ids())
async def test_moves_are_taken_back_where_the_game_allows_and_the_export_audits(api, game_id):
    seats = SEATS[game_id]
    created = await create(api, seats=seats, game=game_id)
    rng = random.Random(32)
    await refused(api, created, 0, "nothing_to_undo")  # the opening is no seat's move
    taken_back = kept = latest = 0  # latest: the newest version an answer named
    for _ in range(40):  # moves enough to meet both kinds; then all but seat 0 concede, which ends it
        views = [await wait_for(api, created, seat_token(created, seat), latest) for seat in range(seats)]
        seat = next(seat for seat in range(seats) if views[seat]["legal"])
        before = views[seat]
        moved = await send(api, created, seat, rng.choice(before["legal"]))
        assert moved.status_code == 200, moved.text
        latest = moved.json()["version"]
        after = await wait_for(api, created, seat_token(created, seat), latest)
        others = [other for other in range(seats) if other != seat]
        if not after["undo"]:
            kept += 1
            if kept < 4:
                await refused(api, created, seat, "undo_not_allowed")
            continue
        assert not any([(await view(api, created, seat_token(created, other)))["undo"] for other in others])
        if taken_back < 3:  # the other seats may not take it back
            await refused(api, created, others[0], "nothing_to_undo")
        undone = await send(api, created, seat, {"type": "Undo"})
        assert undone.status_code == 200, undone.text
        events = moved.json()["version"] - before["version"]
        assert undone.json()["events"] == [{"type": "Undone", "seat": seat, "events": events}]
        back = await wait_for(api, created, seat_token(created, seat), undone.json()["version"])
        assert same_position(before, back) and not back["undo"]
        if taken_back < 3:
            await refused(api, created, seat, "nothing_to_undo")  # an undo is not taken back
        taken_back += 1
        again = await send(api, created, seat, rng.choice(back["legal"]))  # and play on, maybe another move
        assert again.status_code == 200, again.text
        latest = again.json()["version"]
    assert taken_back and kept
    for seat in range(1, seats):
        assert (await send(api, created, seat, {"type": "Concede"})).status_code == 200
    exported = await api.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(seat_token(created, 0)))
    assert exported.status_code == 200
    report = audit(exported.content)
    assert report.result is not None
