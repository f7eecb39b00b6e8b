"""The bare ASGI endpoint of commands: what Starlette answered before it still is answered."""

from __future__ import annotations

import json

import pytest

from services.gateway import command_path
from services.gateway.asgi import match_in
from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token, view

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("path", "match_id"),
    [
        ("/v1/matches/abc/commands", "abc"),
        ("/v1/matches//commands", None),
        ("/v1/matches/a/b/commands", None),
        ("/v1/matches/abc/view", None),
        ("/v2/matches/abc/commands", None),
        ("/v1/matches/commands", None),
        ("/v1/matches/abcommands", None),
    ],
)
def test_only_a_commands_path_names_a_match(path, match_id):
    assert match_in(path, "commands") == match_id


@pytest.mark.parametrize("settings", BACKENDS, indirect=True)
async def test_only_a_post_on_commands_is_a_command(api):
    created = await create(api)
    seen = await view(api, created, seat_token(created, 0))
    url = f"/v1/matches/{created['match_id']}/commands"
    answer = await api.put(url, json=seen["legal"][0], headers=bearer(seat_token(created, 0)))
    assert answer.status_code == 405  # from the web client's mount at "/", which takes what no route does
    assert (await view(api, created, seat_token(created, 0)))["version"] == seen["version"]


@pytest.mark.parametrize("settings", BACKENDS, indirect=True)
async def test_a_body_in_several_chunks_is_read_whole(api):
    created = await create(api)
    seen = await view(api, created, seat_token(created, 0))
    body = json.dumps(seen["legal"][0]).encode()

    async def chunks():
        for start in range(0, len(body), 3):
            yield body[start : start + 3]

    answer = await api.post(
        f"/v1/matches/{created['match_id']}/commands", content=chunks(), headers=bearer(seat_token(created, 0))
    )
    assert answer.status_code == 200, answer.text


class Recorder:
    def __init__(self) -> None:
        self.lines: list[tuple[str, dict]] = []

    def exception(self, event: str, **fields) -> None:
        self.lines.append((event, fields))


@pytest.mark.parametrize("settings", BACKENDS, indirect=True)
async def test_a_failure_inside_is_a_500_with_an_error_body_and_a_log_line(api, app, monkeypatch):
    created = await create(api)
    seen = await view(api, created, seat_token(created, 0))

    async def broken(*args, **kwargs):
        raise RuntimeError("the store is on fire")

    monkeypatch.setattr(app.state.runtime.handler, "submit", broken)
    log = Recorder()
    monkeypatch.setattr(command_path, "log", log)
    answer = await api.post(
        f"/v1/matches/{created['match_id']}/commands", json=seen["legal"][0], headers=bearer(seat_token(created, 0))
    )
    assert answer.status_code == 500
    assert answer.json()["error"]["code"] == "internal"
    assert log.lines == [("command_failed", {"match_id": created["match_id"]})]
