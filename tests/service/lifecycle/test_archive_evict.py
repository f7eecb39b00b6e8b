"""100 bot-only matches played to the end on a real Redis, then archived and evicted by `tavern worker`
processes SIGKILLed at random instants: every match is at every moment whole in Redis or whole in the
archive, and afterwards export, replay, events, view and `tavern audit` answer byte for byte as before.

Prints Redis bytes per live and per finished match and archive bytes per match (the closing note's
figures)."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis

from services.cli.audit import run_audit
from services.store import archive, keys
from tests.service.conftest import NO_CREATE_LIMITS, ROOT, free_port, service_env, start_redis, wait_healthy
from tests.service.store.partitioned import DEPLOYED

MATCHES = 100
READS = ("export", "replay", "events", "view")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def answers(api: httpx.Client, created: dict) -> dict[str, bytes]:
    """What each read endpoint answers the spectator, and `tavern audit`'s report of the export."""
    out = {}
    for read in READS:
        answer = api.get(f"/v1/matches/{created['match_id']}/{read}", headers=bearer(created["spectator_token"]))
        assert answer.status_code == 200, (read, answer.text)
        out[read] = answer.content
    return out


def audited(tmp_path: Path, match_id: str, export: bytes) -> str:
    path = tmp_path / f"{match_id}.jsonl"
    path.write_bytes(export)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert run_audit(str(path)) == 0
    return printed.getvalue().replace(str(path), "FILE")


def match_bytes(client: redis.Redis, match_id: str) -> int:
    found = [client.memory_usage(key) or 0 for key in client.scan_iter(f"match:{{{match_id}}}:*")]
    return sum(found)


def finished(client: redis.Redis) -> set[bytes]:
    """The matches listed finished, in every partition."""
    return {match_id for key in DEPLOYED.keys(keys.FINISHED) for match_id in client.zrange(key, 0, -1)}


def in_redis(client: redis.Redis, match_id: str) -> bool:
    present = client.exists(keys.log(match_id), keys.views(match_id), keys.meta(match_id))
    assert present in (0, 3), f"match {match_id}: {present} of its 3 keys in Redis"
    return present == 3


def whole_in_archive(root: Path, match_id: str, export: bytes) -> bool:
    meta_path, export_path = root / archive.meta_name(match_id), root / archive.export_name(match_id)
    if not meta_path.exists():
        return False
    meta = json.loads(meta_path.read_bytes())
    assert gzip.decompress(export_path.read_bytes()) == export
    assert meta["export_sha256"] == hashlib.sha256(export).hexdigest()
    return True


def test_finished_matches_leave_redis_for_the_archive(tmp_path, processes):
    server, url = start_redis(tmp_path)
    try:
        played(tmp_path, processes, url)
    finally:
        server.terminate()
        server.wait(10)


