"""Undo in exported logs: matches whose seats took moves back audit clean; an Undo the log or the
rules do not allow is refused at its line (projections/audit.py)."""

from __future__ import annotations

import msgspec
import pytest

from domain.games import game_ids
from domain.kernel.undo import Undo, Undone
from projections.audit import AuditFailure, audit
from services.store.event_store import Cause, seal
from tests.audit.forgery import envelopes, rechain, runs, with_envelope
from tests.audit.offline import export_of_play

NOW = 1_800_000_000.0  # the audit's clock in these tests (2027-01)
SEATS = {"heros-tavern": 3, "tavern-masters": 2, "taverna": 2, "mercenaries": 2}


@pytest.fixture(scope="module")
def exports() -> dict[str, bytes]:
    return {game_id: export_of_play(game_id, SEATS[game_id], f"undo-{game_id}", undos=True) for game_id in game_ids()}


def undos(data: bytes) -> list[int]:
    """The versions of the Undone entries."""
    return [envelope.version for envelope in envelopes(data)[1] if envelope.type == "Undone"]


def refused(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as failure:
        audit(data, now=NOW)
    return failure.value


@pytest.mark.parametrize("game_id", game_ids())
def test_a_match_with_moves_taken_back_audits_clean(exports, game_id):
    assert undos(exports[game_id])  # each game's random match takes some back
    report = audit(exports[game_id], now=NOW)
    assert report.result is not None


@pytest.mark.parametrize("game_id", game_ids())
def test_an_undo_by_another_seat_than_the_moves_is_refused(exports, game_id):
    _, chain = envelopes(exports[game_id])
    version = undos(exports[game_id])[0]
    undo = chain[version - 1]
    other = (undo.command.seat + 1) % SEATS[game_id]
    event = msgspec.json.encode(Undone(seat=other, events=msgspec.json.decode(undo.event)["events"]))
    forged = with_envelope(exports[game_id], version, command=msgspec.structs.replace(undo.command, seat=other),
                           event=msgspec.Raw(event))
    failure = refused(forged)
    assert failure.version == version and "does not take back the move just before it" in failure.reason


def test_an_undo_of_fewer_events_than_the_move_is_refused(exports):
    refusals = 0
    for data in exports.values():
        _, chain = envelopes(data)
        several = [version for version in undos(data) if msgspec.json.decode(chain[version - 1].event)["events"] > 1]
        for version in several[:1]:
            cause = chain[version - 1].command
            fewer = msgspec.json.decode(chain[version - 1].event)["events"] - 1
            command = {"type": "Undo", "events": fewer}
            event = msgspec.Raw(msgspec.json.encode(Undone(seat=cause.seat, events=fewer)))
            forged = with_envelope(data, version, command=msgspec.structs.replace(cause, command=command), event=event)
            failure = refused(forged)
            assert failure.version == version and "does not take back the move just before it" in failure.reason
            refusals += 1
    assert refusals  # some game's random match takes back a move of several events


@pytest.mark.parametrize("game_id", game_ids())
def test_an_undo_of_a_move_its_game_does_not_let_be_taken_back_is_refused(exports, game_id):
    """The first move the rules keep (it drew, revealed or handed another seat a move: the export
    takes back every move it may), followed by a forged Undo of it, the log rechained: refused by the
    rules at the Undo's line, whatever follows."""
    header, chain = envelopes(exports[game_id])
    every = runs(chain)
    kept = next(n for n in range(1, len(every) - 1)
                if "Undone" not in (every[n][0].type, every[n - 1][0].type, every[n + 1][0].type))
    head = [envelope for run in every[: kept + 1] for envelope in run]
    seat, events = every[kept][0].command.seat, len(every[kept])
    cause = Cause("forged", seat, None, Undo(events=events))
    forged = seal([Undone(seat=seat, events=events)], len(head) + 1, "", cause, now=head[-1].time + 1)
    failure = refused(rechain(header.charter, header.seed, head + [record.envelope for record in forged]))
    assert failure.version == len(head) + 1 and "cannot be taken back" in failure.reason
