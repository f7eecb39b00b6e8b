"""An idle match is ended as abandoned by an Abandoned event in its log (replays and the audit see
it), then archived and evicted like a finished one; on a directory and on an S3-compatible server
(moto's, an emulator of S3's HTTP API, started here on a free port)."""

from __future__ import annotations

import asyncio
import json
import time

import boto3
import httpx
import pytest

from projections.audit import audit
from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store import archive, keys
from services.store.archive import S3Archive
from tests.service.client import bearer, create, seat_token, wait_for
from tests.service.s3 import BUCKET
from tests.service.store.partitioned import DEPLOYED

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["directory", "s3"])
def lifecycle_settings(request, tmp_path) -> Settings:
    quick = {"archive_grace_s": 1.0, "idle_limit_s": 2.0, "archive_every_s": 0.1, "queue_name": "abandon"}
    if request.param == "directory":
        return Settings(redis_url=None, queue_url=None, archive_dir=str(tmp_path / "archive"), **quick)
    endpoint = request.getfixturevalue("s3_endpoint")
    return Settings(redis_url=None, queue_url=None, archive_s3_bucket=BUCKET, archive_s3_endpoint=endpoint, **quick)


async def until(check, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_idle_matches_are_abandoned_then_archived(lifecycle_settings):
    app = create_app(lifecycle_settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            idle = await create(api, seats=3, bots=[1, 2])
            seen = await wait_for(api, idle, seat_token(idle, 0), 1)
            done = (await api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": [0, 1]})).json()
            spectator = bearer(done["spectator_token"])
            watcher = bearer(idle["spectator_token"])

            async def over(created: dict, headers: dict) -> bool:
                answer = await api.get(f"/v1/matches/{created['match_id']}/view", headers=headers)
                return answer.json()["status"] == "finished"

            await until(lambda: over(done, spectator), 60)
            await until(lambda: over(idle, watcher))  # idle past the limit: ended, by an event in its log
            export = await api.get(f"/v1/matches/{done['match_id']}/export", headers=spectator)
            ended = await api.get(f"/v1/matches/{idle['match_id']}/view", headers=watcher)
            assert ended.json()["result"] == {"winners": [], "standings": ended.json()["result"]["standings"],
                                              "details": {"ended": "abandoned"}}
            events = (await api.get(f"/v1/matches/{idle['match_id']}/events", headers=watcher)).json()
            assert events[-1]["type"] == "Abandoned" and events[-1]["command"]["seat"] == 0
            assert [e["type"] for e in events].count("Abandoned") == 1
            abandoned = await api.get(f"/v1/matches/{idle['match_id']}/export", headers=watcher)
            assert abandoned.status_code == 200  # over: the seed is revealed and the log audits
            assert audit(abandoned.content).result.details == {"ended": "abandoned"}
            before = [
                (await api.get(f"/v1/matches/{idle['match_id']}/{read}", headers=watcher)).content
                for read in ("events", "view", "replay", "export")
            ]
            # the match took no command once abandoned
            late = await api.post(
                f"/v1/matches/{idle['match_id']}/commands", json=seen["legal"][0], headers=bearer(seat_token(idle, 0))
            )
            assert late.status_code in (409, 422), late.text  # match_finished, or match_ended once archived

            async def evicted() -> bool:
                return not await runtime.events.exists(keys.meta(idle["match_id"]), keys.meta(done["match_id"]))

            await until(evicted)
            for game, match_id in (("heros-tavern", idle["match_id"]), ("mercenaries", done["match_id"])):
                assert not await runtime.events.keys(f"match:{{{match_id}}}:*")
                assert await runtime.events.zscore(DEPLOYED.key(keys.live(game), match_id), match_id) is None
                assert await runtime.events.zscore(DEPLOYED.key(keys.FINISHED, match_id), match_id) is None
            meta = json.loads(await runtime.archive.get(archive.meta_name(idle["match_id"])))
            assert meta["ended"] == "abandoned"
            if isinstance(runtime.archive, S3Archive):  # really in the bucket, under the documented names
                listed = boto3.client("s3", endpoint_url=lifecycle_settings.archive_s3_endpoint).list_objects_v2(
                    Bucket=BUCKET
                )
                names = {item["Key"] for item in listed["Contents"]}
                assert archive.export_name(done["match_id"]) in names and archive.meta_name(idle["match_id"]) in names

            after = [
                (await api.get(f"/v1/matches/{idle['match_id']}/{read}", headers=watcher)).content
                for read in ("events", "view", "replay", "export")
            ]
            assert after == before
            again = await api.get(f"/v1/matches/{done['match_id']}/export", headers=spectator)
            assert again.status_code == 200 and again.content == export.content
            refused = await api.post(
                f"/v1/matches/{idle['match_id']}/commands", json=seen["legal"][0], headers=bearer(seat_token(idle, 0))
            )
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "match_ended", refused.text
