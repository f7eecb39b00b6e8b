"""Notifications end to end in one process (the embedded worker sends them): a webhook signed with
its secret, the Idempotency-Key its body's id, its delivery's status readable through the API; a
500 tried again after a back-off, with the same key; a Web Push message to a local stand-in of a
push service, signed with the VAPID key the API gives, that the test decrypts with the
subscription's private key (RFC 8291) and reads in the player's language; the players' choices;
nothing sent to a player watching the match. A worker killed mid-delivery: test_notify_kill.py."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import os
import time
import uuid

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from services.ops.settings import Settings
from tests.service.online.lobby_client import Person
from tests.service.receiver import Receiver

pytestmark = pytest.mark.anyio
SECRET = "a-webhook-secret-of-the-test"


@pytest.fixture
def settings() -> Settings:
    """Embedded, with a short back-off (a retry within a sweep or two). The receivers are on this
    machine, so its loopback address is allowed, as an operator allows a private network its
    receivers are on (by default only public addresses are: test_notify_egress.py)."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    return Settings(redis_url=None, queue_url=None, queue_name=queue, lease_s=1.0, notify_retry_s=0.1,
                    notify_networks=("127.0.0.1/32",))


@pytest.fixture
def receiver():
    started = Receiver()
    yield started
    started.close()


async def table(api, *hooks: Receiver | None) -> tuple[list[Person], str]:
    """Two registered players, each with a webhook on the receiver given (path: its name; None:
    none), seated at a started two-seat match (Ann's seat 0, Bob's 1): the players and the match id."""
    people = []
    for name, hook in zip(("Ann", "Bob"), hooks, strict=True):
        person = await Person(api).register(name)
        if hook is not None:
            answer = await person.call("POST", f"/v1/players/{person.id}/webhooks",
                                       {"url": f"{hook.url}/{name}", "secret": SECRET})
            assert answer.status_code == 201, answer.text
        people.append(person)
    ann, bob = people
    created = await ann.create(game="mercenaries", seats=2, open=[1])
    await bob.join(created["match_id"])
    return [ann, bob], created["match_id"]


