"""Table chat through the API (docs/chat.md), on fakeredis and a real redis-server, with the shipped
limits but a moderator's key: the players' and spectators' channels apart, the length and rate
limits (429 with Retry-After, from a bucket of its own), blocks, reports, a moderator's removal
kept as a line, and the chat exported beside the match's log, which it never enters."""

from __future__ import annotations

import dataclasses

import httpx
import pytest

from projections.audit import audit
from services.ops.limits import Limits
from services.store import keys
from tests.service.client import bearer, seat_token, wait_for
from tests.service.limits.test_open_matches import client, gateway

pytestmark = pytest.mark.anyio
KEY = "moderators-key"
MODERATOR = {"x-api-key": KEY}
LIMITS = dataclasses.replace(Limits(), api_keys=frozenset({KEY}), create_identity="none")


async def table(api: httpx.AsyncClient, bots: list[int] | None = None) -> tuple[str, dict]:
    """A 2-seat match: its chat's path and its creation's answer."""
    answer = await api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": bots or []})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return f"/v1/matches/{created['match_id']}/chat", created


def seat(created: dict, number: int) -> dict[str, str]:
    return bearer(seat_token(created, number))


def spectator(created: dict) -> dict[str, str]:
    return bearer(created["spectator_token"])


async def say(api: httpx.AsyncClient, chat: str, headers: dict, text: str, **extra: str) -> httpx.Response:
    return await api.post(chat, json={"text": text, **extra}, headers=headers)


async def texts(api: httpx.AsyncClient, chat: str, headers: dict, **query: str) -> list[str]:
    answer = await api.get(chat, headers=headers, params=query)
    assert answer.status_code == 200, answer.text
    return [line["text"] for line in answer.json()["lines"]]


def code(answer: httpx.Response) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


async def test_players_and_spectators_talk_on_channels_apart(settings):
    async with gateway(settings, LIMITS) as (app, _), client(app) as api:
        chat, created = await table(api)
        said = await say(api, chat, seat(created, 0), "  good luck  ")
        assert said.status_code == 201
        line = said.json()
        assert (line["sender"], line["text"], line["kind"], line["removed"]) == ("0", "good luck", "said", False)
        await say(api, chat, spectator(created), "go seat 1", name="Eve")
        page = (await api.get(chat, headers=seat(created, 1))).json()
        assert page["channel"] == "players" and [x["text"] for x in page["lines"]] == ["good luck"]
        watched = (await api.get(chat, headers=spectator(created))).json()
        assert watched["channel"] == "spectators" and [(x["name"], x["text"]) for x in watched["lines"]] == [
            ("Eve", "go seat 1")]
        assert watched["lines"][0]["sender"].startswith("v")
        assert await texts(api, chat, seat(created, 0), after=line["id"]) == []
        assert code(await api.get(chat, headers=seat(created, 0), params={"channel": "spectators"})) == (
            403, "chat_channel")
        assert code(await api.get(chat, headers=spectator(created), params={"channel": "players"})) == (
            403, "chat_channel")
        assert code(await api.get(chat, headers=seat(created, 0), params={"after": "x"})) == (400, "bad_query")
        assert code(await api.get(chat)) == (401, "no_token")
        assert code(await api.post(chat, json={"text": "hi"}, headers=bearer("nope"))) == (403, "wrong_token")
        # a moderator reads either channel
        assert await texts(api, chat, MODERATOR, channel="spectators") == ["go seat 1"]


async def test_a_message_past_the_length_limit_or_empty_is_refused_and_not_kept(settings):
    async with gateway(settings, LIMITS) as (app, _), client(app) as api:
        chat, created = await table(api)
        longest = "é" * LIMITS.chat_chars
        assert code(await say(api, chat, seat(created, 0), longest + "x")) == (400, "chat_too_long")
        assert code(await say(api, chat, seat(created, 0), " \n ")) == (400, "chat_empty")
        assert code(await say(api, chat, spectator(created), "hi", name="N" * 41)) == (400, "bad_request")
        assert code(await api.post(chat, json={"text": "hi", "extra": 1}, headers=seat(created, 0))) == (
            400, "bad_request")
        assert (await say(api, chat, seat(created, 0), longest)).status_code == 201
        assert await texts(api, chat, seat(created, 1)) == [longest]


