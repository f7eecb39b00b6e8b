"""No view, legal list or event a seat receives depends on what another seat holds (RULINGS.md 19).

Over many random and greedy matches, before every command, each other seat's hand is swapped for one
of the same size that flips it (⚡ spells for none, or the other way round): the command must give the
same events, views and legal lists to every seat but the swapped one. The one-by-one prompts asked only
the holders of a usable ⚡ spell, so this failed on them at the first prompt.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.games import make_bot
from domain.kernel import Table, bot_turn
from domain.taverna.content import SPELLS
from domain.taverna.state import State, with_player
from tests.taverna.helpers import GAME

INSTANT = [s for s in SPELLS if SPELLS[s].instant]
PLAIN = [s for s in SPELLS if not SPELLS[s].instant and not SPELLS[s].curse]
MATCHES = 12  # per seat count and bot kind


def flipped(state: State, seat: int) -> State:
    hand = state.players[seat].hand
    pool = PLAIN if any(SPELLS[c].instant for c in hand) else INSTANT
    return with_player(state, seat, hand=tuple(pool[i % len(pool)] for i in range(len(hand))))


def seen(state: State, events: list, seat: int) -> bytes:
    """Everything a seat receives from one command: the events as redacted for it, its view, its legal."""
    after = state
    for event in events:
        after = GAME.evolve(after, event)
    shown = [GAME.event_view(e, seat) for e in events]
    return msgspec.json.encode([shown, GAME.view(after, seat), GAME.legal(after, seat)])


@pytest.mark.parametrize("kind", ["random", "greedy"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_no_seat_learns_who_holds_an_instant_spell(seats, kind):
    prompts = 0
    for index in range(MATCHES):
        table = Table(GAME, GAME.setup(seats), f"secrecy-{kind}-{seats}-{index}")
        bots = [make_bot(GAME, kind, table.setup.options) for _ in range(seats)]
        while not table.finished:
            seat, command = bot_turn(table, bots)
            state, rng = table.state, table.rng
            events = GAME.decide(state, command, seat, rng())
            sealed = {a.seat for a in state.answers}
            for other in range(seats):
                if other == seat or other in sealed or not state.players[other].hand:
                    continue
                twin = flipped(state, other)
                twin_events = GAME.decide(twin, command, seat, rng())
                for viewer in (*range(seats), None):
                    if viewer != other:
                        assert seen(state, events, viewer) == seen(twin, twin_events, viewer), (
                            f"seat {viewer} can tell what seat {other} holds from {command!r} at v{table.version}"
                        )
            table.submit(seat, command)
            prompts += table.state.turn is not None and bool(table.state.turn.responders)
    assert prompts > MATCHES  # the matches did reach prompts
