"""The search bot (domain/tavern_masters/search.py): its score of where a playout ends, each seat's Gold
projected by the planner's model to the Till that should end the match, exact once it is over; at 2
seats, what its determinizations deal the rival in the draft and the mulligan."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import Rng, Table, bot_turn
from domain.tavern_masters import GAME
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.planner import incomes
from domain.tavern_masters.search import projected_gold, sample
from domain.tavern_masters.state import State
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


def opening(seats: int, draft: str, seed: str) -> list[State]:
    """The states of a greedy table's draft and mulligan."""
    table = Table(GAME, GAME.setup(seats, {"draft": draft}), seed)
    bots = [GreedyBot() for _ in range(seats)]
    out = []
    while table.state.phase in ("draft", "mulligan"):
        out.append(table.state)
        table.submit(*bot_turn(table, bots))
    return out


@pytest.mark.parametrize("draft", ["2018", "booklet"])
def test_at_two_seats_a_view_keeps_the_packets_the_seat_passed(draft):
    """The rival holds the packet the seat passed it last; nothing is kept at more seats."""
    checked = 0
    for seed in range(4):
        for state in opening(2, draft, f"passed-{draft}-{seed}"):
            for seat in (0, 1):
                passed = GAME.view(state, seat).passed
                assert len(passed) == (state.draft_step if state.phase == "draft" else state.draft_keeps - 1)
                rival = state.players[1 - seat]
                if state.phase == "draft" and passed and not rival.picked:
                    assert rival.packet == passed[-1]
                    checked += 1
        three = opening(3, draft, f"three-{seed}")
        assert all(GAME.view(state, seat).passed == () for state in three for seat in (0, 1, 2))
    assert checked > 10


@pytest.mark.parametrize("draft", ["2018", "booklet"])
def test_the_determinization_deals_the_rival_what_the_seat_knows(draft):
    """In the draft the rival's packet and every card it took from the seat's packets are dealt as they
    are (the card kept from the packet in front of it now, in its hand or packet); in the mulligan, its
    picks from every packet but the last. The rest is drawn anew."""
    options = GAME.setup(2, {"draft": draft}).options
    known = redrawn = 0
    for seed in range(4):
        for index, state in enumerate(opening(2, draft, f"rival-{draft}-{seed}")):
            for seat in (0, 1):
                seen = GAME.view(state, seat)
                true, rival = state.players[1 - seat], 1 - seat
                passed = [c for packet in seen.passed for c in packet]
                for draw in range(3):
                    drawn = sample(seen, Rng("rival", index * 3 + draw, "sample"), options)
                    assert GAME.view(drawn, seat) == seen
                    mine = drawn.players[rival]
                    if state.phase == "draft":
                        assert {*true.hand, *true.packet} & {*passed} <= {*mine.hand, *mine.packet}
                        assert true.picked or not seen.passed or mine.packet == true.packet
                    else:
                        earlier = {c for packet in seen.passed[:-1] for c in packet}
                        assert {*true.hand} & earlier <= {*mine.hand}
                    known += bool({*true.hand, *true.packet} & {*passed})
                    redrawn += mine.hand != true.hand
    assert known > 20 and redrawn > 0  # the rival's first pick is never known