def played(tmp_path: Path, processes, url: str) -> None:
    root = tmp_path / "archive"
    client = redis.Redis.from_url(url)
    base = {"TAVERN_QUEUE": "lifecycle", "TAVERN_ARCHIVE_DIR": str(root), "TAVERN_ARCHIVE_EVERY_S": "0.05"}
    base |= NO_CREATE_LIMITS  # one client creates the 100 matches at once: past one address's burst and quota
    # and reads each one's export, replay and events twice, at once: past one address's heavy reads
    base |= {"TAVERN_HEAVY_READS_PER_S_ADDRESS": "0"}
    keeping = service_env(url, **base, TAVERN_ARCHIVE_GRACE_S="100000")
    port = free_port()
    gateway = processes(["serve", "--port", str(port)], keeping)
    worker = processes(["worker"], keeping)
    wait_healthy(f"http://127.0.0.1:{port}", gateway)
    api = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    created = []
    for _ in range(MATCHES):
        answer = api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": [0, 1]})
        assert answer.status_code == 201, answer.text
        created.append(answer.json())
    live = api.post("/v1/matches", json={"game": "heros-tavern", "seats": 4, "bots": []}).json()
    deadline = time.monotonic() + 240
    while len(finished(client)) < MATCHES:
        assert time.monotonic() < deadline, f"{len(finished(client))} of {MATCHES} matches finished"
        time.sleep(0.2)
    ids = [match["match_id"] for match in created]
    assert finished(client) == {match_id.encode() for match_id in ids}
    time.sleep(0.5)  # the views of the last ones are written before they are listed; let the bots settle
    before = {match["match_id"]: answers(api, match) for match in created}
    reports = {match_id: audited(tmp_path, match_id, got["export"]) for match_id, got in before.items()}
    finished_bytes = sum(match_bytes(client, match_id) for match_id in ids) / MATCHES
    live_bytes = match_bytes(client, live["match_id"])
    memory_before = client.info("memory")["used_memory"]
    worker.kill()
    worker.wait(10)

    # archive with no grace, killing each worker mid-archive: once it has archived one more match (so every
    # worker does some work, however fast the machine) and a random instant later; check the invariant after each
    archiving = service_env(url, **base, TAVERN_ARCHIVE_GRACE_S="0")
    rng = random.Random(24)
    kills = 0
    for _ in range(40):
        left = len(finished(client))
        if not left:
            break
        worker = processes(["worker"], archiving)
        deadline = time.monotonic() + 60
        while len(finished(client)) == left:
            assert time.monotonic() < deadline and worker.poll() is None, f"no worker archived of {left} matches"
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.02))
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        kills += 1
        states = [
            in_redis(client, match_id) or whole_in_archive(root, match_id, before[match_id]["export"])
            for match_id in ids
        ]
        assert all(states)
    assert kills >= 3
    worker = processes(["worker"], archiving)
    deadline = time.monotonic() + 60
    while finished(client):
        assert time.monotonic() < deadline, f"{len(finished(client))} matches still to archive"
        time.sleep(0.1)

    for match_id in ids:
        assert not list(client.scan_iter(f"match:{{{match_id}}}:*")), f"match {match_id} left keys in Redis"
        assert whole_in_archive(root, match_id, before[match_id]["export"])
    playing = DEPLOYED.key(keys.live("heros-tavern"), live["match_id"])
    assert client.zscore(playing, live["match_id"]) is not None and in_redis(client, live["match_id"])

    # the same answers from the gateway that cached the matches while they lived, and from a new one
    fresh_port = free_port()
    fresh = processes(["serve", "--port", str(fresh_port)], keeping)
    wait_healthy(f"http://127.0.0.1:{fresh_port}", fresh)
    fresh_api = httpx.Client(base_url=f"http://127.0.0.1:{fresh_port}", timeout=30)
    for match in created:
        match_id = match["match_id"]
        for reader in (api, fresh_api):
            after = answers(reader, match)
            assert after == before[match_id], match_id
            assert audited(tmp_path, match_id, after["export"]) == reports[match_id]
    refused = fresh_api.post(
        f"/v1/matches/{ids[0]}/commands", json={"type": "EndPhase"}, headers=bearer(created[0]["seats"][0]["token"])
    )
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "match_ended", refused.text
    assert fresh_api.get(f"/v1/matches/{'0' * 16}/view", headers=bearer("x")).status_code == 404

    # `tavern audit` itself, on one export as served from the archive
    path = tmp_path / "served.jsonl"
    path.write_bytes(
        fresh_api.get(f"/v1/matches/{ids[0]}/export", headers=bearer(created[0]["spectator_token"])).content
    )
    audit = subprocess.run([sys.executable, "-m", "services.cli", "audit", str(path)], cwd=ROOT, capture_output=True)
    assert audit.returncode == 0 and audit.stdout.decode().replace(str(path), "FILE") == reports[ids[0]]
    # its head signed by a worker with the key the gateways publish (deploy/README.md, "The signing key")
    keyed = [sys.executable, "-m", "services.cli", "audit", str(path), "--key-from", f"http://127.0.0.1:{fresh_port}"]
    audit = subprocess.run(keyed, cwd=ROOT, capture_output=True)
    assert audit.returncode == 0 and b"end: signed by the key given" in audit.stdout, audit.stderr

    archive_bytes = sum(f.stat().st_size for f in root.rglob("*") if f.is_file()) / MATCHES
    export_bytes = sum(len(got["export"]) for got in before.values()) / MATCHES
    memory_after = client.info("memory")["used_memory"]
    print(
        f"\nredis bytes per live match (heros-tavern, 4 seats, opened): {live_bytes:.0f}"
        f"\nredis bytes per finished match (mercenaries, 2 bots) before archive: {finished_bytes:.0f}; after: 0"
        f"\nused_memory before {memory_before}, after {memory_after}: {(memory_before - memory_after) / MATCHES:.0f}"
        f" bytes per match freed"
        f"\narchive bytes per match (export.jsonl.gz + meta.json): {archive_bytes:.0f}"
        f" (export uncompressed {export_bytes:.0f}); {kills} workers killed while archiving"
    )
    api.close()
    fresh_api.close()
