"""Clocks with a fake clock: the sweeper is handed "now" (no sleeping); the log's own times set
the deadlines. A seat that never acts is timed out, its move played by a bot, then taken over
after the limit; the match finishes and its export audits clean, timeouts included; and a new
process (a worker or gateway restarted meanwhile) still times a pending deadline out."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from domain.games import get_game
from domain.kernel.online import bot_label
from projections.audit import audit
from services.runtime import Runtime
from tests.audit.forgery import entry_lines, envelopes
from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token, view

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
FAR = 1e12  # a time (unix seconds, year 33658) by which every deadline has passed


async def until(predicate, what: str, timeout: float = 30.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not (found := await predicate()):
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.01)
    return found


async def export_types(api, created) -> tuple[bytes, list[str]]:
    answer = await api.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(seat_token(created, 0)))
    assert answer.status_code == 200, answer.text
    lines = entry_lines(answer.content)[1:]
    return answer.content, [msgspec.json.decode(msgspec.json.decode(line)["body"])["event"]["type"] for line in lines]


@pytest.mark.parametrize(
    "clock",
    [{"per_move_s": 1}, {"per_move_s": 60, "bank_s": -1}, {"per_move_s": 60, "limit": 0}, {"per_move": 60}],
)
async def test_bad_clocks_are_refused(api, clock):
    answer = await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3, "clock": clock})
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "bad_clock")


async def test_a_seat_that_never_acts_is_timed_out_then_taken_over_and_the_match_audits(app, api):
    runtime = app.state.runtime
    created = await create(api, seats=3, bots=[1, 2], clock={"per_move_s": 30, "bank_s": 60, "limit": 2})
    token = seat_token(created, 0)

    async def due():
        seen = await view(api, created, token)
        return seen if seen["legal"] and seen["players"][0]["clock"]["deadline"] else None

    seen = await until(due, "seat 0 never had a deadline")
    opened = seen["version"]
    players = seen["players"]
    assert [p["bot"] for p in players] == [False, True, True] and players[1]["clock"] is None
    assert players[0]["clock"]["bank_s"] == 60 and players[0]["name"] is None
    # not yet: the deadline is 90 s after the deal, nothing is timed out before it
    assert await runtime.timeouts.sweep(players[0]["clock"]["deadline"] - 1) == 0
    assert (await view(api, created, token))["version"] == opened
    timed_out = 0
    while timed_out < 2:
        await until(due, "seat 0 was not due again")
        timed_out += await runtime.timeouts.sweep(FAR)
    final = await until(
        lambda: _finished(api, created, token), "the bots did not finish the match", timeout=120
    )
    assert final["players"][0]["bot"] is True and final["players"][0]["clock"] is None
    data, types = await export_types(api, created)
    assert types.count("SeatTimedOut") == 2 and types.count("TakenOver") == 1
    report = audit(data)
    assert report.result.winners == tuple(final["result"]["winners"])
    # the fallback bot named with its generation, this release's: both moves decided again
    bots = {e.command.command["bot"] for e in envelopes(data)[1] if e.command.command and e.type == "SeatTimedOut"}
    assert bots == {bot_label(get_game("heros-tavern"), "search")} == {"search@2"} and report.legality_only == 0


async def _finished(api, created, token):
    seen = await view(api, created, token)
    return seen if seen["status"] == "finished" else None


async def test_a_new_process_still_times_out_a_pending_deadline(app, api, settings):
    created = await create(api, seats=3, bots=[1, 2], clock={"per_move_s": 30})
    token = seat_token(created, 0)

    async def tracked():
        seen = await view(api, created, token)
        pending = await app.state.runtime.timeouts.clocks.of(created["match_id"])
        return seen if seen["legal"] and pending else None

    before = (await until(tracked, "the deadline was never kept"))["version"]
    # another process, started after this deadline was written: nothing of it in its memory; the
    # first stops sweeping and gives its share back (else each sweeps its own share of the deadlines)
    app.state.runtime.upkeep.stop()
    await app.state.runtime.sweeping.leave()
    fresh = Runtime(settings, server=getattr(app.state.runtime, "server", None))
    try:
        assert await fresh.timeouts.sweep(FAR) == 1
    finally:
        await fresh.stop()
    answer = await api.get(f"/v1/matches/{created['match_id']}/events", params={"after": before}, headers=bearer(token))
    timed_out = [event["event"] for event in answer.json() if event["type"] == "SeatTimedOut"]
    assert timed_out == [{"type": "SeatTimedOut", "seat": 0, "streak": 1}]
