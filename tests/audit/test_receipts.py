"""Receipts and the signed head as the service gives them out: every accepted command's answer
carries the receipt of its last entry (the same on an idempotent replay), the finished match's
export ends with its head signed by the key /.well-known/tavern-signing-key publishes, and
`tavern audit` checks all of them; the key comes from the settings, or is kept in the data
directory across restarts."""

from __future__ import annotations

import os
import stat
import uuid

import httpx
import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from projections.audit import Anchors, AuditFailure, audit, verify_chain, verify_head
from projections.chain import Charter
from projections.receipts import public_hex, public_key, receipt
from services.gateway.app import create_app
from services.ops import signing
from services.ops.settings import BadSetting, Settings, from_env
from services.store import archive, keys
from tests.audit.forgery import entry_lines, envelopes, lines_of
from tests.service.client import bearer, create, play_to_end, seat_token, send, wait_for

pytestmark = pytest.mark.anyio


async def test_every_accepted_answer_carries_the_receipt_its_export_and_the_published_key_verify(api):
    created = await create(api, seats=2, game="mercenaries")
    opened = [await wait_for(api, created, seat_token(created, seat), 1) for seat in (0, 1)]  # views lag the log
    seat = next(seat for seat in (0, 1) if opened[seat]["legal"])
    first = opened[seat]["legal"][0]
    once = await send(api, created, seat, first, idempotency_key="the-first-move")
    again = await send(api, created, seat, first, idempotency_key="the-first-move")
    assert once.status_code == again.status_code == 200 and once.json() == again.json()  # the same receipt
    accepted = [once.json()]
    await play_to_end(api, created, [0, 1], seed=5, accepted=accepted)
    export = (await api.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(created["spectator_token"])))
    data = export.content
    published = (await api.get("/.well-known/tavern-signing-key")).json()
    assert published["algorithm"] == "Ed25519" and published["signs"] == "tavern-head/1"
    key = public_key(published["public_key"])

    header, chain = envelopes(data)
    hashes = [msgspec.json.decode(line)["hash"] for line in entry_lines(data)[1:]]
    match_id = msgspec.json.decode(header.charter, type=Charter).match_id
    assert len(accepted) > 10
    for answer in accepted:
        version = answer["version"]
        assert answer["receipt"] == receipt(header.seed, match_id, version, hashes[version - 1])
        assert answer["receipt"] not in hashes  # keyed: no bare hash of an entry a seat may not see
    anchors = Anchors(key, tuple((answer["version"], answer["receipt"]) for answer in accepted), hashes[-1])
    report = audit(data, anchors=anchors)
    assert report.signature == f"signed by the key given, {published['public_key']}"
    assert report.receipts == len(accepted) + 1 and report.entries == len(chain)


async def test_a_running_match_has_no_export_and_so_no_signature(api):
    created = await create(api, seats=2, game="mercenaries")
    running = await api.get(f"/v1/matches/{created['match_id']}/export", headers=bearer(created["spectator_token"]))
    assert running.status_code == 409 and running.json()["error"]["code"] == "match_running"


def test_the_kept_key_survives_a_restart_and_is_the_owners_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = signing.signing_key(None, None)
    kept = tmp_path / "tavern" / "signing-key"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert public_hex(signing.signing_key(None, None)) == public_hex(first)  # a restart: the same key


def test_the_key_from_the_settings_as_hex_pem_or_file(tmp_path):
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode()
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
    (tmp_path / "key.pem").write_text(pem)
    for env in ({"TAVERN_SIGNING_KEY": raw}, {"TAVERN_SIGNING_KEY": pem},
                {"TAVERN_SIGNING_KEY_FILE": str(tmp_path / "key.pem")}):
        settings = from_env(env)
        assert public_hex(signing.signing_key(settings.signing_key, settings.signing_key_file)) == public_hex(key)
        assert raw not in repr(settings)  # a secret: never in a log line of the settings
    for bad in ({"TAVERN_SIGNING_KEY": "not a key"}, {"TAVERN_SIGNING_KEY": "ab" * 31},
                {"TAVERN_SIGNING_KEY_FILE": str(tmp_path / "missing")}, {"TAVERN_SIGNING_KEY_FILE": "relative"}):
        with pytest.raises(BadSetting, match="TAVERN_SIGNING_KEY"):
            from_env(bad)


async def test_a_match_closed_unfinished_by_an_older_version_is_archived_unsigned_and_says_so(tmp_path):
    """A meta marked ``ended`` (an idle match closed before ``Abandoned`` was logged): its log stops
    short of an end, so its archived export carries no signature, and the auditor says that."""
    settings = Settings(redis_url=None, queue_url=None, queue_name=f"audit-{uuid.uuid4().hex[:8]}",
                        archive_dir=str(tmp_path / "archive"))
    app = create_app(settings, embedded_worker=False)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            created = await create(api, seats=3)
            await runtime.events.hset(keys.meta(created["match_id"]), "ended", "abandoned")
            await runtime.archiver.archive_match(created["match_id"])
    packed = (tmp_path / "archive" / archive.export_name(created["match_id"])).read_bytes()
    data = archive.decompress(packed)
    assert entry_lines(data) == lines_of(data) and len(lines_of(data)) > 1  # entries, no signed head
    chain = verify_chain(data)
    assert chain.signature is None
    assert verify_head(chain, Anchors()) == "none (an unfinished match's export, or one from before signatures)"
    with pytest.raises(AuditFailure, match="no signed head"):
        verify_head(chain, Anchors(public_key(public_hex(runtime.signer))))