def verified(secret: str, got) -> dict:
    """The body, once its signature header checks out: t=<unix s>,v1=<HMAC-SHA256 of "<t>." + body>."""
    fields = dict(part.split("=", 1) for part in got.headers["tavern-signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + got.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(fields["v1"], expected)
    assert abs(time.time() - int(fields["t"])) < 300
    return json.loads(got.body)


async def settled(person: Person, event_id: str, timeout_s: float = 15.0) -> dict:
    """The player's delivery of the event whose id ends with ``event_id``, once it is done
    (delivered, failed or skipped)."""
    deadline = time.monotonic() + timeout_s
    while True:
        answer = await person.call("GET", f"/v1/players/{person.id}/deliveries")
        assert answer.status_code == 200, answer.text
        found = [d for d in answer.json() if d["event_id"].endswith(event_id)]
        if found and found[0]["state"] in ("delivered", "failed", "skipped"):
            return found[0]
        assert time.monotonic() < deadline, answer.json()
        await asyncio.sleep(0.05)


async def test_a_turn_is_posted_signed_with_its_idempotency_key_and_its_status_is_readable(api, receiver):
    people, match_id = await table(api, receiver, receiver)
    got = (await receiver.wait(1))[0]
    event = verified(SECRET, got)
    assert event["type"] == "turn" and event["match_id"] == match_id and event["game"] == "mercenaries"
    assert got.headers["idempotency-key"] == event["id"] and got.headers["content-type"] == "application/json"
    told = people[0] if got.path == "/Ann" else people[1]
    delivery = await settled(told, event["id"])
    shown = (delivery["state"], delivery["attempts"], delivery["status"], delivery["kind"])
    assert shown == ("delivered", 1, 200, "turn")
    one = await told.call("GET", f"/v1/players/{told.id}/deliveries/{delivery['id']}")
    assert one.json() == delivery
    other = people[1] if told is people[0] else people[0]  # another player's deliveries are not its to read
    refused = await other.call("GET", f"/v1/players/{told.id}/deliveries")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_this_player")


async def test_a_500_is_tried_again_after_a_back_off_with_the_same_key(api):
    failing = Receiver(statuses=[500])
    try:
        people, _ = await table(api, failing, failing)
        first = (await failing.wait(1))[0]
        key = first.headers["idempotency-key"]
        deadline = time.monotonic() + 15
        while len(again := [got for got in failing.received if got.headers["idempotency-key"] == key]) < 2:
            assert time.monotonic() < deadline, "not tried again"
            await asyncio.sleep(0.05)
        assert again[1].body == first.body and verified(SECRET, again[1])["id"] == key
        assert key in failing.processed
        told = people[0] if first.path == "/Ann" else people[1]
        delivery = await settled(told, key)
        assert (delivery["state"], delivery["attempts"], delivery["status"]) == ("delivered", 2, 200)
    finally:
        failing.close()


def push_subscriber() -> tuple[ec.EllipticCurvePrivateKey, bytes, dict]:
    """A browser's side of a subscription: its P-256 key, its auth secret, and the keys as it sends them."""
    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()  # noqa: E731
    return key, auth, {"p256dh": b64(public), "auth": b64(auth)}


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


async def test_a_web_push_reaches_a_push_service_stand_in_signed_and_decrypts_to_the_turn_in_french(api):
    service = Receiver(ok=201)  # a push service answers 201 Created
    try:
        key, auth, keys = push_subscriber()
        ann = await Person(api).register("Ann")
        await ann.call("PATCH", f"/v1/players/{ann.id}", {"language": "fr"})
        subscribed = await ann.call("POST", f"/v1/players/{ann.id}/push-subscriptions",
                                    {"endpoint": f"{service.url}/push/ann", "keys": keys})
        assert subscribed.status_code == 201, subscribed.text
        bob = await Person(api).register("Bob")
        await bob.call("PATCH", f"/v1/players/{bob.id}", {"language": "fr"})
        await bob.call("POST", f"/v1/players/{bob.id}/push-subscriptions",
                       {"endpoint": f"{service.url}/push/bob", "keys": keys})
        created = await ann.create(game="mercenaries", seats=2, open=[1])
        await bob.join(created["match_id"])
        got = (await service.wait(1))[0]
        assert got.headers["content-encoding"] == "aes128gcm" and int(got.headers["ttl"]) > 0
        # RFC 8292: "vapid t=<JWT>, k=<the key GET /v1/push/key gives>", the JWT ES256 over the endpoint's origin
        scheme, _, params = got.headers["authorization"].partition(" ")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        published = (await api.get("/v1/push/key")).json()["public_key"]
        assert scheme == "vapid" and fields["k"] == published
        head, claims, signature = fields["t"].split(".")
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        vapid = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(published))
        vapid.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        assert json.loads(unb64(claims))["aud"] == service.url
        message = json.loads(http_ece.decrypt(got.body, private_key=key, auth_secret=auth, version="aes128gcm"))
        assert message["type"] == "turn" and message["match_id"] == created["match_id"]
        french = ("À vous de jouer", "C'est à vous de jouer à Taverniers et Mercenaires.")  # both play in French
        assert (message["title"], message["body"]) == french
    finally:
        service.close()


async def test_choices_turn_a_kind_or_a_channel_off(api, app, receiver):
    (ann, bob), match_id = await table(api, receiver, receiver)
    choices = await ann.call("PATCH", f"/v1/players/{ann.id}/notifications", {"turn": False})
    assert choices.json() == {"turn": False, "ended": True, "time_low": True, "webhook": True, "push": True}
    assert (await ann.call("GET", f"/v1/players/{ann.id}/notifications")).json() == choices.json()
    await bob.call("PATCH", f"/v1/players/{bob.id}/notifications", {"webhook": False})
    bad = await ann.call("PATCH", f"/v1/players/{ann.id}/notifications", {"sms": True})
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "bad_request")
    runtime = app.state.runtime
    match = await runtime.matches.get(match_id)
    folded = await runtime.folds.load(match)

    async def told(person: Person, turn: int) -> list[dict]:
        listed = (await person.call("GET", f"/v1/players/{person.id}/deliveries")).json()
        return [d for d in listed if d["event_id"].endswith(f":{turn}:turn")]

    await runtime.notifier.projected(match, folded, {0: 1000, 1: 1000})  # a turn of each, told now
    assert await told(ann, 1000) == [] and await told(bob, 1000) == []
    await ann.call("PATCH", f"/v1/players/{ann.id}/notifications", {"turn": True})
    await runtime.notifier.projected(match, folded, {0: 1001})
    assert len(await told(ann, 1001)) == 1


