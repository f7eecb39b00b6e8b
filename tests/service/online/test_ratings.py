"""Ratings: counted by the projector as rated matches finish; rebuilt from every finished match's
log alone they are the same; bot matches are not rated; the leaderboard and the player show them."""

from __future__ import annotations

import asyncio

import pytest

from services.commands.ratings import rebuild
from tests.service.backends import BACKENDS
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def rated_match(host: Person, guest: Person, loser: Person) -> str:
    created = await host.create(game="mercenaries", seats=2, open=[1])
    await guest.join(created["match_id"])
    answer = await loser.call("POST", f"/v1/matches/{created['match_id']}/commands", {"type": "Concede"}, seat=True)
    assert answer.status_code == 200, answer.text
    return created["match_id"]


async def test_ratings_rebuilt_from_the_logs_equal_those_kept_step_by_step(app, api):
    runtime = app.state.runtime
    ann, ben, cat = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    played = [
        await rated_match(ann, ben, ben),
        await rated_match(ben, cat, ben),
        await rated_match(cat, ann, ann),
        await rated_match(ann, cat, cat),
        await rated_match(ben, ann, ann),
    ]
    unrated = await Person(api).register("Dee")
    bot_match = await unrated.call("POST", "/v1/matches", {"game": "mercenaries", "seats": 2, "bots": [1]})
    assert bot_match.status_code == 201

    async def counted():  # every match in the history, and counted in each of its players' ratings
        applied = sum(rating.matches for rating in (await runtime.ratings.all("mercenaries")).values())
        return len(await runtime.ratings.history("mercenaries")) == len(played) and applied == 2 * len(played)

    for _ in range(2000):
        if await counted():
            break
        await asyncio.sleep(0.01)
    assert [match.match_id for match in await runtime.ratings.history("mercenaries")] == played
    kept = await runtime.ratings.all("mercenaries")
    assert set(kept) == {ann.id, ben.id, cat.id}
    assert await rebuild(runtime.matches, runtime.folds, [*played, bot_match.json()["match_id"]], "mercenaries") == kept
    board = (await api.get("/v1/games/mercenaries/leaderboard")).json()
    assert [row["rank"] for row in board] == [1, 2, 3]
    assert [row["player_id"] for row in board] == sorted(kept, key=lambda p: -kept[p].ordinal)
    assert board[0]["rating"]["matches"] >= 3
    me = (await api.get(f"/v1/players/{ann.id}")).json()
    assert me["ratings"]["mercenaries"]["matches"] == 4 and "taverna" not in me["ratings"]
    assert (await api.get(f"/v1/players/{unrated.id}")).json()["ratings"] == {}


async def test_the_leaderboard_of_an_unknown_game_is_404(api):
    answer = await api.get("/v1/games/chess/leaderboard")
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "unknown_game")
    assert (await api.get("/v1/games/taverna/leaderboard")).json() == []
