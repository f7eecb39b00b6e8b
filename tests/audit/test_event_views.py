"""Each game's event_view is an allow-list: an event type it does not name is shown to nobody,
and (with the kernel's AllowList) every event type of the game is named, so none is lost."""

from __future__ import annotations

import typing

import pytest

from domain.games import game_ids, get_game
from domain.kernel import Event
from domain.kernel.redaction import AllowList, to_everyone


class Unforeseen(Event, frozen=True):
    """An event type no game has heard of, carrying a secret."""

    secret: str = "the seed"


@pytest.mark.parametrize("game_id", game_ids())
def test_an_event_type_the_game_does_not_name_is_shown_to_nobody(game_id):
    game = get_game(game_id)
    for seat in [None, *range(game.max_seats)]:
        assert game.event_view(Unforeseen(), seat) is None


# Games whose event_view is the kernel's AllowList, whose names can be compared with the event types.
LISTED = [game_id for game_id in game_ids() if isinstance(get_game(game_id).event_view, AllowList)]


def test_the_games_on_main_use_the_kernels_allow_list():
    assert set(LISTED) == set(game_ids())


@pytest.mark.parametrize("game_id", LISTED)
def test_every_event_type_of_the_game_is_on_its_allow_list(game_id):
    game = get_game(game_id)
    assert set(typing.get_args(game.event_type)) == set(game.event_view.shown)


def test_the_allow_list_applies_what_it_names():
    class Open(Event, frozen=True):
        n: int

    view = AllowList({Open: to_everyone})
    assert view(Open(n=1), 0) == Open(n=1) and view(Unforeseen(), 0) is None
