"""A notification goes only to a public address, or into a private network the operator names
(TAVERN_NOTIFY_NETWORKS; services/commands/egress.py): a player names a webhook's URL, and must not
make the workers POST into the deployment's own network. A private address written in the URL is
refused when the URL is given (422); a name is checked on each connection, after DNS, so a name
that resolves to a private address when the notification is sent (DNS rebinding, here a stand-in
resolver) is refused without a packet reaching it, and its delivery fails at once. These tests run
the shipped default (no network named) unless they say otherwise."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid

import pytest
import requests

from services.commands import egress
from services.ops.settings import Settings
from tests.service.online.lobby_client import Person
from tests.service.online.test_notifications import SECRET, settled
from tests.service.receiver import Receiver

pytestmark = pytest.mark.anyio
NAME = "hooks.example.test"  # resolved by the stand-in resolver below to the receiver's address


@pytest.fixture
def settings(request) -> Settings:
    queue = f"test-{uuid.uuid4().hex[:8]}"
    return Settings(redis_url=None, queue_url=None, queue_name=queue, lease_s=1.0, notify_retry_s=0.1,
                    notify_networks=getattr(request, "param", ()))


@pytest.fixture
def receiver():
    started = Receiver()
    yield started
    started.close()


@pytest.fixture
def rebound(monkeypatch):
    """NAME resolves to 127.0.0.1, as a name its owner points at a private address would."""
    real = socket.getaddrinfo

    def resolve(host, *args, **kwargs):
        return real("127.0.0.1" if host == NAME else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)


@pytest.mark.parametrize(("address", "public"), [
    ("93.184.215.14", True), ("2606:4700::6810:84e5", True),
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.9", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False), ("224.0.0.1", False),
    ("::1", False), ("fd00::1", False), ("fe80::1%eth0", False), ("::ffff:127.0.0.1", False),
    ("::ffff:10.0.0.1", False),
])
def test_only_public_addresses_are_allowed_by_default(address, public):
    assert egress.allowed(address, ()) is public


def test_a_named_network_is_allowed():
    named = egress.networks(["10.0.0.0/8", " 127.0.0.1/32 "])
    assert egress.allowed("10.9.9.9", named) and egress.allowed("127.0.0.1", named)
    assert egress.allowed("::ffff:10.0.0.1", named)
    assert not egress.allowed("127.0.0.2", named) and not egress.allowed("192.168.0.1", named)


def test_a_refused_address_is_never_connected_to():
    """The address is checked before connecting: a listener there sees no connection at all."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.setblocking(False)
        port = listener.getsockname()[1]
        with pytest.raises(requests.ConnectionError) as raised:
            egress.session(()).post(f"http://127.0.0.1:{port}/hook", data=b"{}", timeout=5)
        refused = egress.refusal(raised.value)
        assert refused is not None and "not a public address" in str(refused)
        with pytest.raises(BlockingIOError):
            listener.accept()
        allowed = egress.session(egress.networks(["127.0.0.0/8"]))
        with pytest.raises(requests.ReadTimeout):  # connected (nobody answers): the named network is let through
            allowed.post(f"http://127.0.0.1:{port}/hook", data=b"{}", timeout=0.5)
        listener.accept()[0].close()


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8080/hook", "http://10.0.0.7/hook", "http://[::1]/hook", "https://localhost/hook",
    "http://LOCALHOST./hook", "http://api.localhost/hook", "http://169.254.169.254/latest/meta-data",
    "http://[::ffff:192.168.0.1]/hook",
])
async def test_a_webhook_at_a_private_address_is_refused_when_given(api, url):
    ann = await Person(api).register("Ann")
    answer = await ann.call("POST", f"/v1/players/{ann.id}/webhooks", {"url": url, "secret": SECRET})
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "bad_webhook_url"), answer.text
    listed = await ann.call("GET", f"/v1/players/{ann.id}/webhooks")
    assert listed.json() == []


async def test_a_push_service_at_a_private_address_is_refused_when_given(api):
    ann = await Person(api).register("Ann")
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    answer = await ann.call("POST", f"/v1/players/{ann.id}/push-subscriptions",
                            {"endpoint": "http://192.168.1.20/push/ann", "keys": keys})
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "bad_subscription"), answer.text


async def turn_delivery(api, receiver: Receiver) -> dict:
    """Ann's and Bob's webhooks at NAME (the receiver's port), and the first turn's delivery (the
    seat whose turn it is, either's) once it is done."""
    people = []
    for name in ("Ann", "Bob"):
        person = await Person(api).register(name)
        url = f"http://{NAME}:{receiver.server.server_address[1]}/{name}"
        added = await person.call("POST", f"/v1/players/{person.id}/webhooks", {"url": url, "secret": SECRET})
        assert added.status_code == 201, added.text  # a name: checked when sent
        people.append(person)
    ann, bob = people
    created = await ann.create(game="mercenaries", seats=2, open=[1])
    await bob.join(created["match_id"])
    deadline = time.monotonic() + 15
    while not (found := [d for person in people for d in await deliveries(person)]):
        assert time.monotonic() < deadline, "no turn was notified"
        await asyncio.sleep(0.05)
    told = people[0] if any(d["id"] == found[0]["id"] for d in await deliveries(people[0])) else people[1]
    return await settled(told, found[0]["event_id"])


async def deliveries(person: Person) -> list[dict]:
    answer = await person.call("GET", f"/v1/players/{person.id}/deliveries")
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_a_name_that_resolves_to_a_private_address_when_sent_is_refused(api, receiver, rebound):
    delivery = await turn_delivery(api, receiver)
    assert (delivery["state"], delivery["attempts"]) == ("failed", 1), delivery  # not tried again
    assert "not a public address" in delivery["error"]
    assert receiver.received == []


@pytest.mark.parametrize("settings", [("127.0.0.1/32",)], indirect=True)
async def test_the_same_name_in_a_network_the_operator_named_is_delivered(api, receiver, rebound):
    delivery = await turn_delivery(api, receiver)
    assert (delivery["state"], delivery["attempts"], delivery["status"]) == ("delivered", 1, 200), delivery
    got = receiver.received[0]
    assert got.headers["host"] == f"{NAME}:{receiver.server.server_address[1]}"  # sent to the address checked
