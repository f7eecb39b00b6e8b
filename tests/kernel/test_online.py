"""Concede, leave and timeouts over every game (domain/kernel/online.py), in memory."""

from __future__ import annotations

import pytest

from domain.games import game_ids, get_game, make_bot, online_game
from domain.kernel import RulesError, Table
from domain.kernel.online import (
    Concede,
    Conceded,
    Leave,
    Reclaim,
    Reclaimed,
    SeatTimedOut,
    StreakEnded,
    TakenOver,
    TakeVacation,
    TimedOut,
    VacationTaken,
    bot_label,
    bot_seats,
    left_seats,
    taken_reason,
    vacation_days_taken,
)
from tests.conformance.harness import check_match


def table(game_id: str, seats: int, seed: str = "s") -> Table:
    game = online_game(game_id)
    return Table(game, game.setup(seats), seed)


def play_out(t: Table, limit: int = 20_000) -> None:
    bots = [make_bot(get_game(t.game.id), "random", t.setup.options) for _ in range(t.setup.seats)]
    for _ in range(limit):
        if t.finished:
            return
        seat = t.actors()[0]
        legal = t.game.legal(t.state, seat)
        t.submit(seat, bots[seat].choose(t.game.view(t.state, seat), legal, t.rng(f"bot:{seat}")))
    raise AssertionError("no end")


TWO_SEATS = [game_id for game_id in game_ids() if get_game(game_id).min_seats <= 2 <= get_game(game_id).max_seats]


@pytest.mark.parametrize("game_id", TWO_SEATS)
def test_conceding_in_a_two_seat_match_ends_it_for_the_other(game_id):
    t = table(game_id, 2)
    assert t.submit(1, Concede()) == [Conceded(seat=1)]
    result = t.game.result(t.state)
    assert result.winners == (0,) and [(s.seat, s.rank) for s in result.standings] == [(0, 1), (1, 2)]
    assert result.details["ended"] == "conceded"
    assert t.game.breakdown(t.state) is None  # never scored: no categories
    with pytest.raises(RulesError) as refused:
        t.submit(0, Concede())
    assert refused.value.code == "match_finished"
    assert t.game.legal(t.state, 0) == []


def test_a_conceded_seat_of_three_is_played_by_a_bot_and_ranks_last():
    t = table("heros-tavern", 3)
    t.submit(0, Concede())
    assert t.game.result(t.state) is None and bot_seats(t.state) == {0}
    with pytest.raises(RulesError) as twice:
        t.submit(0, Concede())
    assert twice.value.code == "already_conceded"
    play_out(t)
    result = t.game.result(t.state)
    assert [s.seat for s in result.standings if s.rank == 3] == [0] and 0 not in result.winners
    assert result.details["conceded"] == [0]
    lines = t.game.breakdown(t.state)  # the game's own, played to the end: each seat's adds up to its score
    assert [sum(line.points[s.seat] for line in lines) for s in result.standings] == [s.score for s in result.standings]


def test_leaving_hands_the_seat_to_a_bot_for_good():
    t = table("taverna", 3)
    assert t.submit(2, Leave()) == [TakenOver(seat=2, reason="left")]
    assert bot_seats(t.state) == {2}
    with pytest.raises(RulesError) as again:
        t.submit(2, Leave())
    assert again.value.code == "already_left"


def until_due(t: Table, seat: int) -> None:
    while seat not in t.actors():
        other = t.actors()[0]
        t.submit(other, t.game.legal(t.state, other)[0])


def test_timeouts_play_the_move_then_take_the_seat_over_at_the_limit():
    t = table("heros-tavern", 3)
    seat = t.actors()[0]
    before = t.version
    events = t.submit(seat, TimedOut(limit=2))
    assert events[0] == SeatTimedOut(seat=seat, streak=1) and len(events) > 1 and t.version > before
    until_due(t, seat)
    own = t.submit(seat, t.game.legal(t.state, seat)[0])  # the seat acts itself: its run of timeouts ends
    assert own[0] == StreakEnded(seat=seat)
    for streak in (1, 2):
        until_due(t, seat)
        events = t.submit(seat, TimedOut(limit=2))
        assert events[0] == SeatTimedOut(seat=seat, streak=streak)
    assert events[-1] == TakenOver(seat=seat, reason="timeouts") and bot_seats(t.state) == {seat}


def test_a_seat_lost_to_timeouts_is_reclaimed_by_its_player_with_its_run_of_timeouts_reset():
    t = table("heros-tavern", 3)
    seat = t.actors()[0]
    t.submit(seat, TimedOut(limit=1))
    assert taken_reason(t.state, seat) == "timeouts"
    assert t.submit(seat, Reclaim()) == [Reclaimed(seat=seat)]
    assert bot_seats(t.state) == set() and taken_reason(t.state, seat) is None and t.state.streaks[seat] == 0
    with pytest.raises(RulesError) as twice:
        t.submit(seat, Reclaim())
    assert twice.value.code == "not_taken_over"
    until_due(t, seat)
    assert t.submit(seat, TimedOut(limit=1))[0] == SeatTimedOut(seat=seat, streak=1)  # a new run, from one


def test_a_seat_that_left_comes_back_but_one_that_conceded_does_not():
    t = table("taverna", 3)
    t.submit(2, Leave())
    assert taken_reason(t.state, 2) == "left"
    assert t.submit(2, Reclaim()) == [Reclaimed(seat=2)] and left_seats(t.state) == set()
    t.submit(1, Concede())
    assert taken_reason(t.state, 1) == "conceded"
    with pytest.raises(RulesError) as refused:
        t.submit(1, Reclaim())
    assert refused.value.code == "conceded_for_good" and bot_seats(t.state) == {1}


