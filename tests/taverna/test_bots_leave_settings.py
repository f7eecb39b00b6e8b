"""A bot never toggles "always pass" (Game.setting: domain/games.py, make_bot): the setting changes no move,
and the search, offered it, could prefer toggling it at each new version it was asked again at. In
the service a conceded seat's bot did so for minutes (tests/service/online/test_concede_leave.py
failed in CI, its match never ending); this match, played as that test plays it (the other two
seats random, the bot asked at every version with the rng the service gives it), had its bot toggle
the setting 71 times before the fix."""

from __future__ import annotations

import random

from domain.games import fallback_bot, make_bot, online_game
from domain.kernel import Rng, Table
from domain.kernel.online import Concede, Leave, Reclaim, bot_seats
from domain.taverna.commands import SetAutoPass


def test_a_conceded_seats_bot_never_toggles_always_pass():
    game = online_game("taverna")
    setup = game.setup(3)
    table = Table(game, setup, "m14")
    table.submit(2, Leave())
    table.submit(2, Reclaim())
    table.submit(1, Concede())
    bot = make_bot(game, fallback_bot(game, setup), setup.options)
    people, sent = random.Random(5), []
    for _ in range(3_000):
        if table.finished:
            break
        for seat in (0, 2):
            if not table.finished and (legal := game.legal(table.state, seat)):
                table.submit(seat, people.choice(legal))
        for seat in sorted(bot_seats(table.state)):
            if not table.finished and (legal := game.legal(table.state, seat)):
                command = bot.choose(game.view(table.state, seat), legal, Rng("m14", table.version, f"bot:{seat}"))
                sent.append(command)
                table.submit(seat, command)
    assert table.finished
    assert sent and not any(isinstance(command, SetAutoPass) for command in sent)