async def test_a_flood_from_one_seat_is_answered_429_while_its_commands_are_all_accepted(settings):
    # the shipped burst, refilled slower than this test takes (at 1/s a slow projection lets a token in)
    limits = dataclasses.replace(LIMITS, chat_per_s=0.001)
    async with gateway(settings, limits) as (app, runtime), client(app) as api:
        chat, created = await table(api, bots=[1])
        statuses = [(await say(api, chat, seat(created, 0), f"spam {n}")).status_code for n in range(20)]
        assert statuses[: LIMITS.chat_burst] == [201] * LIMITS.chat_burst and set(statuses[LIMITS.chat_burst:]) == {
            429}
        refused = await say(api, chat, seat(created, 0), "more")
        assert code(refused) == (429, "rate_limited") and int(refused.headers["retry-after"]) >= 1
        assert code(await api.post(f"{chat}/reports", json={"id": "1-0"}, headers=seat(created, 0))) == (
            429, "rate_limited")  # its reports and blocks draw on the same bucket
        # refused by the gateway's memory of the empty bucket until it refills: a flood costs no Redis call
        await runtime.events.delete(keys.rate("chat", "0", created["match_id"]))
        assert code(await say(api, chat, seat(created, 0), "again")) == (429, "rate_limited")
        # the other seat and the spectators have buckets of their own
        assert (await say(api, chat, spectator(created), "calm down")).status_code == 201
        # the flooding seat's commands, each sent while its chat is refused: each accepted
        match_id, sent = created["match_id"], 0
        view = await wait_for(api, created, seat_token(created, 0), 1)
        while not view["legal"]:  # the opening projected, seat 0 to play
            view = await wait_for(api, created, seat_token(created, 0), view["version"])
        while view["legal"] and sent < 5:
            assert (await say(api, chat, seat(created, 0), "still spamming")).status_code == 429
            command = {**view["legal"][0], "expected_version": view["version"]}
            answer = await api.post(f"/v1/matches/{match_id}/commands", json=command, headers=seat(created, 0))
            assert answer.status_code == 200, answer.text
            sent += 1
            version = answer.json()["version"]
            while view["version"] < version or (view["legal"] == [] and view["status"] != "finished"):
                view = (await api.get(f"/v1/matches/{match_id}/view", headers=seat(created, 0))).json()
        assert sent >= 1
        assert len(await texts(api, chat, seat(created, 0))) == LIMITS.chat_burst


async def test_a_seat_never_receives_the_lines_of_a_sender_it_blocked(settings):
    async with gateway(settings, LIMITS) as (app, _), client(app) as api, client(app, "10.0.0.9") as other:
        chat, created = await table(api)
        await say(api, chat, seat(created, 1), "before")
        blocked = await api.post(f"{chat}/blocks", json={"sender": "1"}, headers=seat(created, 0))
        assert blocked.status_code == 200 and blocked.json() == {"blocked": ["1"]}
        await say(api, chat, seat(created, 1), "after")
        await say(api, chat, seat(created, 0), "mine")
        page = (await api.get(chat, headers=seat(created, 0))).json()
        assert [x["text"] for x in page["lines"]] == ["mine"] and page["blocked"] == ["1"]
        assert await texts(other, chat, seat(created, 1)) == ["before", "after", "mine"]  # the blocked still talks
        unblocked = await api.post(f"{chat}/blocks", json={"sender": "1", "blocked": False}, headers=seat(created, 0))
        assert unblocked.json() == {"blocked": []}
        assert await texts(api, chat, seat(created, 0)) == ["before", "after", "mine"]
        assert code(await api.post(f"{chat}/blocks", json={"sender": "0"}, headers=seat(created, 0))) == (
            400, "chat_bad_sender")
        assert code(await other.post(f"{chat}/blocks", json={"sender": "0"}, headers=spectator(created))) == (
            403, "chat_seats_only")


