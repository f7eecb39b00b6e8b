"""The inbox (issue 34): a registered player's running matches, its turn or waiting on others,
each ordered by the time left; live over one SSE stream per player."""

from __future__ import annotations

import asyncio
import json

import pytest

from services.commands.inbox import Inbox
from services.store.inbox import InboxEntry
from tests.service.backends import BACKENDS
from tests.service.client import bearer, sse_frames
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
DAY = 86400


async def match_of(host: Person, guest: Person, days: int) -> str:
    created = await host.create(game="mercenaries", seats=2, open=[1], clock={"per_move_s": days * DAY})
    await guest.join(created["match_id"])
    return created["match_id"]


async def inbox_of(person: Person, wanted) -> dict:
    for _ in range(3000):
        answer = await person.call("GET", "/v1/players/me/inbox")
        assert answer.status_code == 200, answer.text
        if wanted(answer.json()):
            return answer.json()
        await asyncio.sleep(0.01)
    raise AssertionError(f"the inbox never showed it: {answer.json()}")


def entries(page: dict) -> dict[str, dict]:
    return {entry["match_id"]: entry for entry in page["your_turn"] + page["waiting"]}


async def test_the_inbox_lists_each_running_match_its_turn_or_not_with_the_time_left(app, api):
    ann, ben, cat = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    first = await match_of(ann, ben, 2)
    ann_first = ann.seat_token
    second = await match_of(ann, cat, 1)
    page = await inbox_of(ann, lambda page: set(entries(page)) == {first, second})
    for match_id, token in ((first, ann_first), (second, ann.seat_token)):
        seen = (await api.get(f"/v1/matches/{match_id}/view", headers=bearer(token))).json()
        entry = entries(page)[match_id]
        assert (entry["seat"], entry["game"], entry["your_turn"]) == (0, "mercenaries", bool(seen["legal"]))
        due = next(p for p in seen["players"] if p["clock"]["deadline"])  # whoever must move
        assert entry["deadline"] == due["clock"]["deadline"]
    for listed in (page["your_turn"], page["waiting"]):
        assert [e["deadline"] for e in listed] == sorted(e["deadline"] for e in listed)
    assert set(entries(await inbox_of(ben, lambda page: entries(page)))) == {first}
    assert set(entries(await inbox_of(cat, lambda page: entries(page)))) == {second}

    # a move turns the other seat due; a concession takes the match out of both inboxes
    tokens = {ann.id: ann_first, ben.id: ben.seat_token}  # their seats' in the first match
    mover, other = (ann, ben) if entries(page)[first]["your_turn"] else (ben, ann)
    url = f"/v1/matches/{first}"
    seen = (await api.get(f"{url}/view", headers=bearer(tokens[mover.id]))).json()
    moved = await api.post(f"{url}/commands", json=seen["legal"][0], headers=bearer(tokens[mover.id]))
    assert moved.status_code == 200, moved.text
    version = moved.json()["version"]
    while (seen := (await api.get(f"{url}/view", headers=bearer(tokens[other.id]))).json())["version"] < version:
        await asyncio.sleep(0.01)
    # the entry moves only when the turn does (a move may leave the same seat to act again)
    await inbox_of(other, lambda page: entries(page)[first]["your_turn"] == bool(seen["legal"]))
    conceded = await api.post(f"{url}/commands", json={"type": "Concede"}, headers=bearer(tokens[ben.id]))
    assert conceded.status_code == 200, conceded.text
    await inbox_of(ben, lambda page: not entries(page))
    await inbox_of(ann, lambda page: set(entries(page)) == {second})
    assert (await api.get("/v1/players/me/inbox")).status_code == 401


async def test_the_inbox_orders_by_time_left_clockless_matches_last(backend_inboxes):
    inbox = Inbox(backend_inboxes)
    for match_id, mine, deadline, since in (("a", True, None, 5.0), ("b", True, 300.0, 9.0), ("c", True, 200.0, 9.0),
                                            ("d", False, 100.0, 1.0), ("e", True, None, 1.0)):
        await backend_inboxes.put("p", InboxEntry(match_id, "taverna", 0, 1, mine, deadline, since))
    page = await inbox.page("p")
    assert [e.match_id for e in page.your_turn] == ["c", "b", "e", "a"] and [e.match_id for e in page.waiting] == ["d"]
    assert page.revision == 5


@pytest.fixture
def backend_inboxes(app):
    return app.state.runtime.inbox.inboxes


async def test_the_inbox_stream_sends_the_inbox_then_each_change(served, api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    async with served.stream("GET", "/v1/players/me/inbox/stream", headers=bearer(ben.token), timeout=10) as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        frames = sse_frames(stream)
        frame = await anext(frames)  # at once: the inbox as it is, empty
        assert frame["event"] == "inbox" and json.loads(frame["data"]) == {"revision": 0, "your_turn": [],
                                                                            "waiting": []}
        match_id = await match_of(ann, ben, 3)
        while not entries(page := json.loads((frame := await anext(frames))["data"])):
            pass
        assert int(frame["id"]) == page["revision"] > 0 and set(entries(page)) == {match_id}
        conceded = await ben.call("POST", f"/v1/matches/{match_id}/commands", {"type": "Concede"}, seat=True)
        assert conceded.status_code == 200, conceded.text
        while entries(json.loads((frame := await anext(frames))["data"])):
            pass
        last = frame["id"]
    bad = await served.get("/v1/players/me/inbox/stream", headers=bearer(ben.token) | {"Last-Event-ID": "x-1"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_last_event_id"
    assert (await served.get("/v1/players/me/inbox/stream")).status_code == 401
    # resumed at its last revision: nothing is sent again until the inbox changes
    resumed = bearer(ben.token) | {"Last-Event-ID": last}
    async with served.stream("GET", "/v1/players/me/inbox/stream", headers=resumed, timeout=10) as stream:
        frames = sse_frames(stream)
        again = await match_of(ann, ben, 3)
        frame = await anext(frames)
        assert int(frame["id"]) > int(last) and again in entries(json.loads(frame["data"]))
