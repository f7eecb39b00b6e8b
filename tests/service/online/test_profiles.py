"""Players' profiles and the lobby's live matches, on each backend: a profile shows the name, the
ratings per game and the recent matches, newest first, each with its standing, and for a public
match the spectator token that replays it (none for a private one); a public match is listed live
once it starts, with a spectator token that sees no seat's hidden things and sends nothing, and
leaves the list when it ends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.service.backends import BACKENDS
from tests.service.client import bearer
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def eventually(look: Callable[[], Awaitable[Any]], good: Callable[[Any], bool]) -> Any:
    for _ in range(1000):  # the projector writes what is looked for as it projects the end
        seen = await look()
        if good(seen):
            return seen
        await asyncio.sleep(0.01)
    raise AssertionError(f"never so: {seen}")


async def conceded(host: Person, guest: Person, private: bool = False) -> str:
    created = await host.create(game="mercenaries", seats=2, open=[1], private=private)
    await guest.join(created["match_id"], **({"invite": created["invite"]} if private else {}))
    answer = await guest.call("POST", f"/v1/matches/{created['match_id']}/commands", {"type": "Concede"}, seat=True)
    assert answer.status_code == 200, answer.text
    return created["match_id"]


async def test_a_profile_shows_ratings_and_recent_matches_with_their_replays(api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    public = await conceded(ann, ben)
    private = await conceded(ben, ann, private=True)

    async def look() -> dict:
        return (await api.get(f"/v1/players/{ann.id}/profile")).json()

    profile = await eventually(look, lambda seen: len(seen["recent"]) == 2 and "mercenaries" in seen["ratings"])
    assert (profile["player_id"], profile["name"], profile["bot"]) == (ann.id, "Ann", False)
    assert profile["ratings"]["mercenaries"]["matches"] >= 1
    newest, older = profile["recent"]
    assert (newest["match_id"], older["match_id"]) == (private, public)
    assert newest["finished"] >= older["finished"]
    assert {k: older[k] for k in ("game", "seat", "seats", "rank", "won", "ended", "rated")} == {
        "game": "mercenaries", "seat": 0, "seats": 2, "rank": 1, "won": True, "ended": "conceded", "rated": True}
    assert newest["watch_token"] is None and newest["seat"] == 1
    replay = await api.get(f"/v1/matches/{public}/replay", headers=bearer(older["watch_token"]))
    assert replay.status_code == 200 and replay.json()[-1]["version"] > 0
    watch = bearer(older["watch_token"])
    answer = await api.post(f"/v1/matches/{public}/commands", json={"type": "Pass"}, headers=watch)
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "spectator")  # a spectator's token
    won = (await api.get(f"/v1/players/{ben.id}/profile?recent=1")).json()  # recorded in the same projection
    assert [m["match_id"] for m in won["recent"]] == [private] and won["recent"][0]["rank"] == 1
    assert (await api.get(f"/v1/players/{ben.id}/profile?recent=5")).json()["recent"][1]["won"] is False


async def test_profile_refusals(api):
    answer = await api.get("/v1/players/0123456789abcdef/profile")
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_such_player")
    ann = await Person(api).register("Ann")
    for recent in ("0", "51", "x"):
        answer = await api.get(f"/v1/players/{ann.id}/profile?recent={recent}")
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad_query"), recent
    assert (await api.get(f"/v1/players/{ann.id}/profile")).json()["recent"] == []


async def test_a_public_match_is_watched_live_from_the_lobby_until_it_ends(api):
    ann, ben, cat, dee = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat", "Dee")]
    created = await ann.create(game="mercenaries", seats=2, open=[1])
    hidden = await cat.create(game="mercenaries", seats=2, open=[1], private=True)
    assert (await api.get("/v1/lobby/live")).json() == {"matches": [], "next": None}  # none started yet
    await ben.join(created["match_id"])
    await dee.join(hidden["match_id"], invite=hidden["invite"])
    page = (await api.get("/v1/lobby/live")).json()
    assert [m["match_id"] for m in page["matches"]] == [created["match_id"]]  # not the private one
    (entry,) = page["matches"]
    assert entry["game"] == "mercenaries" and [s["name"] for s in entry["seats"]] == ["Ann", "Ben"]
    assert (await api.get("/v1/lobby/live?game=mercenaries")).json()["matches"] == page["matches"]
    assert (await api.get("/v1/lobby/live?game=taverna")).json()["matches"] == []
    watch = bearer(entry["spectator_token"])
    url = f"/v1/matches/{created['match_id']}"
    seen = await eventually(lambda: api.get(f"{url}/view", headers=watch), lambda a: a.json()["version"] > 0)
    view = seen.json()
    assert view["seat"] is None and view["legal"] == [] and [p["name"] for p in view["players"]] == ["Ann", "Ben"]
    mine = (await ann.call("GET", f"{url}/view", seat=True)).json()
    assert mine["view"] != view["view"]  # the seat sees its own hand; the spectator does not
    refused = await api.post(f"{url}/commands", json={"type": "Concede"}, headers=watch)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "spectator")
    await ben.call("POST", f"{url}/commands", {"type": "Concede"}, seat=True)
    await eventually(lambda: api.get("/v1/lobby/live"), lambda a: a.json()["matches"] == [])
    answer = await api.get("/v1/lobby/live?game=chess")
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "unknown_game")
