"""The views of 409 stale_version kept per match (services/gateway/stale_view.py): each the seat's
envelope as built alone, whichever seat asked first, and built again when the fold or the table
shown changes (a seat's stream opened since)."""

from __future__ import annotations

from types import SimpleNamespace

import msgspec
import pytest

from domain.games import get_game
from domain.kernel import Rng, fold
from projections.views import TablePlayer, envelope
from services.commands.folds import Folded
from services.gateway.presence import shown
from services.gateway.stale_view import StaleViews

pytestmark = pytest.mark.anyio
SEATS = 4


def folded(version: int) -> Folded:
    game = get_game("heros-tavern")
    setup = game.setup(SEATS)
    state = fold(game, setup, game.begin(game.initial(setup), Rng(f"seed{version}", 0)))
    return Folded(version, state, "hash")


async def test_each_seat_gets_its_envelope_as_built_alone_with_who_is_connected_now():
    game = get_game("heros-tavern")
    table = [TablePlayer(seat, None, False, False) for seat in range(SEATS)]
    folds = {1: folded(1), 2: folded(2)}
    match = SimpleNamespace(id="m", game=game, setup=SimpleNamespace(seats=SEATS))

    async def seating(match: object, at: Folded) -> list[TablePlayer]:
        return table

    runtime = SimpleNamespace(folds=SimpleNamespace(at=lambda match, version: folds.get(version)),
                              seating=SimpleNamespace(of=seating))
    hub = SimpleNamespace(present={"m": frozenset({0})})
    views = StaleViews()

    async def check(seat: int, version: int) -> None:
        got = await views.at(runtime, hub, match, seat, version)
        players = shown(table, hub.present["m"])
        alone = envelope(game, "m", folds[version].state, version, seat, players=players)
        assert got == msgspec.json.encode(alone)

    for seat in (2, 1, 2, 3):  # the second ask of seat 2 is answered from what was kept
        await check(seat, 1)
    hub.present["m"] = frozenset({0, 3})  # seat 3's stream opened
    await check(2, 1)
    await check(2, 2)  # a newer version
    await check(0, 1)  # an older one again
    assert await views.at(runtime, hub, match, 0, 3) is None  # a fold this process does not keep
