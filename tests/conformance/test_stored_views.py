"""The views the projector stores (projections/views.py's ``all_views``: what every seat's view
shares encoded once for all) are, byte for byte, each seat's envelope encoded on its own, in
every game, at every version of a few random matches."""

from __future__ import annotations

import msgspec
import pytest

from domain.games import get_game, make_bot, online_game
from domain.kernel import viewers
from domain.kernel.table import Table, bot_turn
from domain.kernel.undo import undoer
from projections.views import TablePlayer, all_views, envelope, field
from tests.conformance.cases import CASES

FIRST = {case.game: case for case in reversed(CASES)}  # each game's first case


@pytest.mark.parametrize("case", FIRST.values(), ids=FIRST)
def test_stored_views_are_each_seats_envelope_encoded_alone(case):
    game = online_game(case.game)
    setup = get_game(case.game).setup(case.seats, case.options)
    players = [TablePlayer(seat, f"p{seat}", seat == 1, False) for seat in range(case.seats)]
    for match in range(3):
        table = Table(game, setup, f"stored-{match}")
        bots = [make_bot(game, "random", setup.options) for _ in range(case.seats)]
        while not table.finished:
            seat, command = bot_turn(table, bots)
            events = table.submit(seat, command)
            mover = undoer(game, table.state, (seat, len(events)))
            stored = all_views(game, "m", table.state, table.version, case.seats, players, mover)
            alone = {
                field(viewer): msgspec.json.encode(
                    envelope(game, "m", table.state, table.version, viewer, players=players, undoer=mover)
                )
                for viewer in viewers(case.seats)
            }
            assert stored == alone, f"{case.game} v{table.version}"
