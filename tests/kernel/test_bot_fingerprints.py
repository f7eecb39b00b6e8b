"""A bot's moves are pinned to its generation (issue 36): the auditor re-decides a timed-out move
only with the generation the log names (domain/kernel/online.py), so a change to a bot's moves that
keeps its generation would make older logs' timeouts fail their audit. Each bot plays the opening
of a fixed match; the commands it sends are hashed and compared with the fingerprint recorded for
its label. A different hash under the same label is a forgotten bump: raise the kind's number in
the game's ``bot_generations`` (domain/<game>/__init__.py) and record the new label's fingerprint
in bot_fingerprints.json (the failure prints it)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from domain.games import game_ids, get_game, make_bot
from domain.kernel import Table, bot_turn
from domain.kernel.online import bot_label

RECORDED = Path(__file__).with_name("bot_fingerprints.json")
COMMANDS = 60  # the opening and on: each bot's own choices, within a few seconds for the search bots
KINDS = [(game_id, kind) for game_id in game_ids() for kind in ("random", *get_game(game_id).bots)]


def fingerprint(game_id: str, kind: str) -> str:
    game = get_game(game_id)
    setup = game.setup(game.min_seats)
    table = Table(game, setup, f"fingerprint:{kind}")
    bots = [make_bot(game, kind, setup.options) for _ in range(setup.seats)]
    sent = []
    for _ in range(COMMANDS):
        if table.finished:
            break
        seat, command = bot_turn(table, bots)
        sent.append([seat, msgspec.to_builtins(command)])
        table.submit(seat, command)
    return hashlib.sha256(msgspec.json.encode(sent)).hexdigest()[:16]


@pytest.mark.parametrize(("game_id", "kind"), KINDS)
def test_a_bots_moves_are_those_of_its_generation(game_id, kind):
    label = f"{game_id}/{bot_label(get_game(game_id), kind)}"
    found = fingerprint(game_id, kind)
    recorded = json.loads(RECORDED.read_text())
    assert label in recorded, f"no fingerprint for {label}: record {json.dumps({label: found})} in {RECORDED.name}"
    assert recorded[label] == found, (
        f"{label} moves differently ({found}, recorded {recorded[label]}): a new generation of the bot; raise "
        f"its number in {game_id}'s bot_generations and record the new label's fingerprint"
    )


def test_every_recorded_label_is_a_bot_of_this_release():
    """An older generation's line goes when its number is raised: only this release's bots are pinned."""
    labels = {f"{game_id}/{bot_label(get_game(game_id), kind)}" for game_id, kind in KINDS}
    assert set(json.loads(RECORDED.read_text())) == labels