def test_a_forfeit_at_the_limit_concedes():
    t = table("mercenaries", 2)
    seat = t.actors()[0]
    events = t.submit(seat, TimedOut(limit=1, forfeit=True))
    assert events[-1] == Conceded(seat=seat) and t.finished
    assert t.game.result(t.state).winners == (1 - seat,)


def test_a_seat_with_nothing_to_do_cannot_time_out():
    t = table("mercenaries", 2)
    idle = 1 - t.actors()[0] if len(t.actors()) == 1 else None
    if idle is None:
        pytest.fail("mercenaries opens with one seat to act")
    with pytest.raises(RulesError) as refused:
        t.submit(idle, TimedOut())
    assert refused.value.code == "not_due"


@pytest.mark.parametrize("game_id", game_ids())
def test_a_match_without_these_acts_decides_and_ends_as_the_game_alone(game_id):
    plain, wrapped = get_game(game_id), online_game(game_id)
    seats = max(plain.min_seats, 2) if plain.max_seats >= 2 else 1
    a, b = Table(plain, plain.setup(seats), "x"), Table(wrapped, wrapped.setup(seats), "x")
    play_out(a)
    play_out(b)
    assert a.events == b.events and plain.result(a.state) == wrapped.result(b.state)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_online_games_pass_the_conformance_harness(game_id):
    game = online_game(game_id)
    seats = max(game.min_seats, min(3, game.max_seats))
    for index in range(3):
        check_match(game, game.setup(seats), seed=f"online-{game_id}-{index}")


@pytest.mark.parametrize("how", ["concede", "forfeit"])
def test_a_seat_that_gives_up_in_a_match_of_three_ranks_last_whether_it_conceded_or_forfeited(how):
    """A forfeit (the clock's limit with ``forfeit``) is a concession: the seat ranks last, whatever
    rank the bot playing it on reaches; a seat taken over for its timeouts keeps its bot's rank."""
    t = table("heros-tavern", 3, seed="forfeit")
    seat = t.actors()[0]
    given_up = t.submit(seat, Concede() if how == "concede" else TimedOut(limit=1, forfeit=True))
    assert given_up[-1] == Conceded(seat=seat) and bot_seats(t.state) == {seat}
    play_out(t)
    result = t.game.result(t.state)
    assert max(result.standings, key=lambda s: s.rank).seat == seat and seat not in result.winners
    assert sorted(s.rank for s in result.standings)[-1] == 3 and result.details["conceded"] == [seat]


def test_a_timeout_names_its_bot_s_generation_from_the_second_on():
    game = online_game("heros-tavern")
    assert bot_label(game, "greedy") == "greedy" and bot_label(game, "search") == "search@2"
    for game_id in game_ids():  # a generation named is a kind the game has, past its first
        plain = get_game(game_id)
        assert all(kind in plain.bots and generation >= 2 for kind, generation in plain.bot_generations.items())


@pytest.mark.parametrize(("bot", "code"), [
    ("search", "other_bot_generation"), ("search@3", "other_bot_generation"), ("search@1", "bad_bot_label"),
    ("search@02", "bad_bot_label"), ("search@", "bad_bot_label"), ("@2", "bad_bot_label"),
    ("search@2@3", "bad_bot_label"), ("banana@2", "unknown_bot"),
])
def test_the_rules_decide_a_timeout_only_by_this_release_s_generation_of_a_bot_it_has(bot, code):
    t = table("heros-tavern", 3)
    with pytest.raises(RulesError) as refused:
        t.submit(t.actors()[0], TimedOut(bot=bot))
    assert refused.value.code == code
    assert t.game.alternatives(t.state, TimedOut(bot="search@2"), t.actors()[0], t.rng) is None


@pytest.mark.parametrize("game_id", game_ids())
def test_another_generation_s_timeout_may_have_given_the_events_of_any_legal_move(game_id):
    """Among them those of the move this release's bot chooses, the rules' stream drawn alike (in
    Mercenaries, the dice a move rolls)."""
    t = table(game_id, max(get_game(game_id).min_seats, 2))
    for _ in range(60):
        if t.finished:
            return
        seat = t.actors()[0]
        ways = list(t.game.alternatives(t.state, TimedOut(bot="greedy@2", limit=99), seat, t.rng))
        assert len(ways) == len(t.game.legal(t.state, seat))
        assert t.submit(seat, TimedOut(bot="greedy", limit=99)) in ways


@pytest.mark.parametrize("game_id", game_ids())
def test_a_due_seat_takes_vacation_days_up_to_its_allowance_and_plays_no_move(game_id):
    t = table(game_id, max(2, get_game(game_id).min_seats))
    seat = t.actors()[0]
    idle = next((s for s in range(t.setup.seats) if not t.game.legal(t.state, s)), None)
    assert t.submit(seat, TakeVacation(allowance=2)) == [VacationTaken(seat=seat, day=1)]
    assert t.submit(seat, TakeVacation(allowance=2)) == [VacationTaken(seat=seat, day=2)]
    assert vacation_days_taken(t.state, seat) == 2 and t.game.legal(t.state, seat)  # still owes its move
    with pytest.raises(RulesError) as spent:
        t.submit(seat, TakeVacation(allowance=2))
    assert spent.value.code == "no_vacation_left"
    assert t.submit(seat, TakeVacation(allowance=3)) == [VacationTaken(seat=seat, day=3)]
    if idle is not None:  # a seat with nothing to do has no deadline to take a day at
        with pytest.raises(RulesError) as not_due:
            t.submit(idle, TakeVacation(allowance=2))
        assert not_due.value.code == "not_due"
