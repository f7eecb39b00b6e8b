"""Who may create a match (TAVERN_CREATE_IDENTITY, on in the deploy kit), and the create rates per
bearer token and of player registration, in process (fakeredis and a real redis-server)."""

from __future__ import annotations

import dataclasses

import pytest

from services.ops.limits import Limits
from services.ops.settings import BadSetting, from_env
from tests.service.client import bearer
from tests.service.limits.test_open_matches import ONE_BOT, client, gateway
from tests.service.online.lobby_client import Person

pytestmark = pytest.mark.anyio
KEY = "frontend-key"


async def code(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"] if answer.status_code >= 400 else ""


@pytest.mark.parametrize(
    ("identity", "anonymous", "player", "key"),
    [
        ("player", (401, "identity_required"), (201, ""), (201, "")),
        ("key", (401, "api_key_required"), (401, "api_key_required"), (201, "")),
        ("none", (201, ""), (201, ""), (201, "")),
        ("", (401, "api_key_required"), (401, "api_key_required"), (201, "")),  # unset, keys set: "key"
    ],
)
async def test_who_may_create(settings, identity, anonymous, player, key):
    limits = Limits(creates_per_s=0, open_matches=0, api_keys=frozenset({KEY}), create_identity=identity)
    async with gateway(settings, limits) as (app, runtime), client(app) as api:
        ann = await Person(api).register("Ann")
        before = len(await runtime.events.keys("match:*:meta"))
        assert await code(await api.post("/v1/matches", json=ONE_BOT)) == anonymous
        assert await code(await api.post("/v1/matches", json=ONE_BOT, headers=bearer(ann.token))) == player
        assert await code(await api.post("/v1/matches", json=ONE_BOT, headers={"x-api-key": KEY})) == key
        wrong = await api.post("/v1/matches", json=ONE_BOT, headers={"x-api-key": "guess", **bearer(ann.token)})
        assert await code(wrong) == (401, "api_key_required")  # a wrong key is never let through
        made = sum(status == 201 for status, _ in (anonymous, player, key))
        assert len(await runtime.events.keys("match:*:meta")) == before + made


def test_the_identity_setting_is_checked():
    assert from_env({"TAVERN_CREATE_IDENTITY": "player"}).limits.identity_needed == "player"
    assert from_env({}).limits.identity_needed == "none"
    with pytest.raises(BadSetting, match="TAVERN_CREATE_IDENTITY"):
        from_env({"TAVERN_CREATE_IDENTITY": "anyone"})


async def test_a_players_create_rate_holds_from_any_address_and_registering_has_a_rate(settings):
    limits = dataclasses.replace(Limits(), creates_per_s=0.01, creates_burst=3, open_matches=0)
    async with gateway(settings, limits) as (app, _), client(app) as home, client(app, "10.0.0.2") as away:
        ann = await Person(home).register("Ann")
        statuses = [(await api.post("/v1/matches", json=ONE_BOT, headers=bearer(ann.token))).status_code
                    for api in (home, away, home, away)]
        assert statuses == [201, 201, 201, 429], statuses  # the token's bucket, wherever it calls from
        assert (await away.post("/v1/matches", json=ONE_BOT)).status_code == 201  # the address's own
        registered = [(await away.post("/v1/players", json={"name": f"P{n}"})).status_code for n in range(4)]
        assert registered == [201, 201, 201, 429], registered
        refused = await away.post("/v1/players", json={"name": "P9"})
        assert refused.json()["error"]["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1


async def test_an_api_keys_creates_draw_on_its_bucket_not_its_addresss(settings):
    """A trusted frontend and anonymous callers behind one address (its own, or a shared NAT's):
    the anonymous creates empty the address's bucket, the key's keep their own, and the other way."""
    limits = dataclasses.replace(Limits(), creates_per_s=0.01, creates_burst=3, open_matches=0,
                                 api_keys=frozenset({KEY, "other-key"}), create_identity="none")
    async with gateway(settings, limits) as (app, _), client(app) as api, client(app, "10.0.0.3") as away:
        anonymous = [(await api.post("/v1/matches", json=ONE_BOT)).status_code for _ in range(4)]
        assert anonymous == [201, 201, 201, 429], anonymous  # the address's bucket is empty
        keyed = [(await api.post("/v1/matches", json=ONE_BOT, headers={"x-api-key": KEY})).status_code
                 for _ in range(4)]
        assert keyed == [201, 201, 201, 429], keyed  # the key's own, whatever the address spent
        for _ in range(3):  # and a key spending its own leaves an address's to its anonymous callers
            elsewhere = await away.post("/v1/matches", json=ONE_BOT, headers={"x-api-key": "other-key"})
            assert elsewhere.status_code == 201
        assert (await away.post("/v1/matches", json=ONE_BOT)).status_code == 201
