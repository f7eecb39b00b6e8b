"""Old matches keep auditing and replaying after an event schema change, through the game's upcasters.

tests/audit/fixtures/heros-tavern-rules-1.jsonl is a real export written by the service under
Hero's Tavern rules version 1. Here, in a test-only rules version 2, the event ``CardPicked``
renames its field ``card`` to ``card_id`` (as a real schema change would); the upcaster keyed
(1, "CardPicked") lifts the old events, and the old file audits and replays under version 2.
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import msgspec
import pytest

import domain.heros_tavern as heros_tavern
from domain.heros_tavern import GAME
from domain.heros_tavern.events import CardPicked, HtEvent
from domain.kernel import Event, fold
from projections.audit import AuditFailure, audit, verify_chain
from projections.replay import frames
from projections.upcasting import UpcastError, event_decoder, upcast
from tests.service.client import bearer, create
from tests.service.gateway.test_contract import wait_finished

FIXTURE = Path(__file__).parent / "fixtures" / "heros-tavern-rules-1.jsonl"


class CardPickedV2(Event, frozen=True, tag="CardPicked"):
    seat: int
    card_id: str | None


V2Event = typing.Union[tuple(CardPickedV2 if kind is CardPicked else kind for kind in typing.get_args(HtEvent))]  # noqa: UP007


def to_v2(event: Event) -> Event:
    return CardPickedV2(seat=event.seat, card_id=event.card) if isinstance(event, CardPicked) else event


def to_v1(event: Event) -> Event:
    return CardPicked(seat=event.seat, card=event.card_id) if isinstance(event, CardPickedV2) else event


def rename_card(event: dict) -> dict:
    event["card_id"] = event.pop("card")
    return event


def shown_v2(event: Event, seat: int | None) -> Event | None:
    shown = GAME.event_view(to_v1(event), seat)
    return None if shown is None else to_v2(shown)


V2 = dataclasses.replace(
    GAME,
    rules_version=2,
    event_type=V2Event,
    begin=lambda state, rng: [to_v2(e) for e in GAME.begin(state, rng)],
    evolve=lambda state, event: GAME.evolve(state, to_v1(event)),
    decide=lambda state, command, seat, rng: [to_v2(e) for e in GAME.decide(state, command, seat, rng)],
    event_view=shown_v2,
    upcasters={(1, "CardPicked"): rename_card},
)


def test_the_fixture_is_an_old_rules_version_and_audits_under_it():
    data = FIXTURE.read_bytes()
    assert msgspec.json.decode(verify_chain(data).header.charter)["rules_version"] == 1
    assert audit(data).rules_version == 1 and b'\\"card\\":' in data  # the old field name


def test_without_the_upcaster_version_2_cannot_read_the_old_file():
    without = dataclasses.replace(V2, upcasters={})
    with pytest.raises(AuditFailure) as failure:
        audit(FIXTURE.read_bytes(), games=lambda _: without)
    assert "CardPicked" in failure.value.reason or "card_id" in failure.value.reason


def test_with_the_upcaster_the_old_file_audits_under_version_2():
    report = audit(FIXTURE.read_bytes(), games=lambda _: V2)
    assert report.rules_version == 1 and report.commands > 0  # the match keeps its recorded version
    assert report.result == audit(FIXTURE.read_bytes()).result


def test_with_the_upcaster_the_old_file_replays_under_version_2():
    chain = verify_chain(FIXTURE.read_bytes(), games=lambda _: V2)
    assert any(isinstance(event, CardPickedV2) for event in chain.events)
    old = verify_chain(FIXTURE.read_bytes())
    replayed = list(frames(V2, chain.setup, chain.events, 0, whole=False))
    original = list(frames(GAME, old.setup, old.events, 0, whole=False))
    assert [frame.view for frame in replayed] == [frame.view for frame in original]
    assert GAME.result(fold(V2, chain.setup, chain.events)) == GAME.result(fold(GAME, old.setup, old.events))


def test_upcasters_apply_from_the_recorded_version_only():
    event = {"type": "CardPicked", "seat": 1, "card": "ht-market-07"}
    assert upcast(V2, 2, dict(event)) == event  # already current: untouched
    assert upcast(V2, 1, dict(event)) == {"type": "CardPicked", "seat": 1, "card_id": "ht-market-07"}
    with pytest.raises(UpcastError):
        upcast(GAME, 2, dict(event))  # a match from newer rules than this code
    decode = event_decoder(V2, 1)
    assert decode(msgspec.json.encode(event)) == CardPickedV2(seat=1, card_id="ht-market-07")


@pytest.mark.anyio
async def test_the_service_keeps_serving_a_match_recorded_before_the_change(app, api, monkeypatch):
    """A match played under version 1; then the code moves to version 2: the service still folds,
    replays, feeds and exports it (its recorded version is 1), and the export audits under 2."""
    created = await create(api, seats=3, bots=[0, 1, 2], bot="random")
    await wait_finished(api, created)
    monkeypatch.setattr(heros_tavern, "GAME", V2)
    runtime = app.state.runtime
    runtime.matches._cache.clear()  # as a restarted service would: nothing of version 1 in memory
    runtime.folds._cache.clear()
    url, auth = f"/v1/matches/{created['match_id']}", bearer(created["spectator_token"])
    frames_v2 = (await api.get(f"{url}/replay", params={"seat": 1}, headers=auth)).json()
    assert frames_v2[-1]["view"]["winners"] and any(
        frame["event"] and frame["event"]["type"] == "CardPicked" and "card_id" in frame["event"] for frame in frames_v2
    )
    events = (await api.get(f"{url}/events", headers=auth)).json()
    assert len(events) == len(frames_v2) - 1
    data = (await api.get(f"{url}/export", headers=auth)).content
    assert b'\\"card\\":' in data  # the log itself is never rewritten
    report = audit(data, games=lambda _: V2)
    assert report.rules_version == 1 and report.result.winners == tuple(frames_v2[-1]["view"]["winners"])
