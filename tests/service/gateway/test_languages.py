"""The API in English and French (docs/i18n.md): the same match's answers (content, view, events,
replay, a refused command, an error) are identical in both languages except for their texts; the
content's ETag differs per language; a registered player's setting wins over Accept-Language."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.service.client import bearer, create, send, view
from tests.service.online.lobby_client import Person

# the language's choice is the gateway's: one backend is enough here
pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", ["fakeredis"], indirect=True)]
FR, EN = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}, {"Accept-Language": "en-GB,en;q=0.9"}

# The fields that are texts, by path ("*": any key or index); every other value must be equal in
# both languages. Content: its name, rules, terms' and scoring's display names, items' names and
# texts; events and frames: the narration; errors: the message; the games' list: names and options'
# descriptions; and each one's ``language``.
TEXTS = {
    ("name",), ("rules", "*"), ("terms", "*"), ("scoring", "*"), ("items", "*", "name"), ("items", "*", "text"),
    ("language",),
    ("*", "narration"), ("*", "language"), ("error", "message"), ("*", "name"), ("*", "options", "*", "description"),
}  # fmt: skip


def is_text(path: tuple[Any, ...]) -> bool:
    return any(
        len(pattern) == len(path) and all(p in ("*", step) for p, step in zip(pattern, path, strict=True))
        for pattern in TEXTS
    )


def differing_texts(en: Any, fr: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str, str]]:
    """Walks both answers: the same shape and the same values outside ``TEXTS``; the text fields that
    differ, with their two values."""
    if is_text(path):
        assert isinstance(en, str) and isinstance(fr, str), path
        return [(path, en, fr)] if en != fr else []
    assert type(en) is type(fr), path
    if isinstance(en, dict):
        assert en.keys() == fr.keys(), path
        return [found for key in en for found in differing_texts(en[key], fr[key], (*path, key))]
    if isinstance(en, list):
        assert len(en) == len(fr), path
        return [
            found for n, (a, b) in enumerate(zip(en, fr, strict=True)) for found in differing_texts(a, b, (*path, n))
        ]
    assert en == fr, path
    return []


async def both(api, url: str, **headers: str) -> tuple[Any, Any]:
    en = await api.get(url, headers={**headers, **EN})
    fr = await api.get(url, headers={**headers, **FR})
    assert en.status_code == fr.status_code
    if en.status_code == 200 and en.headers.get("content-language"):
        assert (en.headers["content-language"], fr.headers["content-language"]) == ("en", "fr")
        assert "Accept-Language" in en.headers["vary"]
    return en.json(), fr.json()


async def finished_taverna(api) -> dict:
    created = await create(api, seats=2, bots=[0, 1], game="taverna", bot="greedy")
    for _ in range(3000):
        if (await view(api, created, created["spectator_token"]))["status"] == "finished":
            return created
        await asyncio.sleep(0.02)
    raise AssertionError("the bots' match did not finish")


async def test_a_matchs_answers_differ_only_in_their_texts(api):
    created = await finished_taverna(api)
    url, token = f"/v1/matches/{created['match_id']}", bearer(created["spectator_token"])
    en, fr = await both(api, f"{url}/view", **token)
    assert en == fr  # a view holds no texts: ids and numbers only
    for leaf in ("events", "replay"):
        en, fr = await both(api, f"{url}/{leaf}", **token)
        texts = differing_texts(en, fr)
        narrated = [item for item in en if item["narration"]]
        # every entry is narrated, each in French (a sentence of names and numbers alone aside)
        assert {item["language"] for item in en} == {"en"} and {item["language"] for item in fr} == {"fr"}
        assert len([t for t in texts if t[0][-1] == "narration"]) >= 0.9 * len(narrated), leaf
    en, fr = await both(api, "/v1/games/taverna/content")
    texts = differing_texts(en, fr)
    assert (en["language"], fr["language"]) == ("en", "fr")
    assert {path[0] for path, _, _ in texts} >= {"rules", "terms", "items"}
    assert fr["terms"]["dwarf"] == "Nain" and fr["terms"]["notary"] == "Notaire"  # the rulebook's words
    en, fr = await both(api, "/v1/games")
    named = {path[0]: said for path, _, said in differing_texts(en, fr) if path[-1] == "name"}
    assert named[0] == "La Taverne des Héros" and len(named) == 3  # Taverna is Taverna


async def test_refusals_and_errors_keep_their_codes_in_both_languages(api):
    created = await create(api, seats=3)
    command = {"type": "PickCard", "card": "not-a-card"}
    answers = [await send(api, created, 0, command, accept_language=lang) for lang in ("en", "fr")]
    assert [a.status_code for a in answers] == [422, 422]
    en, fr = answers[0].json(), answers[1].json()
    assert differing_texts(en, fr) and en["error"]["code"] == fr["error"]["code"] == "not_your_card"
    assert "n'est pas dans votre main" in fr["error"]["message"]
    assert answers[1].headers["content-language"] == "fr"
    en, fr = await both(api, "/v1/games/chess/content")
    assert en["error"]["code"] == fr["error"]["code"] == "unknown_game" and fr["error"]["message"].startswith(
        "aucun jeu"
    )
    en, fr = await both(api, f"/v1/matches/{created['match_id']}/events")  # no token: 401, said in each language
    assert differing_texts(en, fr) and en["error"]["code"] == "no_token"
    wrong = await api.get("/v1/games/taverna/content?lang=xx")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "bad_query")


async def test_each_language_has_its_own_etag(api):
    en = await api.get("/v1/games/taverna/content", headers=EN)
    fr = await api.get("/v1/games/taverna/content?lang=fr", headers=EN)  # ?lang= wins over the header
    assert fr.headers["content-language"] == "fr" and en.headers["etag"] != fr.headers["etag"]
    held = await api.get("/v1/games/taverna/content", headers={**FR, "If-None-Match": fr.headers["etag"]})
    assert held.status_code == 304
    other = await api.get("/v1/games/taverna/content", headers={**FR, "If-None-Match": en.headers["etag"]})
    assert other.status_code == 200 and other.content == fr.content


async def test_a_players_setting_wins_over_accept_language(api):
    host = Person(api)
    created = await api.post("/v1/players", json={"name": "Aline", "language": "fr"})
    assert created.status_code == 201 and created.json()["language"] == "fr"
    host.id, host.token = created.json()["player_id"], created.json()["token"]
    content = await api.get("/v1/games/taverna/content", headers={**bearer(host.token), **EN})
    assert content.headers["content-language"] == "fr"
    match_id = (await host.create(game="heros-tavern", seats=3, open=[1, 2]))["match_id"]
    await host.call("POST", f"/v1/matches/{match_id}/start")
    events = await api.get(f"/v1/matches/{match_id}/events", headers={**bearer(host.seat_token), **EN})
    assert events.headers["content-language"] == "fr" and events.json()[0]["language"] == "fr"
    changed = await api.patch(f"/v1/players/{host.id}", json={"language": "en"}, headers=bearer(host.token))
    assert changed.status_code == 200 and changed.json()["language"] == "en"
    events = await api.get(f"/v1/matches/{match_id}/events", headers={**bearer(host.seat_token), **FR})
    assert events.headers["content-language"] == "en"
    cleared = await api.patch(f"/v1/players/{host.id}", json={"language": ""}, headers=bearer(host.token))
    assert cleared.status_code == 200
    events = await api.get(f"/v1/matches/{match_id}/events", headers={**bearer(host.seat_token), **FR})
    assert events.headers["content-language"] == "fr"  # no setting: the header decides again
    other = await Person(api).register("Bruno")
    refused = await api.patch(f"/v1/players/{host.id}", json={"language": "fr"}, headers=bearer(other.token))
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_this_player")
    bad = await api.patch(f"/v1/players/{host.id}", json={"language": "xx"}, headers=bearer(host.token))
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad_language")
