"""Bot accounts (docs/bots.md) through the API: flagged and listed, kept out of the lobby; a person
challenges a bot, which accepts or declines, the challenger may cancel, an unanswered challenge
lapses; each side hears the other on its event stream; an unrated challenge moves no rating."""

from __future__ import annotations

import asyncio
import json

import pytest

from services.commands import challenges
from services.commands.ratings import rated
from tests.service.backends import BACKENDS
from tests.service.client import bearer, sse_frames
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def register_bot(api, name: str = "Rando Bot") -> Person:
    bot = Person(api)
    answer = await bot.call("POST", "/v1/players", {"name": name, "bot": True}, auth=False)
    assert answer.status_code == 201 and answer.json()["bot"], answer.text
    bot.id, bot.token = answer.json()["player_id"], answer.json()["token"]
    return bot


async def challenge(person: Person, bot: Person, status: int = 201, **asked) -> dict:
    answer = await person.call("POST", "/v1/challenges", {"bot": bot.id, "game": "mercenaries", **asked})
    assert answer.status_code == status, answer.text
    return answer.json()


def code(answer) -> str:
    return answer.json()["error"]["code"]


async def test_a_bot_account_is_flagged_listed_and_may_say_it_is_a_bot(api):
    ann = await Person(api).register("Ann")
    refused = await api.post("/v1/players", json={"name": "Rando Bot"})
    assert refused.status_code == 422 and code(refused) == "bot_name"  # a person's name may not
    bots = [await register_bot(api, f"Bot {n}") for n in range(3)]
    profile = (await api.get(f"/v1/players/{bots[0].id}")).json()
    assert profile["bot"] and not (await api.get(f"/v1/players/{ann.id}")).json()["bot"]
    first = (await api.get("/v1/bots?limit=2")).json()
    assert [bot["player_id"] for bot in first["bots"]] == [bots[0].id, bots[1].id] and first["next"] == 2
    rest = (await api.get("/v1/bots?offset=2")).json()
    assert [bot["name"] for bot in rest["bots"]] == ["Bot 2"] and rest["next"] is None


async def test_a_bot_hosts_no_lobby_match_joins_none_and_challenges_nobody(api):
    ann, bot = await Person(api).register("Ann"), await register_bot(api)
    hosted = await bot.call("POST", "/v1/matches", {"game": "mercenaries", "seats": 2, "open": [1]})
    assert hosted.status_code == 403 and code(hosted) == "bot_lobby"
    created = await ann.create(game="mercenaries", seats=2, open=[1])
    joined = await bot.call("POST", f"/v1/matches/{created['match_id']}/join", {})
    assert joined.status_code == 403 and code(joined) == "bot_lobby"
    other = await register_bot(api, "Other Bot")
    assert code(await bot.call("POST", "/v1/challenges", {"bot": other.id, "game": "taverna"})) == "bot_challenger"
    alone = await bot.call("POST", "/v1/matches", {"game": "mercenaries", "seats": 2, "bots": [1]})
    assert alone.status_code == 201  # a classic match against the service's bots: allowed, never rated


async def test_a_challenge_is_refused_when_it_names_no_bot_or_no_match(api):
    ann, ben, bot = await Person(api).register("Ann"), await Person(api).register("Ben"), await register_bot(api)
    assert code(await ann.call("POST", "/v1/challenges", {"bot": ben.id, "game": "taverna"})) == "no_such_bot"
    assert (await challenge(ann, bot, 400, game="chess"))["error"]["code"] == "unknown_game"
    assert (await challenge(ann, bot, 422, game="heros-tavern", seats=3))["error"]["code"] == "rated_needs_two"
    assert (await challenge(ann, bot, 422, seats=3, rated=False))["error"]["code"] == "bad_seats"  # mercenaries: two
    assert (await challenge(ann, bot, 422, seat=2))["error"]["code"] == "bad_seat"
    assert (await challenge(ann, bot, 422, clock={"per_move_s": 1}))["error"]["code"] == "bad_clock"
    three = await challenge(ann, bot, game="heros-tavern", seats=3, rated=False, seat=1)
    assert (three["seat"], three["bot_seat"], three["status"]) == (1, 0, "pending")


async def test_declined_cancelled_and_answered_once_each_side_told(app, api):
    ann, cat, bot = await Person(api).register("Ann"), await Person(api).register("Cat"), await register_bot(api)
    declined = await challenge(ann, bot)
    url = f"/v1/challenges/{declined['challenge_id']}"
    assert code(await ann.call("POST", f"{url}/accept")) == "not_yours"  # the bot answers, not its challenger
    assert (await cat.call("GET", url)).status_code == 404  # nobody else sees it
    assert (await bot.call("POST", f"{url}/decline")).json() == {
        "challenge_id": declined["challenge_id"],
        "status": "declined",
    }
    assert (await ann.call("GET", url)).json()["status"] == "declined"
    late = await bot.call("POST", f"{url}/accept")
    assert late.status_code == 409 and code(late) == "challenge_answered"
    cancelled = await challenge(ann, bot)
    assert code(await bot.call("POST", f"/v1/challenges/{cancelled['challenge_id']}/cancel")) == "not_yours"
    assert (await ann.call("POST", f"/v1/challenges/{cancelled['challenge_id']}/cancel")).status_code == 200
    assert code(await bot.call("POST", f"/v1/challenges/{cancelled['challenge_id']}/accept")) == "challenge_answered"
    runtime = app.state.runtime
    heard_by_bot = [json.loads(raw)["type"] for _, raw in await runtime.challenges.events(bot.id, "0-0", 10)]
    heard_by_ann = [json.loads(raw) for _, raw in await runtime.challenges.events(ann.id, "0-0", 10)]
    assert heard_by_bot == ["challenge", "challenge", "challenge_cancelled"]
    assert heard_by_ann == [{"type": "challenge_declined", "challenge_id": declined["challenge_id"]}]


