"""A correspondence match played over simulated days (issue 34): the entries' times come from a
fake clock handed to the command handler, the sweeper is handed "now". Two seats take turns a day
apart; one goes quiet: at its deadline it takes its vacation day (its deadline moves a day later),
at the next it times out and, at the clock's limit, a bot takes its seat over; the other concedes.
The export audits clean, vacation day included, and a forged allowance is refused."""

from __future__ import annotations

import msgspec
import pytest

from projections.audit import AuditFailure, audit
from tests.audit.forgery import envelopes, rechain
from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token, send, view
from tests.service.online.test_clocks import export_types, until

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
DAY = 86400.0
CLOCK = {"per_move_s": 2 * DAY, "vacation_days": 1, "limit": 1}


async def test_a_correspondence_match_over_days_with_a_vacation_day_a_timeout_and_a_takeover(app, api):
    runtime = app.state.runtime
    created = await create(api, seats=2, game="mercenaries", clock=CLOCK)
    tokens = [seat_token(created, seat) for seat in (0, 1)]
    start = await until(lambda: _due(api, created, tokens), "no seat was ever due")
    now = [start[1]["players"][start[0]]["clock"]["deadline"] - 2 * DAY]  # the opening's time
    runtime.handler.now = lambda: now[0]

    for _ in range(4):  # turns, each played a day after the one before: within the two days a move
        seat, seen = await until(lambda: _due(api, created, tokens), "nobody was due")
        now[0] += DAY
        answer = await send(api, created, seat, {**seen["legal"][0], "expected_version": seen["version"]})
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        await until(lambda seat=seat, version=version: _at(api, created, tokens[seat], version), "not projected")

    quiet, seen = await until(lambda: _due(api, created, tokens), "nobody was due")
    clock = seen["players"][quiet]["clock"]
    assert clock["vacation_days_left"] == 1
    deadline = clock["deadline"]
    assert deadline > now[0] + DAY  # two days from the turn it became due
    assert await runtime.timeouts.sweep(deadline - 1) == 0
    assert await runtime.timeouts.sweep(deadline + 1) == 1  # its vacation day, not a timeout

    async def moved():
        shown = (await view(api, created, tokens[quiet]))["players"][quiet]["clock"]
        return shown if shown["deadline"] != deadline else None

    shown = await until(moved, "the vacation day was never shown")
    assert shown == {"deadline": deadline + DAY, "bank_s": 0.0, "vacation_days_left": 0}
    assert await runtime.timeouts.sweep(deadline + DAY - 1) == 0
    assert await runtime.timeouts.sweep(deadline + DAY + 1) == 1  # now it times out: taken over (limit 1)
    now[0] = deadline + DAY + 2

    async def taken():
        seen = await view(api, created, tokens[quiet])
        return seen if seen["players"][quiet]["bot"] else None

    await until(taken, "the seat was never taken over")
    other = 1 - quiet
    answer = await send(api, created, other, {"type": "Concede"})
    assert answer.status_code == 200, answer.text

    async def finished():
        seen = await view(api, created, tokens[other])
        return seen if seen["status"] == "finished" else None

    final = await until(finished, "the match did not finish")
    assert final["result"]["winners"] == [quiet]
    data, types = await export_types(api, created)
    assert types.count("VacationTaken") == 1 and types.count("SeatTimedOut") == 1
    assert types.count("TakenOver") == 1 and "Conceded" in types
    assert types.index("VacationTaken") < types.index("SeatTimedOut") < types.index("TakenOver")
    report = audit(data)
    assert report.result.winners == (quiet,)
    header, chain = envelopes(data)
    assert chain[-1].time - chain[0].time > 4 * DAY  # the log's own times span the simulated days

    # a vacation day beyond the allowance is not the rules': the audit refuses it
    forged = [
        msgspec.structs.replace(e, command=msgspec.structs.replace(e.command, command={"type": "TakeVacation",
                                                                                        "allowance": 0}))
        if e.type == "VacationTaken" else e
        for e in chain
    ]
    with pytest.raises(AuditFailure, match="taken its 0 vacation day"):
        audit(rechain(header.charter, header.seed, forged))


async def _due(api, created, tokens):
    """The seat that must move now (its deadline shown), and its view."""
    for seat, token in enumerate(tokens):
        seen = await view(api, created, token)
        if seen["legal"] and seen["players"][seat]["clock"]["deadline"]:
            return seat, seen
    return None


async def _at(api, created, token, version):
    answer = await api.get(f"/v1/matches/{created['match_id']}/view", headers=bearer(token))
    return answer.json()["version"] >= version
