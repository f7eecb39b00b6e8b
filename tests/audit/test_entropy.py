"""Seat entropy: the opening waits for every played seat's contribution, draws from the seed with
them folded in, and the auditor recomputes it from the opening entries."""

from __future__ import annotations

import msgspec
import pytest

from projections.audit import AuditFailure, audit
from projections.chain import commitment, effective_seed
from tests.audit.forgery import envelopes, rechain
from tests.service.client import bearer, create, play_to_end, seat_token, send, view

pytestmark = pytest.mark.anyio


async def give(api, created, holder_token, entropy="dice from my own pocket"):
    url = f"/v1/matches/{created['match_id']}/entropy"
    return await api.post(url, json={"entropy": entropy}, headers=bearer(holder_token))


async def test_the_opening_waits_for_every_played_seat_and_the_audit_recomputes_it(api):
    created = await create(api, seats=3, bots=[2], seat_entropy=True)
    waiting = await view(api, created, seat_token(created, 0))
    assert waiting["status"] == "waiting" and waiting["version"] == 0 and waiting["legal"] == []
    refused = await send(api, created, 0, {"type": "PickCard", "card": "ht-market-07"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "waiting_for_entropy"
    first = await give(api, created, seat_token(created, 0), "zero")
    assert first.status_code == 200 and first.json() == {"seat": 0, "waiting_for": [1], "opened": False}
    again = await give(api, created, seat_token(created, 0), "zero again")
    assert again.status_code == 422 and again.json()["error"]["code"] == "entropy_already_given"
    bot = await give(api, created, seat_token(created, 2))
    assert bot.status_code == 422 and bot.json()["error"]["code"] == "entropy_not_expected"
    spectator = await give(api, created, created["spectator_token"])
    assert spectator.status_code == 403
    last = await give(api, created, seat_token(created, 1), "one")
    assert last.json() == {"seat": 1, "waiting_for": [], "opened": True}
    late = await give(api, created, seat_token(created, 1), "late")
    assert late.status_code == 422
    await play_to_end(api, created, [0, 1], seed=3)
    url = f"/v1/matches/{created['match_id']}/export"
    data = (await api.get(url, headers=bearer(created["spectator_token"]))).content
    assert audit(data).result.standings
    header, chain = envelopes(data)
    assert chain[0].command.entropy == {"0": "zero", "1": "one"}
    assert effective_seed(header.seed, chain[0].command.entropy) != header.seed
    # another contribution, every hash redone: the opening deal no longer follows
    forged = [msgspec.structs.replace(e, command=msgspec.structs.replace(e.command, entropy={"0": "zero", "1": "two"}))
              if e.command.id is None else e for e in chain]
    with pytest.raises(AuditFailure) as failure:
        audit(rechain(header.charter, header.seed, forged))
    assert failure.value.line == 2 and "opening deal" in failure.value.reason
    # a contribution dropped: the charter names the seats it waits for
    dropped = [msgspec.structs.replace(e, command=msgspec.structs.replace(e.command, entropy={"0": "zero"}))
               if e.command.id is None else e for e in chain]
    with pytest.raises(AuditFailure) as failure:
        audit(rechain(header.charter, header.seed, dropped))
    assert failure.value.line == 2 and "entropy" in failure.value.reason


def test_the_effective_seed_is_documented_folding():
    seed = "ab" * 32
    once = commitment(f"{seed}|0|x")  # SHA-256 of the text, hex
    assert effective_seed(seed, {"0": "x"}) == once
    assert effective_seed(seed, {"1": "y", "0": "x"}) == commitment(f"{once}|1|y")
    assert effective_seed(seed, None) == effective_seed(seed, {}) == seed


async def test_a_match_without_seat_entropy_takes_none(api):
    created = await create(api, seats=3)
    answer = await give(api, created, seat_token(created, 0))
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "entropy_not_expected"