async def test_an_unanswered_challenge_lapses(api, monkeypatch):
    monkeypatch.setattr(challenges, "TTL_S", 1)
    ann, bot = await Person(api).register("Ann"), await register_bot(api)
    asked = await challenge(ann, bot)
    assert asked["expires"] - asked["created"] == pytest.approx(1)
    await asyncio.sleep(1.2)
    gone = await bot.call("POST", f"/v1/challenges/{asked['challenge_id']}/accept")
    assert gone.status_code == 404 and code(gone) == "no_such_challenge"


async def test_accepted_the_challenger_joins_its_kept_seat_and_only_a_rated_challenge_is_rated(app, api):
    ann, bot = await Person(api).register("Ann"), await register_bot(api)
    runtime = app.state.runtime
    for rated_asked in (True, False):
        asked = await challenge(ann, bot, rated=rated_asked, seat=1)
        accepted = await bot.call("POST", f"/v1/challenges/{asked['challenge_id']}/accept")
        assert accepted.status_code == 200, accepted.text
        match_id, bot_seat = accepted.json()["match_id"], accepted.json()["seat"]
        assert bot_seat == 0 and accepted.json()["token"]
        lobby = (await api.get("/v1/lobby")).json()["matches"]
        assert all(entry["match_id"] != match_id for entry in lobby)  # not on the lobby's pages
        seen = (await ann.call("GET", f"/v1/challenges/{asked['challenge_id']}")).json()
        assert (seen["status"], seen["match_id"]) == ("accepted", match_id)
        joined = await ann.join(match_id)
        assert joined["seat"] == 1 and joined["started"]
        bot.seat_token = accepted.json()["token"]
        conceded = await bot.call("POST", f"/v1/matches/{match_id}/commands", {"type": "Concede"}, seat=True)
        assert conceded.status_code == 200, conceded.text
        match = await runtime.matches.get(match_id)
        counted = rated(match, await runtime.folds.load(match))
        if rated_asked:
            assert counted is not None and dict(counted.ranks) == {ann.id: 1, bot.id: 2}
        else:
            assert counted is None and match.unrated


async def test_the_event_stream_sends_challenges_and_resumes_after_its_last_event_id(served, api):
    ann, bot = await Person(api).register("Ann"), await register_bot(api)
    first = await challenge(ann, bot)
    async with served.stream("GET", "/v1/events", headers=bearer(bot.token), timeout=10) as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        frames = sse_frames(stream)
        frame = await anext(frames)  # sent before the stream opened: within the last TTL_S, so sent
        assert frame["event"] == "challenge" and json.loads(frame["data"])["challenge"] == first
        await ann.call("POST", f"/v1/challenges/{first['challenge_id']}/cancel")
        cancelled = await anext(frames)
        assert cancelled["event"] == "challenge_cancelled" and cancelled["id"] > frame["id"]
    second = await challenge(ann, bot)
    resumed = bearer(bot.token) | {"Last-Event-ID": cancelled["id"]}
    async with served.stream("GET", "/v1/events", headers=resumed, timeout=10) as stream:
        frame = await anext(sse_frames(stream))
        assert json.loads(frame["data"])["challenge"]["challenge_id"] == second["challenge_id"]
    bad = await served.get("/v1/events", headers=bearer(bot.token) | {"Last-Event-ID": "7"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_last_event_id"
    assert (await served.get("/v1/events")).status_code == 401


async def test_the_event_stream_follows_the_players_started_matches_to_their_end(served, api):
    ann, bot = await Person(api).register("Ann"), await register_bot(api)
    asked = await challenge(ann, bot)
    accepted = (await bot.call("POST", f"/v1/challenges/{asked['challenge_id']}/accept")).json()
    await ann.join(accepted["match_id"])
    bot.seat_token = accepted["token"]
    async with served.stream("GET", "/v1/events", headers=bearer(ann.token), timeout=10) as stream:
        frames = sse_frames(stream)
        told = [await anext(frames) for _ in range(2)]
        assert [frame["event"] for frame in told] == ["challenge_accepted", "match_started"]
        conceded = await bot.call(
            "POST", f"/v1/matches/{accepted['match_id']}/commands", {"type": "Concede"}, seat=True
        )
        assert conceded.status_code == 200
        while (frame := await anext(frames))["event"] != "match_finished":
            assert frame["event"] == "turn" and "id" not in frame  # made from the views: nothing to resume
            assert json.loads(frame["data"])["view"]["legal"]
        finished = json.loads(frame["data"])
        assert (finished["match_id"], finished["seat"]) == (accepted["match_id"], 0)
        assert finished["view"]["status"] == "finished" and finished["view"]["result"]["standings"][0]["seat"] == 0
    # resumed after its start: a finished match is not told again; what is new is
    other = await register_bot(api, "Other Bot")
    resumed = bearer(ann.token) | {"Last-Event-ID": told[1]["id"]}
    async with served.stream("GET", "/v1/events", headers=resumed, timeout=10) as stream:
        frames = sse_frames(stream)
        await other.call("POST", f"/v1/challenges/{(await challenge(ann, other))['challenge_id']}/decline")
        assert (await anext(frames))["event"] == "challenge_declined"
