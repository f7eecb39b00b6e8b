"""The end of a match in categories: each kind of Gold change in its account, and random matches in
every mode, with and without Dirty Deeds."""

from __future__ import annotations

import pytest

from domain.bots.random_bot import RandomBot
from domain.kernel import play
from domain.tavern_masters import GAME
from domain.tavern_masters import events as ev
from domain.tavern_masters.breakdown import CATEGORIES, breakdown
from domain.tavern_masters.state import Ledger
from tests.tavern_masters.helpers import make

# Counting the Till's example (TM-T1): an Ale Patron and an Any Drink Patron (1 Gold each), a Noble (2)
TAVERN = ("dwarven-ale-1", "thirsty-farmer-1", "weary-pilgrim-1", "baroness-1")


def test_each_gold_change_is_booked_in_its_account():
    state = make(2, [{"gold": 10, "tavern": TAVERN}, {"gold": 10, "tavern": ("master-brewer-1", "dwarven-ale-2",
                                                                             "pale-ale-1", "honey-mead-1")}])
    for event in [ev.IncomeCounted(gains=(4, 2)), ev.GoldChanged(seat=1, amount=-2), ev.GoldChanged(seat=0, amount=2),
                  ev.Offer(id=0, by=0, to=1, gold=3), ev.OfferAnswered(offer=0, accepted=True)]:
        state = GAME.evolve(state, event)
    assert state.players[0].ledger == Ledger(patrons=4, trades=-3, deeds=2)
    assert state.players[1].ledger == Ledger(goods_staff=2, trades=3, deeds=-2)  # the Master Brewer's bonus
    assert [p.gold for p in state.players] == [13, 13]


@pytest.mark.parametrize(
    ("seats", "options"),
    [(2, {}), (4, {"dirty_deeds": True}), (3, {"mode": "cooperative", "challenge": "tipsy"}),
     (1, {"mode": "solo", "dirty_deeds": True})],
)
def test_random_matches_add_up_to_their_gold(seats, options):
    for index in range(5):
        setup = GAME.setup(seats, options)
        table = play(GAME, setup, f"breakdown-{seats}-{index}", [RandomBot() for _ in range(seats)])
        lines = breakdown(table.state)
        names = tuple(line.category for line in lines)
        assert set(names) <= set(CATEGORIES) and ("deeds" in names) == setup.options["dirty_deeds"]
        assert ("trades" in names) == (seats > 1) and lines[0].points == (3,) * seats
        gold = tuple(p.gold for p in table.state.players)
        assert tuple(sum(line.points[seat] for line in lines) for seat in range(seats)) == gold
        spent = next(line for line in lines if line.category == "spent")
        assert all(points <= 0 for points in spent.points)
