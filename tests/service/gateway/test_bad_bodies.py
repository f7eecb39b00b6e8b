"""Every route that takes a JSON body (each operation of /openapi.json with a ``requestBody``), sent
invalid UTF-8 with the credentials it asks for, answers 400 with the API's stable code for a bad
body (``bad_command`` for a command, else ``bad_request``), never a 500; with the limits the deploy
kit ships (the create rate aside), on fakeredis and a real redis-server."""

from __future__ import annotations

import pytest

from services.ops.limits import Limits
from tests.service.backends import BACKENDS
from tests.service.client import bearer
from tests.service.limits.test_open_matches import client, gateway
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
KEY = "frontend-key"
# as deploy/tavern.env sets them, but the create and registration rates and the chat's: 60 bodies a
# route are sent from one address (and one seat) at once, and this test is about what a body makes
# of them, not about rates
SHIPPED = Limits(api_keys=frozenset({KEY}), create_identity="player", creates_per_s=0, chat_per_s=0)
INVALID = [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc0\x80", b"\xf4\x90\x80\x80",
           b"\xe2\x82"]
FIELDS = [b"name", b"invite", b"entropy", b"game", b"type", b"card", b"bot", b"url", b"secret", b"endpoint", b"text",
          b"sender", b"id", b"reason", b"channel", b"kind"]


def bodies() -> list[bytes]:
    """Invalid UTF-8 as a string value of each field any body route reads, inside a key, and bare."""
    out = []
    for invalid in INVALID:
        out += [b'{"' + field + b'": "' + invalid + b'"}' for field in FIELDS]
        out += [b'{"se' + invalid + b'at": 1}', invalid, b'{"seat": 1, "invite": "ab' + invalid + b'cd"}']
    return out


async def test_invalid_utf8_in_any_body_is_a_400_with_a_stable_code(settings):
    async with gateway(settings, SHIPPED) as (app, _), client(app) as api:
        ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
        hosted = await ann.create(game="heros-tavern", seats=3, open=[1], bots=[2], private=True)
        waiting = await ann.create(game="mercenaries", seats=2, seat_entropy=True)
        playing = await ann.create(game="taverna", seats=2, bots=[1])
        credentials = {  # the caller each route serves: anything else is refused before the body is read
            "/v1/matches": bearer(ann.token),
            "/v1/matches/{match_id}/commands": bearer(playing["seats"][0]["token"]),
            "/v1/matches/{match_id}/entropy": bearer(waiting["seats"][0]["token"]),
            "/v1/players": {},
            "/v1/matches/{match_id}/join": bearer(ben.token),
            "/v1/challenges": bearer(ben.token),
            "/v1/players/{player_id}/webhooks": bearer(ben.token),
            "/v1/players/{player_id}/push-subscriptions": bearer(ben.token),
            "/v1/matchmaking/tickets": bearer(ben.token),
            "/v1/tournaments": bearer(ann.token),
            "/v1/matches/{match_id}/chat": bearer(playing["seats"][0]["token"]),
            "/v1/matches/{match_id}/chat/blocks": bearer(playing["seats"][0]["token"]),
            "/v1/matches/{match_id}/chat/reports": bearer(playing["seats"][0]["token"]),
            "/v1/matches/{match_id}/chat/removals": {"x-api-key": KEY},
        }
        chat = {path: playing for path in credentials if "/chat" in path}
        match_of = {"/v1/matches/{match_id}/commands": playing, "/v1/matches/{match_id}/entropy": waiting, **chat}
        spec = (await api.get("/openapi.json")).json()
        routes = [path for path, ops in spec["paths"].items() if "requestBody" in ops.get("post", {})]
        assert sorted(routes) == sorted(credentials), "a new route with a body: give it its caller here"
        for path in routes:
            url = path.replace("{match_id}", match_of.get(path, hosted)["match_id"]).replace("{player_id}", ben.id)
            code = "bad_command" if path.endswith("/commands") else "bad_request"
            for body in bodies():
                headers = {"content-type": "application/json", **credentials[path]}
                answer = await api.post(url, content=body, headers=headers)
                assert answer.status_code == 400, (path, body, answer.text)
                assert answer.json()["error"]["code"] == code, (path, body, answer.text)
