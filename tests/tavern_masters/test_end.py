"""How the match ends: competitive at 20 Gold (a tie for most plays on), co-operative and solo after
the Challenge Chart's rounds."""

from __future__ import annotations

from domain.kernel import play
from domain.tavern_masters import GAME
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.commands import Done
from domain.tavern_masters.state import CHALLENGE_ROUNDS
from tests.tavern_masters.helpers import make, send


def night_end(golds, **fields):
    """The last Done of a Night whose Till pays nothing: the end check runs on these Golds."""
    state = make(seats=len(golds), phase="night", players=[{"gold": g} for g in golds], **fields)
    for seat in range(len(golds)):
        state, _ = send(state, seat, Done())
    return state


def test_challenge_chart():
    assert CHALLENGE_ROUNDS == {"buzzed": 6, "tipsy": 5, "sloshed": 4, "hammered": 3, "wasted": 2}
    assert GAME.initial(GAME.setup(2, {"challenge": "tipsy"})).rounds == 5


def test_twenty_gold_ends_the_match_and_the_most_gold_wins():
    # TM-T6: 20 and 17 after round 5: the match ends, seat 0 wins
    state = night_end([20, 17], round=5)
    result = GAME.result(state)
    assert result.winners == (0,) and result.details["reason"] == "most_gold"
    assert [s.rank for s in result.standings] == [1, 2]
    assert GAME.legal(state, 0) == []


def test_under_twenty_plays_on():
    state = night_end([19, 18], round=5)
    assert GAME.result(state) is None and state.round == 6


def test_a_tie_for_most_gold_plays_one_more_round_for_everyone():
    # TM-T6: 21, 21, 15 after round 5: everyone plays round 6; then 23, 22, 25: seat 2 wins
    state = night_end([21, 21, 15], round=5)
    assert GAME.result(state) is None and state.tie_rounds == 1 and state.round == 6
    state = night_end([23, 22, 25], round=6, tie_rounds=1)
    assert GAME.result(state).winners == (2,)


def test_after_a_tie_round_the_sole_leader_wins_even_under_twenty():
    state = night_end([12, 11], round=6, tie_rounds=1)
    assert GAME.result(state).winners == (0,)


def test_ties_share_the_win_after_three_extra_rounds():
    state = night_end([22, 22], round=9, tie_rounds=3)
    assert GAME.result(state).winners == (0, 1) and GAME.result(state).details["reason"] == "shared_after_ties"


def test_round_cap_ends_a_competitive_match():
    state = night_end([5, 7], round=10)
    assert GAME.result(state).winners == (1,) and GAME.result(state).details["reason"] == "round_cap"


def test_without_the_round_cap_a_competitive_match_plays_on_as_the_rulebook_does():
    spec = next(s for s in GAME.options if s.name == "round_cap")
    assert spec.default == 10 and 0 in spec.choices and spec.description
    state = night_end([5, 7], round=10, round_cap=0)
    assert GAME.result(state) is None and state.round == 11
    state = night_end([5, 21], round=14, round_cap=0)
    assert GAME.result(state).winners == (1,)
    for index in range(5):  # seats that fall back to the greedy bot still finish such a match
        table = play(GAME, GAME.setup(3, {"round_cap": 0}), f"uncapped-{index}", [GreedyBot() for _ in range(3)])
        assert GAME.result(table.state).details["reason"] != "round_cap"


def test_a_lone_competitive_seat_under_twenty_gold_at_the_cap_has_not_won():
    state = night_end([0], round=10)
    assert GAME.result(state).winners == () and GAME.result(state).details["reason"] == "round_cap"
    assert GAME.result(night_end([20], round=4)).winners == (0,)


def test_cooperative_all_win_or_all_lose_after_the_chosen_rounds():
    # TM-T7: Tipsy (5 rounds), 3 players: 20, 24, 19 lose; 20, 24, 20 win
    lose = night_end([20, 24, 19], round=5, mode="cooperative", challenge="tipsy")
    assert GAME.result(lose).winners == ()
    win = night_end([20, 24, 20], round=5, mode="cooperative", challenge="tipsy")
    assert GAME.result(win).winners == (0, 1, 2)


def test_cooperative_does_not_end_early_at_twenty():
    state = night_end([25, 30], round=3, mode="cooperative", challenge="tipsy")
    assert GAME.result(state) is None


def test_solo_wins_with_twenty_after_the_chosen_rounds():
    assert GAME.result(night_end([20], round=2, mode="solo", challenge="wasted")).winners == (0,)
    assert GAME.result(night_end([19], round=2, mode="solo", challenge="wasted")).winners == ()
    assert GAME.result(night_end([30], round=1, mode="solo", challenge="wasted")) is None


def test_standings_rank_by_gold_with_ties_sharing():
    result = GAME.result(night_end([20, 25, 20], round=4))
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 2, 20), (1, 1, 25), (2, 2, 20)]
