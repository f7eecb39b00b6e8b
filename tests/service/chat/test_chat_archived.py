"""A finished match's chat goes to the archive beside its export (``{id}.chat.jsonl.gz``), with its
reports for the moderators (``{id}.reports.json.gz``), its keys leave Redis in the match's one DEL,
and the chat's export and its reports are then served from the archive, the same; the match's
export still audits, and its chat is closed."""

from __future__ import annotations

import dataclasses
import json

import pytest

from projections.audit import audit
from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store import archive, keys
from services.store.chat import CHANNELS
from tests.service.chat.test_chat_api import LIMITS, MODERATOR, say, seat, spectator, table
from tests.service.lifecycle.test_abandon import until
from tests.service.limits.test_open_matches import client

pytestmark = pytest.mark.anyio


async def test_the_chat_is_archived_beside_the_export_and_served_from_there(tmp_path):
    settings = Settings(redis_url=None, queue_url=None, archive_dir=str(tmp_path / "archive"), archive_grace_s=0.5,
                        archive_every_s=0.1, queue_name="chat-archive")
    app = create_app(dataclasses.replace(settings, limits=LIMITS))
    async with app.router.lifespan_context(app), client(app) as api:
        runtime = app.state.runtime
        chat, created = await table(api, bots=[1])
        match_id = created["match_id"]
        await say(api, chat, seat(created, 0), "gl")
        await say(api, chat, seat(created, 0), "gg")  # before the end: archiving may follow it at once
        rude = (await say(api, chat, spectator(created), "boo", name="Eve")).json()
        reported = await api.post(f"{chat}/reports", json={"id": rude["id"], "reason": "rude"},
                                  headers=spectator(created))
        assert reported.status_code == 201, reported.text
        await api.post(f"{chat}/removals", json={"channel": "spectators", "id": rude["id"]}, headers=MODERATOR)
        before = (await api.get(f"{chat}/reports", headers=MODERATOR)).json()
        conceded = await api.post(f"/v1/matches/{match_id}/commands", json={"type": "Concede"},
                                  headers=seat(created, 0))
        assert conceded.status_code == 200, conceded.text

        async def evicted() -> bool:
            return not await runtime.events.exists(keys.meta(match_id))

        await until(evicted)
        assert not await runtime.events.exists(*keys.chat_keys(match_id, CHANNELS))
        stored = await runtime.archive.get(archive.chat_name(match_id))
        meta = json.loads(await runtime.archive.get(archive.meta_name(match_id)))
        transcript = archive.decompress(stored)
        assert [json.loads(line)["line"]["text"] for line in transcript.splitlines()[1:]] == ["gl", "gg", "", ""]
        assert meta["chat_sha256"] and meta["export_sha256"]
        exported = await api.get(f"{chat}/export", headers=spectator(created))
        assert exported.status_code == 200 and exported.content == transcript
        assert audit((await api.get(f"/v1/matches/{match_id}/export", headers=seat(created, 0))).content).result
        closed = await say(api, chat, seat(created, 0), "still here?")
        assert (closed.status_code, closed.json()["error"]["code"]) == (409, "chat_closed")
        # the reports went with it, for the moderators alone: read the same from the archive
        assert before["reports"] and (await api.get(f"{chat}/reports", headers=MODERATOR)).json() == before
        after = (await api.get(f"{chat}/reports?after={reported.json()['report']}", headers=MODERATOR)).json()
        assert after == {"reports": []}
        assert (await api.get(f"{chat}/reports", headers=seat(created, 0))).status_code == 401
        assert await runtime.archive.get(archive.reports_name(match_id))


async def test_a_line_sent_while_the_match_is_archived_is_refused_not_lost(tmp_path):
    """Between the archiver's read of the chat and the match's eviction a line or a report used to be
    taken (201) and then deleted with the match, in no archive: now the chat is closed before that
    read, and either is refused 409 ``chat_closed``; what was taken is all in the archive."""
    settings = Settings(redis_url=None, queue_url=None, archive_dir=str(tmp_path / "archive"),
                        archive_grace_s=3600, queue_name="chat-archive-race")  # archived below, by hand
    app = create_app(dataclasses.replace(settings, limits=LIMITS))
    async with app.router.lifespan_context(app), client(app) as api:
        runtime = app.state.runtime
        chat, created = await table(api, bots=[1])
        match_id = created["match_id"]
        said = (await say(api, chat, seat(created, 0), "gl")).json()
        conceded = await api.post(f"/v1/matches/{match_id}/commands", json={"type": "Concede"},
                                  headers=seat(created, 0))
        assert conceded.status_code == 200, conceded.text
        assert (await say(api, chat, seat(created, 0), "gg")).status_code == 201  # finished: still open
        late = []
        put = runtime.archive.put

        async def put_then_say(name: str, data: bytes) -> None:  # the chat read, the match not evicted
            await put(name, data)
            if name == archive.chat_name(match_id):
                late.append(await say(api, chat, seat(created, 0), "too late?"))
                late.append(await api.post(f"{chat}/reports", json={"id": said["id"], "reason": "late"},
                                           headers=seat(created, 0)))

        runtime.archive.put = put_then_say
        try:
            await runtime.archiver.archive_match(match_id)
        finally:
            runtime.archive.put = put
        assert [(answer.status_code, answer.json()["error"]["code"]) for answer in late] == [(409, "chat_closed")] * 2
        assert not await runtime.events.exists(*keys.chat_keys(match_id, CHANNELS))
        transcript = archive.decompress(await runtime.archive.get(archive.chat_name(match_id)))
        assert [json.loads(line)["line"]["text"] for line in transcript.splitlines()[1:]] == ["gl", "gg"]
