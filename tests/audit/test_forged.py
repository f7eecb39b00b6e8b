"""Forged and tampered exports, every hash redone where a forger would: setups the service refuses,
events and commands not in their encoding, times out of order or out of the window, malformed
lines. Each is refused with its line and its reason; none crashes the auditor."""

from __future__ import annotations

import json

import msgspec
import pytest

from projections.audit import AuditFailure, audit
from tests.audit.forgery import envelopes, file_of, lines_of, with_charter, with_envelope
from tests.audit.offline import export_of_play

NOW = 1_800_000_000.0  # the audit's clock in these tests (2027-01)


@pytest.fixture(scope="module")
def exports() -> dict[str, bytes]:
    return {
        "heros-tavern": export_of_play("heros-tavern", 3, "forged"),
        "mercenaries": export_of_play("mercenaries", 2, "forged", {"best_of": 3}),
        "tavern-masters": export_of_play("tavern-masters", 3, "forged"),
    }


def refused(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as failure:
        audit(data, now=NOW)
    return failure.value


def test_the_untouched_exports_audit_clean(exports):
    for data in exports.values():
        assert audit(data, now=NOW).entries == len(lines_of(data)) - 1


@pytest.mark.parametrize(
    "game,changes,reason",
    [
        ("heros-tavern", {"seats": 2}, "seats 3 to 5, not 2"),
        ("heros-tavern", {"seats": 6}, "seats 3 to 5, not 6"),
        ("heros-tavern", {"seats": 0}, "not 0"),
        ("heros-tavern", {"seats": -1}, "not -1"),
        ("mercenaries", {"seats": 3}, "not 3"),
        ("mercenaries", {"options": {"best_of": 5}}, "best_of takes one of"),
        ("mercenaries", {"options": {"best_of": "banana"}}, "not 'banana'"),
        ("mercenaries", {"options": {"best_of": True}}, "best_of takes one of"),
        ("mercenaries", {"options": {"best_of": 3, "house_rule": 1}}, "no option house_rule"),
        ("tavern-masters", {"seats": 7}, "not 7"),
        ("heros-tavern", {"entropy_seats": [5]}, "entropy seats [5]"),
        ("heros-tavern", {"entropy_seats": [1, 0]}, "entropy seats [1, 0]"),
        ("heros-tavern", {"rules_version": 99}, "no rules version 99"),
        ("heros-tavern", {"game": "chess"}, "no game 'chess'"),
    ],
)
def test_a_match_under_a_charter_the_service_refuses_is_refused(exports, game, changes, reason):
    failure = refused(with_charter(exports[game], **changes))
    assert failure.line == 1 and reason in failure.reason, str(failure)


def event_json(data: bytes, version: int) -> dict:
    return json.loads(bytes(envelopes(data)[1][version - 1].event))


@pytest.mark.parametrize("how", ["extra", "reordered", "renamed"])
def test_an_event_not_in_its_encoding_is_refused_at_its_line(exports, how):
    data = exports["heros-tavern"]
    event = event_json(data, 1)
    if how == "extra":
        event["note"] = "forged"
    elif how == "reordered":
        event = dict(reversed(list(event.items())))
    else:
        event["Type"] = event.pop("type")
    failure = refused(with_envelope(data, 1, event=msgspec.Raw(json.dumps(event, separators=(",", ":")).encode())))
    assert failure.line == 2 and failure.version == 1, str(failure)


def first_command_version(data: bytes) -> int:
    """The version of the first entry whose command has two fields or more (so an order)."""
    return next(e.version for e in envelopes(data)[1] if e.command.id is not None and len(e.command.command) > 1)


@pytest.mark.parametrize("how", ["extra", "reordered"])
def test_a_command_not_in_its_encoding_is_refused_at_its_line(exports, how):
    data = exports["mercenaries"]
    version = first_command_version(data)
    cause = envelopes(data)[1][version - 1].command
    command = dict(cause.command)
    command = command | {"extra": 1} if how == "extra" else dict(reversed(list(command.items())))
    failure = refused(with_envelope(data, version, command=msgspec.structs.replace(cause, command=command)))
    assert failure.line == version + 1 and "command" in failure.reason, str(failure)


@pytest.mark.parametrize(
    "time,reason",
    [(0.0, "before the service"), (-5.0, "before the service"), (32_503_680_000.0, "in the future"),
     ("backwards", "goes backwards")],
)
def test_times_out_of_order_or_out_of_the_window_are_refused(exports, time, reason):
    data = exports["heros-tavern"]
    chain = envelopes(data)[1]
    version = len(chain) // 2
    if time == "backwards":
        time = chain[version - 2].time - 1
    failure = refused(with_envelope(data, version, time=time))
    assert failure.line == version + 1 and reason in failure.reason, str(failure)


def replace_line(data: bytes, number: int, line: bytes) -> bytes:
    lines = lines_of(data)
    lines[number - 1] = line
    return file_of(lines)


@pytest.mark.parametrize(
    "line,reason",
    [
        (b'{"body":"\xff\xfe","hash":"00"}', "not a valid ExportEntry"),
        (b"[" * 100_000 + b"]" * 100_000, "not a valid ExportEntry"),
        (b'{"body":"' + b"[" * 5_000 + b'","hash":"00"}', "the hash is not"),
        (b"not json", "not a valid ExportEntry"),
        (b'{"body":"{}","hash":"' + b"0" * 64 + b'"}', "the hash is not"),
    ],
)
def test_a_malformed_line_is_named_not_a_crash(exports, line, reason):
    failure = refused(replace_line(exports["heros-tavern"], 3, line))
    assert failure.line == 3 and reason in failure.reason, str(failure)


def test_a_command_nested_deep_is_named_not_a_crash(exports):
    data = exports["mercenaries"]
    version = first_command_version(data)
    cause = envelopes(data)[1][version - 1].command
    deep = msgspec.Raw(b"[" * 100_000 + b"]" * 100_000)
    failure = refused(with_envelope(data, version, command=msgspec.structs.replace(cause, command=deep)))
    assert failure.line == version + 1, str(failure)


@pytest.mark.parametrize(
    "header",
    [b'{"format":"tavern-export/1","charter":"\xff","genesis":"","seed":""}', b"{" * 100_000, b"",
     b'{"format":"tavern-export/1","charter":"{}","genesis":"x","seed":"","extra":1}'],
)
def test_a_malformed_header_is_named_not_a_crash(exports, header):
    failure = refused(replace_line(exports["heros-tavern"], 1, header))
    assert failure.line == 1, str(failure)
