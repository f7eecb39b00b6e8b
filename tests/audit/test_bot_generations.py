"""A timed-out move is decided again by the audit only under the bot generation that chose it
(domain/kernel/online.py ``bot_label``, ``Game.bot_generations``): a log whose timeouts name another
generation of their bot audits with those moves checked for legality only, and counted so.

An older release is played here as the game with its ``search`` bot at the first generation and
choosing otherwise (the random bot stands in for it): Hero's Tavern's search is at its second."""

from __future__ import annotations

from dataclasses import replace

import msgspec
import pytest

from domain.bots.random_bot import RandomBot
from domain.games import get_game
from projections.audit import AuditFailure, audit
from projections.chain import Envelope
from services.cli.audit import run_audit
from tests.audit.forgery import envelopes, rechain
from tests.audit.offline import export_of_play

NOW = 1_800_000_000.0  # the audit's clock in these tests (2027-01)
HT = get_game("heros-tavern")
# a release whose search bot, of its first generation, chose other moves than today's
OLDER = replace(HT, bots={**HT.bots, "search": lambda options: RandomBot()}, bot_generations={})
# the same moves, claimed by today's generation
CLAIMED = replace(OLDER, bot_generations=HT.bot_generations)


def timeouts(data: bytes) -> list[Envelope]:
    """The first entry of each timeout's run."""
    _, chain = envelopes(data)
    return [e for i, e in enumerate(chain) if e.command.command and e.command.command["type"] == "TimedOut"
            and (i == 0 or chain[i - 1].command.id != e.command.id)]


def refused(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as failure:
        audit(data, now=NOW)
    return failure.value


@pytest.fixture(scope="module")
def older() -> bytes:
    return export_of_play("heros-tavern", 3, "generations", timeouts=4, release=OLDER)


def test_a_timeout_by_this_release_s_generation_is_decided_again():
    data = export_of_play("heros-tavern", 3, "generations", timeouts=4)
    assert {e.command.command["bot"] for e in timeouts(data)} == {"search@2"}
    report = audit(data, now=NOW)
    assert report.legality_only == 0 and len(timeouts(data)) >= 5
    # other moves than today's search bot chooses, under its generation: refused, at a timeout's run
    failure = refused(export_of_play("heros-tavern", 3, "generations", timeouts=4, release=CLAIMED))
    runs = {e.version for e in timeouts(data)}
    assert "TimedOut" in failure.reason and "gives" in failure.reason
    assert failure.version in runs or failure.version - 1 in runs


def test_a_timeout_by_an_older_generation_audits_for_legality_only(older, tmp_path, capsys):
    found = timeouts(older)
    assert {e.command.command["bot"] for e in found} == {"search"} and len(found) >= 5
    report = audit(older, now=NOW)
    assert report.legality_only == len(found)
    # the very moves are not what today's generation chooses: only the legality check accepts them
    claimed = export_of_play("heros-tavern", 3, "generations", timeouts=4, release=CLAIMED)
    assert "TimedOut" in refused(claimed).reason
    path = tmp_path / "older.jsonl"
    path.write_bytes(older)
    assert run_audit(str(path)) == 0
    assert f"but {len(found)} timed-out move(s), by a bot generation this release does not have: checked for " \
           "legality only" in capsys.readouterr().out


def with_a_card_picked_before(data: bytes) -> tuple[bytes, int]:
    """The log with a timed-out seat's pick forged into a card that seat picked earlier (no longer
    in its hand), every hash redone; and the version of the forged entry."""
    header, chain = envelopes(data)
    picked: dict[int, str] = {}  # each seat's last pick
    for index, envelope in enumerate(chain):
        if envelope.type != "CardPicked":
            continue
        event = msgspec.json.decode(envelope.event)
        if envelope.command.command["type"] == "TimedOut" and event["seat"] in picked:
            forged = msgspec.json.encode({**event, "card": picked[event["seat"]]})
            chain[index] = msgspec.structs.replace(envelope, event=msgspec.Raw(forged))
            return rechain(header.charter, header.seed, chain), envelope.version
        picked[event["seat"]] = event["card"]
    raise AssertionError("no timed-out pick after a pick of the same seat")


def test_an_illegal_move_under_an_older_generation_is_refused(older):
    forged, version = with_a_card_picked_before(older)
    failure = refused(forged)
    assert failure.version == version - 1  # named at the timeout's run, whose first entry is SeatTimedOut
    assert "by a bot generation this release does not have, gives the events of none of its legal moves" \
        in failure.reason


@pytest.mark.parametrize(("game_id", "seats", "kind"),
                         [("mercenaries", 2, "careful"), ("tavern-masters", 2, "planner")])
def test_a_log_from_before_generations_audits_as_it_did(game_id, seats, kind):
    """Its timeouts name the bot's kind alone: the first generation, still this release's for these
    kinds, so every timed-out move is decided again and another move refused."""
    data = export_of_play(game_id, seats, "before", timeouts=3)
    found = timeouts(data)
    assert found and {msgspec.json.encode(e.command.command) for e in found} == {
        b'{"type":"TimedOut","limit":3,"forfeit":false,"bot":"%s"}' % kind.encode()}
    assert audit(data, now=NOW).legality_only == 0
    game = get_game(game_id)
    other = replace(game, bots={**game.bots, kind: lambda options: RandomBot()})
    assert "TimedOut" in refused(export_of_play(game_id, seats, "before", timeouts=3, release=other)).reason
