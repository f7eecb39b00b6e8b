"""`tavern audit FILE` and `tavern replay FILE [--at N] [--seat S]`, offline, on export files."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.kernel import fold
from projections.audit import verify_chain
from projections.receipts import SIGNING_KEY_PATH, SigningKey, public_hex, receipt
from projections.replay import frames
from projections.views import envelope
from services.cli import main
from tests.audit.forgery import change_byte, entry_lines, envelopes, line_of
from tests.audit.matches import KEY, SIGNER
from tests.audit.offline import export_of_play

FIXTURE = Path(__file__).parent / "fixtures" / "heros-tavern-rules-1.jsonl"


@pytest.fixture(scope="module")
def mercenaries_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("exports") / "mercenaries.jsonl"
    path.write_bytes(export_of_play("mercenaries", 2, "cli"))
    return path


def test_audit_prints_a_report_and_exits_zero(mercenaries_file, capsys):
    assert main(["audit", str(mercenaries_file)]) == 0
    out = capsys.readouterr().out
    assert "audit ok" in out and "seed: matches its commitment" in out and "commands decided again" in out


def test_audit_exits_non_zero_naming_the_entry(mercenaries_file, tmp_path, capsys):
    data = mercenaries_file.read_bytes()
    position = len(data) // 2
    spoiled = tmp_path / "spoiled.jsonl"
    spoiled.write_bytes(change_byte(data, position))
    assert main(["audit", str(spoiled)]) == 1
    err = capsys.readouterr().err
    assert f"line {line_of(data, position)} (version {line_of(data, position) - 1})" in err


@pytest.fixture(scope="module")
def signed_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("exports") / "signed.jsonl"
    path.write_bytes(export_of_play("mercenaries", 2, "cli-signed", signer=SIGNER))
    return path


class KeyServer(http.server.BaseHTTPRequestHandler):
    """A service's /.well-known/tavern-signing-key, nothing else."""

    def do_GET(self) -> None:
        known = self.path == SIGNING_KEY_PATH
        body = msgspec.json.encode(SigningKey("Ed25519", public_hex(KEY), "tavern-head/1")) if known else b""
        self.send_response(200 if known else 404)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def key_url():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), KeyServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_audit_checks_the_signed_head_with_the_key_given_fetched_or_from_a_file(signed_file, key_url, tmp_path, capsys):
    assert main(["audit", str(signed_file)]) == 0
    assert "not checked to be the service's (no key given: --key)" in capsys.readouterr().out
    saved = tmp_path / "key.json"
    saved.write_text(msgspec.json.encode(SigningKey("Ed25519", public_hex(KEY), "tavern-head/1")).decode())
    for given in (["--key", public_hex(KEY)], ["--key", public_hex(KEY).upper()], ["--key", str(saved)],
                  ["--key-from", key_url]):
        assert main(["audit", str(signed_file), *given]) == 0, given
        assert f"end: signed by the key given, {public_hex(KEY)}" in capsys.readouterr().out
    other = Ed25519PrivateKey.generate()
    assert main(["audit", str(signed_file), "--key", public_hex(other)]) == 1
    assert "not by the key given" in capsys.readouterr().err
    unsigned = tmp_path / "unsigned.jsonl"
    unsigned.write_bytes(b"".join(line + b"\n" for line in entry_lines(signed_file.read_bytes())))
    assert main(["audit", str(unsigned)]) == 0  # an unsigned file says so, and is refused given a key
    assert "end: none (an unfinished match's export, or one from before signatures)" in capsys.readouterr().out
    assert main(["audit", str(unsigned), "--key", public_hex(KEY)]) == 1
    assert "no signed head" in capsys.readouterr().err
    for bad in (["--key", "abc"], ["--key-from", key_url + "nothing/"], ["--receipt", "x:y"]):
        assert main(["audit", str(signed_file), *bad]) == 2, bad
        assert capsys.readouterr().err.startswith("tavern: ")


def test_audit_checks_receipts_and_a_last_hash(signed_file, capsys):
    data = signed_file.read_bytes()
    header, chain = envelopes(data)
    hashes = [msgspec.json.decode(line)["hash"] for line in entry_lines(data)[1:]]
    match_id = msgspec.json.decode(header.charter)["match_id"]
    given = [f"{v}:{receipt(header.seed, match_id, v, hashes[v - 1])}" for v in (1, len(chain) // 2, len(chain))]
    argv = ["audit", str(signed_file), "--last-hash", hashes[-1]] + [arg for r in given for arg in ("--receipt", r)]
    assert main(argv) == 0
    assert "4 receipt(s) or last hash checked" in capsys.readouterr().out
    assert main(["audit", str(signed_file), "--last-hash", hashes[-2]]) == 1
    assert "the last hash is not the one given" in capsys.readouterr().err
    wrong = f"{len(chain) // 2}:{receipt(header.seed, match_id, len(chain) // 2, hashes[0])}"
    assert main(["audit", str(signed_file), "--receipt", wrong]) == 1
    assert f"(version {len(chain) // 2}): not the entry the receipt" in capsys.readouterr().err


def test_replay_prints_the_view_at_a_version_for_a_seat(capsys):
    chain = verify_chain(FIXTURE.read_bytes())
    for at, seat in ((0, None), (7, 1), (50, 2), (len(chain.events), 0)):
        argv = ["replay", str(FIXTURE), "--at", str(at)] + ([] if seat is None else ["--seat", str(seat)])
        assert main(argv) == 0
        printed = json.loads(capsys.readouterr().out)
        state = fold(chain.game, chain.setup, chain.events[:at])
        expected = envelope(chain.game, chain.charter.match_id, state, at, seat)
        assert printed == json.loads(msgspec.json.encode(expected))
        frame = list(frames(chain.game, chain.setup, chain.events, seat, whole=True))[at]
        assert printed["view"] == json.loads(msgspec.json.encode(frame.view))  # the same as /replay's frame


def test_replay_defaults_to_the_last_version_and_refuses_what_is_not_there(capsys):
    assert main(["replay", str(FIXTURE)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"
    assert main(["replay", str(FIXTURE), "--at", "100000"]) == 2
    assert main(["replay", str(FIXTURE), "--seat", "9"]) == 2


def test_a_file_that_is_not_there_or_holds_no_match(tmp_path, capsys):
    assert main(["audit", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    for name, content in (("empty", b""), ("blank", b"\n"), ("garbage", b"\x00\xff not json\n")):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(content)
        assert main(["audit", str(path)]) == 1
        assert "line 1" in capsys.readouterr().err
    header_only = tmp_path / "header.jsonl"
    header_only.write_bytes(FIXTURE.read_bytes().partition(b"\n")[0] + b"\n")
    assert main(["audit", str(header_only)]) == 1
    assert "line 1: the opening deal from the seed gives" in capsys.readouterr().err


def test_audit_and_replay_need_no_redis_nor_service():
    """Run with the Redis, Starlette and RQ packages made unimportable: both still work."""
    blocked = "import sys\nfor name in ('redis', 'fakeredis', 'rq', 'starlette', 'uvicorn'): sys.modules[name] = None\n"
    run = "from services.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    root = Path(__file__).resolve().parents[2]
    for argv in (["audit", str(FIXTURE)], ["replay", str(FIXTURE), "--at", "3"]):
        done = subprocess.run([sys.executable, "-c", blocked + run, *argv], cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
