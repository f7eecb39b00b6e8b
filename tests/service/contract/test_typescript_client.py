"""The TypeScript client package (clients/typescript): its types are openapi-typescript's output
for /openapi.json with the generator's default settings, as committed; it compiles with
`tsc --strict`, and so does a program that plays a Tavern Masters match with the Dirty Deeds
option to the end through it (test/play.ts: one seat on Server-Sent Events, cut and resumed
midway, one on the WebSocket, one the service's bot); and, against a stand-in fetch, that it sends a
command again under one key, and reconnects a stream, after 429, 502, 503 and 504 (test/resend.ts)."""

from __future__ import annotations

import json
import subprocess

from services.gateway import openapi
from tests.service.contract.node import installed, node
from tools import clients


def test_the_committed_types_are_the_generators_output_for_the_contract():
    installed(clients.TYPESCRIPT)
    generated = clients.typescript_types(openapi.document())
    assert generated == clients.TYPES.read_text(), "the contract changed: run make clients"


def tsc(bins, project: str) -> None:
    done = subprocess.run(
        [bins / "tsc", "--strict", "-p", project], cwd=clients.TYPESCRIPT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_it_compiles_strict_and_plays_a_match_with_options_to_the_end(gateway):
    bins = installed(clients.TYPESCRIPT)
    tsc(bins, "tsconfig.json")  # the package, as `npm run build` (and `npm pack`) build it
    tsc(bins, "test/tsconfig.json")  # the program that uses it, importing it by its name
    played = node("dist-test/test/play.js", gateway, "3", cwd=clients.TYPESCRIPT, timeout=240)
    assert played.returncode == 0, played.stdout + played.stderr
    report = json.loads(played.stdout.splitlines()[-1])
    assert report["status"] == "finished" and report["result"]["standings"], report
    assert report["versions"] == [report["version"]] * 2 and report["dirty_deeds"] is True
    assert min(report["sent"]) > 5 and report["resumed_at"] > 0  # both seats played; the stream resumed


def test_commands_are_sent_again_and_streams_reconnect_after_429_502_503_504():
    bins = installed(clients.TYPESCRIPT)
    tsc(bins, "tsconfig.json")
    tsc(bins, "test/tsconfig.json")
    done = node("dist-test/test/resend.js", cwd=clients.TYPESCRIPT, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["sent"] == {"requests": 5, "keys": 1, "version": 7}  # 502, 503, 504, 429, then 200
    assert report["cut"] == {"requests": 2, "keys": ["k-1"]}  # a cut connection: the caller's key again
    assert report["conflict"] == {"status": 409, "requests": 1}  # any other refusal is the answer
    too_often = report["too_often"]
    assert too_often["status"] == 502 and too_often["requests"] == too_often["resends"] + 1
    presence = {"match_id": "m", "version": 3, "players": []}
    assert report["stream"] == {"requests": 5, "first": {"event": "presence", "presence": presence}}