async def test_a_report_is_kept_for_the_moderators_who_remove_the_line_as_a_line_of_its_own(settings):
    async with gateway(settings, LIMITS) as (app, _), client(app) as api:
        chat, created = await table(api)
        rude = (await say(api, chat, seat(created, 1), "something rude")).json()
        await say(api, chat, seat(created, 0), "hey")
        reported = await api.post(f"{chat}/reports", json={"id": rude["id"], "reason": "insult"},
                                  headers=seat(created, 0))
        assert reported.status_code == 201, reported.text
        assert code(await api.post(f"{chat}/reports", json={"id": "1-0"}, headers=seat(created, 0))) == (
            404, "no_such_line")
        assert code(await api.post(f"{chat}/reports", json={"id": rude["id"]}, headers=spectator(created))) == (
            404, "no_such_line")  # not a line of the spectators' channel
        assert code(await api.get(f"{chat}/reports", headers=seat(created, 0))) == (401, "moderator_required")
        assert code(await api.get(f"{chat}/reports", headers={"x-api-key": "guess"})) == (401, "moderator_required")
        (kept,) = (await api.get(f"{chat}/reports", headers=MODERATOR)).json()["reports"]
        assert kept["id"] == reported.json()["report"]
        assert (kept["report"]["reporter"], kept["report"]["reason"], kept["report"]["line"]["text"]) == (
            "0", "insult", "something rude")

        removal = {"channel": "players", "id": rude["id"], "reason": "insult"}
        assert code(await api.post(f"{chat}/removals", json=removal, headers=seat(created, 0))) == (
            401, "moderator_required")
        removed = await api.post(f"{chat}/removals", json=removal, headers=MODERATOR)
        assert removed.status_code == 201
        assert (removed.json()["kind"], removed.json()["target"]) == ("removed", rude["id"])
        lines = (await api.get(chat, headers=seat(created, 0))).json()["lines"]
        assert [(x["kind"], x["text"], x["removed"]) for x in lines] == [
            ("said", "", True), ("said", "hey", False), ("removed", "insult", False)]
        # a reader that had the line already learns of its removal from the lines after
        after = (await api.get(chat, headers=seat(created, 1), params={"after": rude["id"]})).json()["lines"]
        assert after[-1]["target"] == rude["id"]
        assert code(await api.post(f"{chat}/removals", json=removal | {"channel": "spectators"},
                                   headers=MODERATOR)) == (404, "no_such_line")
        assert code(await api.post(f"{chat}/removals", json=removal | {"channel": "x"}, headers=MODERATOR)) == (
            400, "bad_request")
        missing = await api.post("/v1/matches/nope/chat/removals", json=removal, headers=MODERATOR)
        assert code(missing) == (404, "no_such_match")


