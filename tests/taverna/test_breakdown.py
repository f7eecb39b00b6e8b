"""The end of a match in categories: the rulebook's end-game example and the points scored in play."""

from __future__ import annotations

from domain.taverna import events as ev
from domain.taverna.breakdown import breakdown
from domain.taverna.commands import ChooseScoring
from domain.taverna.state import evolve
from tests.taverna.helpers import act, game_state
from tests.taverna.test_scoring import ETIENNE, FRED, KARL, end_example


def test_the_rulebooks_end_game_example():
    """Karl 18 (5 for the King, 10 humans, 4 elves, -1 dwarves), Fred 14 (9 for the Master of coins,
    2 dwarves, 2 orcs, 1 privilege), Etienne 19 (12 for the Archduke, 4 humans, 2 dwarves, 1 orc)."""
    state, _ = end_example()
    assert breakdown(state) is None
    for seat, option in [(KARL, "king"), (FRED, "coins"), (ETIENNE, "archduke")]:
        state, _ = act(state, seat, ChooseScoring(option=option))
    lines = {line.category: line.points for line in breakdown(state)}
    assert lines["royal"] == (5, 9, 12) and lines["privileges"] == (0, 1, 0)
    people = (lines["elf"], lines["dwarf"], lines["orc"], lines["human"])
    assert people == ((4, 0, 0), (-1, 2, 2), (0, 2, 1), (10, 0, 4))
    assert all(lines[name] == (0, 0, 0) for name in ("deeds", "guilds", "tracks", "spells"))
    assert tuple(sum(points[seat] for points in lines.values()) for seat in range(3)) == (18, 14, 19) == state.scores


def test_points_scored_in_play_go_to_their_category():
    state = game_state(3)
    for event in [ev.DeedBought(seat=0, tavern="t1", space=0, price=4, points=3),
                  ev.Gained(seat=0, reason="gobtrotter", points=6), ev.Gained(seat=0, reason="royal favour", points=3),
                  ev.Gained(seat=0, reason="elf track", points=2, coins=1),
                  ev.Gained(seat=0, reason="spell Treasure", points=4), ev.Gained(seat=1, reason="income", coins=3)]:
        state = evolve(state, event)
    tally = state.players[0].tally
    assert (tally.deeds, tally.guilds, tally.tracks, tally.spells) == (3, 9, 2, 4)
    assert state.players[0].points == 18 and state.players[1].tally == state.players[2].tally