async def test_nothing_is_sent_to_a_player_watching_the_match(api, app, receiver):
    (ann, _), match_id = await table(api, receiver, None)
    runtime = app.state.runtime
    await runtime.presence(30.0).mark(match_id, 0, True)  # Ann's stream of the match is open
    match = await runtime.matches.get(match_id)
    folded = await runtime.folds.load(match)
    await runtime.notifier.projected(match, folded, {0: 2000})
    delivery = await settled(ann, ":2000:turn")
    assert (delivery["state"], delivery["error"]) == ("skipped", "watching")
    assert not [got for got in receiver.received if b":2000:turn" in got.body]


async def test_a_clock_running_low_and_the_end_are_told(api, receiver):
    ann, bob = await Person(api).register("Ann"), await Person(api).register("Bob")
    for person in (ann, bob):
        await person.call("POST", f"/v1/players/{person.id}/webhooks", {"url": f"{receiver.url}/{person.id}",
                                                                       "secret": SECRET})
    created = await ann.create(game="mercenaries", seats=2, open=[1], clock={"per_move_s": 5})
    await bob.join(created["match_id"])

    async def told(kind: str, count: int = 1) -> list[dict]:
        deadline = time.monotonic() + 15
        while len(found := [verified(SECRET, got) for got in receiver.received if f'"type":"{kind}"'.encode()
                            in got.body]) < count:
            assert time.monotonic() < deadline, f"no {kind} told"
            await asyncio.sleep(0.05)
        return found

    turn = (await told("turn"))[0]
    assert turn["deadline"] > turn["at"]  # a clocked seat's turn says its deadline
    low = (await told("time_low"))[0]  # nobody moves: a fifth of its time left, it is told
    assert low["id"] == turn["id"].replace(":turn", ":time_low") and low["deadline"] == turn["deadline"]
    conceding = ann if turn["seat"] == 0 else bob
    answer = await conceding.call("POST", f"/v1/matches/{created['match_id']}/commands", {"type": "Concede"},
                                  seat=True)
    assert answer.status_code == 200, answer.text
    ended = await told("ended", 2)
    assert {event["id"] for event in ended} == {f"{created['match_id']}:ended"}
    assert sorted(got.path for got in receiver.received if b'"type":"ended"' in got.body) == sorted(
        [f"/{ann.id}", f"/{bob.id}"])  # each player once


async def test_a_time_low_warning_is_not_sent_once_the_seat_has_played(api, app, receiver):
    ann, bob = await Person(api).register("Ann"), await Person(api).register("Bob")
    for person in (ann, bob):
        await person.call("POST", f"/v1/players/{person.id}/webhooks", {"url": f"{receiver.url}/{person.id}",
                                                                       "secret": SECRET})
    created = await ann.create(game="mercenaries", seats=2, open=[1], clock={"per_move_s": 5})
    await bob.join(created["match_id"])
    turn = verified(SECRET, (await receiver.wait(1))[0])
    # its turn over (as the projector marks a seat that is no longer due) before its time ran low
    await app.state.runtime.notifier.book.mark_turns(created["match_id"], {}, [turn["seat"]])
    told = ann if turn["seat"] == 0 else bob
    delivery = await settled(told, turn["id"].replace(":turn", ":time_low"))
    assert (delivery["state"], delivery["error"]) == ("skipped", "moved")
    assert not [got for got in receiver.received if b'"type":"time_low"' in got.body]
