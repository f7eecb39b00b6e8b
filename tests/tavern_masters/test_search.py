"""The search bot's score of where a playout ends (domain/tavern_masters/search.py): each seat's Gold
projected by the planner's model to the Till that should end the match, exact once it is over."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.tavern_masters.planner import incomes
from domain.tavern_masters.search import projected_gold
from domain.tavern_masters.till import till_income
from tests.tavern_masters.helpers import make

ALE = ("dwarven-ale-1", "dock-worker-1")  # a Dock Worker seated by its Ale: 1 Gold a Till
RICH = ("dwarven-ale-2", "old-smith-1", "thirsty-farmer-1")


def test_a_finished_match_scores_the_gold_itself():
    state = make(players=[{"gold": 21, "tavern": RICH}, {"gold": 12, "tavern": ALE}], card_list=2, winners=(0,))
    assert projected_gold(state) == [21.0, 12.0]


def test_the_projection_stops_at_the_till_where_a_rival_should_reach_20():
    """A rival at 19 earning 2 a Till ends the match at this Till: the other seat gets one Till's
    income, not the several its Tavern would earn in a longer match."""
    state = make(players=[{"gold": 10, "tavern": ALE}, {"gold": 19, "tavern": RICH}], card_list=2, round=4)
    one_till = incomes(ALE, 0, 1, state)[0]
    assert projected_gold(state)[0] == pytest.approx(10 + one_till)
    slower = replace(state, players=(state.players[0], replace(state.players[1], gold=5)))
    assert projected_gold(slower)[0] > 10 + 2 * one_till  # nobody near 20: more Tills counted


def test_at_night_the_patrons_already_dealt_are_not_counted_twice():
    """At Night this round's Patrons are in the hands: the coming Till brings what the Tavern earns
    and the Patrons waiting there, no share of another deal."""
    players = [{"gold": 10, "tavern": ALE}, {"gold": 19, "tavern": RICH}]
    night = make(players=players, card_list=2, round=4, phase="night")
    assert projected_gold(night)[0] == pytest.approx(10 + till_income(ALE))
    day = replace(night, phase="day")
    assert projected_gold(day)[0] > projected_gold(night)[0]  # a Night's deal still to come
