"""Concede and leave through the public API: events in the log, bots take the seats over, and the
finished match's export audits clean with them."""

from __future__ import annotations

import asyncio

import pytest

from projections.audit import audit
from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, play_to_end, seat_token, send, view, wait_for
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def export(api, created, token) -> bytes:
    answer = await api.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.content


async def test_a_seat_that_leaves_is_played_by_a_bot_and_the_export_audits(api):
    created = await create(api, seats=3, bots=[2])
    left = await send(api, created, 1, {"type": "Leave"})
    assert left.status_code == 200 and left.json()["events"] == [{"type": "TakenOver", "seat": 1, "reason": "left"}]
    again = await send(api, created, 1, {"type": "Leave"})
    assert (again.status_code, again.json()["error"]["code"]) == (422, "seat_taken_over")
    seen = await wait_for(api, created, seat_token(created, 1), left.json()["version"])
    # its player's view offers no move while the bot plays it, and says why the bot does
    assert seen["legal"] == [] and seen["players"][1]["taken"] == "left" and seen["players"][1]["bot"]
    assert seen["players"][0]["taken"] is None
    refused = await send(api, created, 1, {"type": "Concede"})  # nor may the seat act but to come back
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "seat_taken_over")
    final = await play_to_end(api, created, [0], seed=3)
    assert final["status"] == "finished"
    report = audit(await export(api, created, seat_token(created, 0)))
    assert list(report.result.winners) == final["result"]["winners"]


async def test_a_seat_that_left_takes_itself_back_and_a_conceded_one_cannot(api):
    created = await create(api, seats=3, game="taverna")
    await send(api, created, 2, {"type": "Leave"})
    back = await send(api, created, 2, {"type": "Reclaim"})
    assert back.status_code == 200, back.text
    assert back.json()["events"] == [{"type": "Reclaimed", "seat": 2}]
    seen = await wait_for(api, created, seat_token(created, 2), back.json()["version"])
    assert seen["players"][2] | {"connected": False} == {"seat": 2, "name": None, "bot": False, "connected": False,
                                                          "clock": None, "taken": None, "player_id": None}
    again = await send(api, created, 2, {"type": "Reclaim"})
    assert (again.status_code, again.json()["error"]["code"]) == (422, "not_taken_over")
    await send(api, created, 1, {"type": "Concede"})
    never = await send(api, created, 1, {"type": "Reclaim"})
    assert (never.status_code, never.json()["error"]["code"]) == (422, "conceded_for_good")
    final = await play_to_end(api, created, [0, 2], seed=5)
    report = audit(await export(api, created, seat_token(created, 0)))
    assert list(report.result.winners) == final["result"]["winners"]


async def test_conceding_a_two_seat_match_ends_it_and_a_late_concede_is_refused(api):
    created = await create(api, seats=2, game="mercenaries")
    conceded = await send(api, created, 0, {"type": "Concede"})
    assert conceded.status_code == 200
    final = await wait_for(api, created, seat_token(created, 1), conceded.json()["version"])
    assert final["status"] == "finished" and final["result"]["winners"] == [1]
    assert final["result"]["details"] == {"ended": "conceded", "conceded": [0]}
    for seat in (0, 1):
        late = await send(api, created, seat, {"type": "Concede"})
        assert (late.status_code, late.json()["error"]["code"]) == (422, "match_finished")
    assert (await view(api, created, seat_token(created, 0)))["version"] == final["version"]  # nothing appended
    report = audit(await export(api, created, seat_token(created, 1)))
    assert report.result.winners == (1,)


async def test_a_client_may_not_send_a_timeout(api):
    created = await create(api, seats=2, game="mercenaries")
    before = (await view(api, created, seat_token(created, 0)))["version"]
    for seat in (0, 1):
        answer = await send(api, created, seat, {"type": "TimedOut"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (422, "system_command")
    assert (await view(api, created, seat_token(created, 0)))["version"] == before


async def test_leaving_a_started_lobby_match_hands_the_seat_to_a_bot(api):
    host, bea = [await Person(api).register(name) for name in ("Host", "Bea")]
    match_id = (await host.create(game="heros-tavern", seats=3, open=[1, 2]))["match_id"]
    await bea.join(match_id, seat=1)
    await host.call("POST", f"/v1/matches/{match_id}/start")
    left = await bea.call("POST", f"/v1/matches/{match_id}/leave")
    assert left.status_code == 200 and left.json()["events"][0]["type"] == "TakenOver"
    # the log names the player who left, as the table shows them (issue 32: "Taken over.")
    events = (await host.call("GET", f"/v1/matches/{match_id}/events", seat=True)).json()
    said = [event["narration"] for event in events if event["type"] == "TakenOver"]
    assert said == ["Bea left the table: a bot plays the seat from now on."]
    stranger = await Person(api).register("Cy")
    refused = await stranger.call("POST", f"/v1/matches/{match_id}/leave")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "not_seated")


async def test_a_match_every_player_left_waits_out_the_grace_then_is_abandoned(app, api):
    runtime = app.state.runtime
    created = await create(api, seats=3, bots=[2])
    versions = []
    for seat in (0, 1):
        answer = await send(api, created, seat, {"type": "Leave"})
        assert answer.status_code == 200, answer.text
        versions.append(answer.json()["version"])
    match_id = created["match_id"]
    for _ in range(2000):  # the projector schedules the abandonment
        if await runtime.timeouts.abandonments.of(match_id):
            break
        await asyncio.sleep(0.01)
    due = await runtime.timeouts.abandonments.of(match_id)
    assert due is not None
    seen = await view(api, created, seat_token(created, 0))
    assert seen["status"] == "active" and seen["version"] >= versions[-1]
    assert await runtime.timeouts.sweep(due - 1) == 0  # not before the grace period is over
    await asyncio.sleep(0.3)  # (real time, for the projector: were the bots to play on, they would now)
    assert (await view(api, created, seat_token(created, 0)))["version"] == seen["version"]  # the bots wait
    assert await runtime.timeouts.sweep(due + 1) == 1
    final = await wait_for(api, created, seat_token(created, 0), seen["version"] + 1)
    assert final["status"] == "finished" and final["result"]["winners"] == []
    assert final["result"]["details"] == {"ended": "abandoned"}
    report = audit(await export(api, created, seat_token(created, 0)))
    assert report.result.details == {"ended": "abandoned"}
    late = await send(api, created, 0, {"type": "Abandon"})
    assert (late.status_code, late.json()["error"]["code"]) == (422, "system_command")


async def test_conceding_twice_in_a_match_of_three_is_refused_and_appends_nothing(api):
    created = await create(api, seats=3, bots=[2])
    conceded = await send(api, created, 0, {"type": "Concede"})
    assert conceded.status_code == 200 and conceded.json()["events"] == [{"type": "Conceded", "seat": 0}]
    again = await send(api, created, 0, {"type": "Concede"})
    assert (again.status_code, again.json()["error"]["code"]) == (422, "seat_taken_over")  # a bot plays it now
    events = (await api.get(f"/v1/matches/{created['match_id']}/events", headers=bearer(seat_token(created, 1)))).json()
    assert [e["type"] for e in events].count("Conceded") == 1
