"""`tavern audit FILE` and `tavern replay FILE [--at N] [--seat S]`, offline, on export files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from domain.kernel import fold
from projections.audit import verify_chain
from projections.replay import frames
from projections.views import envelope
from services.cli import main
from tests.audit.forgery import change_byte, line_of
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
