"""The chat's answers against the published /openapi.json (closed: no property it does not declare),
each operation's success and refusals, and its request bodies against their schemas."""

from __future__ import annotations

import pytest

from tests.service.chat.test_chat_api import LIMITS, MODERATOR, seat, spectator, table
from tests.service.contract.published import Published
from tests.service.limits.test_open_matches import client, gateway

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", ["fakeredis"], indirect=True)]
CHAT = "/v1/matches/{match_id}/chat"


async def test_every_chat_answer_is_what_its_operation_declares(settings):
    async with gateway(settings, LIMITS) as (app, _), client(app) as api:
        published = Published((await api.get("/openapi.json")).json())
        chat, created = await table(api, bots=[1])

        async def call(method: str, leaf: str, headers: dict, body: dict | None = None, **params: str) -> dict:
            template = CHAT + leaf
            if body is not None:
                name = {"": "Say", "/blocks": "Block", "/reports": "ReportLine", "/removals": "Removal"}[leaf]
                published.component(name, body)
            answer = await api.request(method, chat + leaf, json=body, headers=headers, params=params)
            media = answer.headers["content-type"].split(";")[0]
            shown = answer.json() if media == "application/json" else answer.text
            published.answer(method.lower(), template, answer.status_code, shown, media)
            return shown if isinstance(shown, dict) else {}

        said = await call("POST", "", seat(created, 0), {"text": "hello"})
        await call("POST", "", spectator(created), {"text": "hi", "name": "Eve"})
        await call("POST", "", seat(created, 0), {"text": ""})  # 400
        await call("GET", "", seat(created, 0))
        await call("GET", "", spectator(created), after=said["id"])
        await call("GET", "", MODERATOR, channel="spectators")
        await call("GET", "", seat(created, 0), channel="spectators")  # 403
        await call("GET", "", {})  # 401
        await call("POST", "/blocks", seat(created, 0), {"sender": "1"})
        await call("POST", "/blocks", spectator(created), {"sender": "0", "blocked": False})  # 403
        await call("POST", "/reports", spectator(created), {"id": said["id"], "reason": "?"})  # 404
        await call("GET", "/reports", MODERATOR)
        await call("GET", "/reports", seat(created, 0))  # 401
        await call("POST", "/removals", MODERATOR, {"channel": "players", "id": said["id"], "reason": "x"})
        await call("GET", "/export", seat(created, 0))  # 409
        for _ in range(LIMITS.chat_burst):
            await call("POST", "", seat(created, 0), {"text": "more"})  # the last ones 429
        await api.post(f"/v1/matches/{created['match_id']}/commands", json={"type": "Concede"},
                       headers=seat(created, 0))
        await call("GET", "/export", spectator(created))
        missing = await api.get("/v1/matches/nope/chat", headers=seat(created, 0))
        published.answer("get", CHAT, missing.status_code, missing.json())
        statuses = {label.rpartition(" ")[2] for label in published.counts if label.startswith(("GET", "POST"))}
        assert statuses == {"200", "201", "400", "401", "403", "404", "409", "429"}