async def test_moderators_see_every_matchs_open_reports_oldest_first_until_each_is_handled(settings):
    async with gateway(settings, LIMITS) as (app, _), client(app) as api:
        reported = []
        for n in range(3):  # a report in each of 3 matches, then a second in the first
            chat, created = await table(api)
            line = (await say(api, chat, seat(created, 1), f"rude {n}")).json()
            answer = await api.post(f"{chat}/reports", json={"id": line["id"], "reason": f"r{n}"},
                                    headers=seat(created, 0))
            reported.append((created["match_id"], answer.json()["report"], chat, created))
        first_chat, first = reported[0][2], reported[0][3]
        line = (await say(api, first_chat, spectator(first), "rude again", name="Sam")).json()
        again = await api.post(f"{first_chat}/reports", json={"id": line["id"]}, headers=spectator(first))
        reported.append((first["match_id"], again.json()["report"], first_chat, first))

        assert code(await api.get("/v1/moderation/reports", headers=seat(first, 0))) == (401, "moderator_required")
        whole = (await api.get("/v1/moderation/reports", headers=MODERATOR)).json()
        assert (whole["open"], whole["next"]) == (4, None)
        assert [(r["match_id"], r["id"]) for r in whole["reports"]] == [(m, r) for m, r, _, _ in reported]
        assert [r["report"]["line"]["text"] for r in whole["reports"]] == ["rude 0", "rude 1", "rude 2", "rude again"]
        assert whole["reports"][3]["report"]["channel"] == "spectators"
        assert all(r["at"] == int(r["id"].partition("-")[0]) for r in whole["reports"])
        paged = (await api.get("/v1/moderation/reports", headers=MODERATOR, params={"offset": 1, "limit": 2})).json()
        assert ([r["id"] for r in paged["reports"]], paged["next"]) == ([reported[1][1], reported[2][1]], 3)
        assert code(await api.get("/v1/moderation/reports", headers=MODERATOR, params={"limit": 0})) == (
            400, "bad_query")

        _, report_id, chat, _ = reported[1]
        handle = f"{chat}/reports/{report_id}"
        assert code(await api.delete(handle, headers=seat(reported[1][3], 0))) == (401, "moderator_required")
        assert (await api.delete(handle, headers=MODERATOR)).status_code == 204
        assert code(await api.delete(handle, headers=MODERATOR)) == (404, "no_such_report")
        assert code(await api.delete(f"{first_chat}/reports/{report_id}", headers=MODERATOR)) == (
            404, "no_such_report")  # another match's
        assert code(await api.delete(f"{chat}/reports/x", headers=MODERATOR)) == (400, "bad_query")
        left = (await api.get("/v1/moderation/reports", headers=MODERATOR)).json()
        assert (left["open"], [r["match_id"] for r in left["reports"]]) == (3, [first["match_id"], reported[2][0],
                                                                              first["match_id"]])
        # handled, not forgotten: the match's own reports keep it
        assert [r["id"] for r in (await api.get(f"{chat}/reports", headers=MODERATOR)).json()["reports"]] == [
            report_id]


async def test_the_chat_is_exported_beside_the_match_and_its_audit_chain_is_unchanged(settings):
    async with gateway(settings, LIMITS) as (app, runtime), client(app) as api:
        chat, created = await table(api, bots=[1])
        match_id = created["match_id"]
        await say(api, chat, seat(created, 0), "gl hf")
        assert code(await api.get(f"{chat}/export", headers=seat(created, 0))) == (409, "match_running")
        conceded = await api.post(f"/v1/matches/{match_id}/commands", json={"type": "Concede"},
                                  headers=seat(created, 0))
        assert conceded.status_code == 200, conceded.text
        log = await runtime.events.xrange(keys.log(match_id))
        export = await api.get(f"/v1/matches/{match_id}/export", headers=seat(created, 0))
        assert export.status_code == 200
        await say(api, chat, seat(created, 0), "gg")
        rude = (await say(api, chat, spectator(created), "boo", name="Eve")).json()
        await api.post(f"{chat}/removals", json={"channel": "spectators", "id": rude["id"]}, headers=MODERATOR)
        # the match's log and export are the same bytes, and audit, whatever was said
        assert await runtime.events.xrange(keys.log(match_id)) == log
        again = await api.get(f"/v1/matches/{match_id}/export", headers=spectator(created))
        assert again.content == export.content and b"gl hf" not in again.content
        assert audit(again.content).result is not None
        exported = await api.get(f"{chat}/export", headers=spectator(created))
        assert exported.status_code == 200 and exported.headers["content-type"] == "application/x-ndjson"
        header, *lines = [httpx.Response(200, content=line).json() for line in exported.content.splitlines()]
        assert header == {"format": "tavern-chat/1", "match_id": match_id, "channels": ["players", "spectators"]}
        assert [(x["channel"], x["line"]["kind"], x["line"]["text"]) for x in lines] == [
            ("players", "said", "gl hf"), ("players", "said", "gg"), ("spectators", "said", ""),
            ("spectators", "removed", "")]
        assert (await api.get(f"{chat}/export", headers=MODERATOR)).content == exported.content
