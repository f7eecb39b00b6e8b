"""The service layer's outcomes as the API answers them (services/gateway/answers.py), and as an
idempotency key keeps them (services/commands/outcomes.py): the same answer again, from records of
this gateway and from the ``<status> <body>`` records of the gateways before it."""

from __future__ import annotations

from typing import get_args

import pytest

from services.commands import outcomes
from services.commands.outcomes import Accepted, Contention, Ended, Rejected, Stale
from services.commands.refused import Kind
from services.gateway import answers
from services.gateway.schemas import error
from services.store.idempotency import Idempotency
from tests.service.backends import BACKENDS
from tests.service.client import create, send, view

pytestmark = pytest.mark.anyio

ACCEPTED = b'{"version":7,"events":[{"type":"CardBought","seat":0,"card":"c1","cost":2.5}]}'
# each outcome, and the status and body an HTTP answer of it has always been
CASES = [
    (Accepted(7, [{"type": "CardBought", "seat": 0, "card": "c1", "cost": 2.5}]), 200, ACCEPTED),
    (Rejected("not_your_turn", "wait for your turn"), 422, error("not_your_turn", "wait for your turn")),
    (Rejected("system_command", "no"), 422, error("system_command", "no")),
    (Stale(12), 409, error("stale_version", "the match is at version 12", 12)),
    (Ended(), 409, error("match_ended", "the match has ended and takes no more commands")),
    (Contention(), 409, error("contention", "the match changed under every attempt; send it again")),
]


@pytest.mark.parametrize(("outcome", "status", "body"), CASES)
def test_each_outcome_answers_its_status_and_body(outcome, status, body):
    assert answers.of(outcome) == (status, body)


@pytest.mark.parametrize(("outcome", "status", "body"), CASES)
def test_a_kept_outcome_answers_the_same_and_is_no_http_answer(outcome, status, body):
    kept = outcomes.encode(outcome)
    assert not kept[:1].isdigit()  # a tagged outcome, not "<status> <body>"
    assert answers.of(outcomes.decode(kept)) == (status, body)


@pytest.mark.parametrize(("outcome", "status", "body"), CASES)
def test_a_record_kept_by_an_older_gateway_answers_the_same(outcome, status, body):
    assert answers.of(outcomes.decode(b"%d %s" % (status, body))) == (status, body)


def test_every_kind_of_refusal_has_one_status():
    assert set(answers.STATUS) == set(get_args(Kind))


@pytest.mark.parametrize("settings", BACKENDS, indirect=True)
async def test_a_key_kept_by_an_older_gateway_is_answered_from_its_record(api, app):
    created = await create(api)
    seen = await view(api, created, created["seats"][0]["token"])
    kept = Idempotency(created["match_id"], 0, "before-the-upgrade").name
    await app.state.runtime.events.set(kept, b"200 " + ACCEPTED, ex=60)
    answer = await send(api, created, 0, seen["legal"][0], idempotency_key="before-the-upgrade")
    assert (answer.status_code, answer.content) == (200, ACCEPTED)
    assert (await view(api, created, created["seats"][0]["token"]))["version"] == seen["version"]  # nothing appended
