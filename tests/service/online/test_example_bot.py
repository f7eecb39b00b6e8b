"""The example outside bot (docs/examples/bot.py), run as a process of its own against a `tavern
serve` (the shipped settings, limits on): it hears a person's challenge on its event stream,
accepts it, and plays a rated match to the end against the seat the test plays; the match counts
in both players' ratings, the bot's flagged as a bot's on the leaderboard."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import httpx
import pytest

from tests.service.client import bearer, play_to_end
from tests.service.conftest import ROOT, serve_healthy, service_env

pytestmark = pytest.mark.anyio
GAME = "mercenaries"  # the quickest of the four to play to the end with random commands


async def test_the_example_bot_accepts_a_challenge_and_plays_a_rated_match_to_the_end(processes, tmp_path):
    base, _ = serve_healthy(processes, service_env(None))
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        bot = (await api.post("/v1/players", json={"name": "Rando Bot", "bot": True})).json()
        ann = (await api.post("/v1/players", json={"name": "Ann"})).json()
        log = open(tmp_path / "bot.log", "w")  # noqa: SIM115 (closed below)
        example = subprocess.Popen(
            [sys.executable, "docs/examples/bot.py", base, bot["token"], "1"], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=log, text=True,
        )  # fmt: skip
        try:
            asked = {"bot": bot["player_id"], "game": GAME, "rated": True}
            challenge = await api.post("/v1/challenges", json=asked, headers=bearer(ann["token"]))
            assert challenge.status_code == 201, challenge.text
            url = f"/v1/challenges/{challenge.json()['challenge_id']}"
            for _ in range(400):  # the bot answers once its event stream hears of it
                seen = (await api.get(url, headers=bearer(ann["token"]))).json()
                if seen["match_id"]:
                    break
                await asyncio.sleep(0.05)
            assert seen["status"] == "accepted" and seen["rated"], seen
            joined = await api.post(f"/v1/matches/{seen['match_id']}/join", json={}, headers=bearer(ann["token"]))
            assert joined.status_code == 200 and joined.json()["started"], joined.text
            created = {"match_id": seen["match_id"], "seats": [{"token": joined.json()["token"]}]}
            final = await play_to_end(api, created, [0], seed=3, timeout=25)
            out, _ = example.communicate(timeout=20)
        finally:
            example.kill()
            log.close()
        assert example.returncode == 0, (tmp_path / "bot.log").read_text()
        told = json.loads(out.strip().splitlines()[-1])
        assert told["match_id"] == seen["match_id"] and told["seat"] == 1 and told["result"] == final["result"]
        for _ in range(200):  # the projector counts the rated match once it has finished
            board = (await api.get(f"/v1/games/{GAME}/leaderboard")).json()
            if len(board) == 2:
                break
            await asyncio.sleep(0.05)
        flagged = {(row["player_id"], row["bot"]) for row in board}
        assert flagged == {(bot["player_id"], True), (ann["player_id"], False)}
        profile = (await api.get(f"/v1/players/{bot['player_id']}")).json()
        assert profile["bot"] and profile["ratings"][GAME]["matches"] == 1
