"""The game as registered: seats, options, and the refusals that hold in every phase."""

from __future__ import annotations

import pytest

from domain.games import get_game, make_bot
from domain.kernel import Command, RulesError
from domain.tavern_masters import GAME
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.commands import Done, PlayCard
from tests.tavern_masters.helpers import make, refused


class Shout(Command, frozen=True):
    """Not a Tavern Masters command."""


def test_registered_with_one_to_six_seats_and_its_options():
    game = get_game("tavern-masters")
    assert game is GAME and (game.min_seats, game.max_seats) == (1, 6)
    assert game.setup(1, {"mode": "solo"}).options == {
        "mode": "solo", "challenge": "buzzed", "dirty_deeds": False, "round_cap": 10, "draft": "2018",
        "card_list": 2}
    assert isinstance(make_bot(game, "greedy", {}), GreedyBot)


@pytest.mark.parametrize(("seats", "options", "code"), [
    (0, {}, "bad_seats"),
    (7, {}, "bad_seats"),
    (2, {"mode": "teams"}, "bad_option"),
    (2, {"challenge": "sober"}, "bad_option"),
    (2, {"dirty_deeds": "yes"}, "bad_option"),
    (2, {"extras": True}, "bad_option"),
])
def test_bad_setups_are_refused(seats, options, code):
    with pytest.raises(RulesError) as error:
        GAME.setup(seats, options)
    assert error.value.code == code


def test_nothing_is_accepted_once_the_match_is_over():
    over = make(winners=(0,), phase="over", players=[{"hand": ("meat-pie-1",), "gold": 5}])
    refused(over, 0, PlayCard(card="meat-pie-1"), "match_over")
    assert GAME.legal(over, 0) == []


def test_seat_and_command_must_exist():
    state = make()
    refused(state, 5, Done(), "no_such_seat")
    refused(state, 0, Shout(), "unknown_command")


def test_done_outside_day_night_and_deeds():
    refused(make(phase="till"), 0, Done(), "nothing_to_finish")
    refused(make(phase="draft"), 0, Done(), "nothing_to_finish")
