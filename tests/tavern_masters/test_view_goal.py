"""The view says what the table plays for: the Gold to reach, the last round, the challenge, and a
co-operative or solo end as won or lost (by the table, or the lone player)."""

from __future__ import annotations

import pytest

from domain.bots.random_bot import RandomBot
from domain.kernel import play
from domain.tavern_masters import GAME
from domain.tavern_masters.scoring import GOAL, ROUND_CAP
from domain.tavern_masters.state import CHALLENGE_ROUNDS


@pytest.mark.parametrize(("seats", "options"), [
    (3, {"mode": "competitive"}),
    (2, {"mode": "cooperative", "challenge": "tipsy"}),
    (3, {"mode": "cooperative", "challenge": "wasted"}),
    (1, {"mode": "solo", "challenge": "sloshed"}),
])
def test_the_view_names_the_goal_and_the_end_in_words_of_the_mode(seats, options):
    setup = GAME.setup(seats, options)
    start = GAME.view(GAME.initial(setup), 0)
    assert start.target_gold == GOAL and start.outcome == ""
    if options["mode"] == "competitive":
        assert (start.rounds, start.challenge) == (ROUND_CAP, "")
    else:
        assert (start.rounds, start.challenge) == (CHALLENGE_ROUNDS[options["challenge"]], options["challenge"])
    outcomes = set()
    for seed in range(6):
        table = play(GAME, setup, f"goal-{seed}", [RandomBot() for _ in range(seats)])
        end = GAME.view(table.state, None)
        rich = all(p.gold >= GOAL for p in end.players)
        if options["mode"] == "cooperative":
            assert end.outcome == ("table_won" if rich else "table_lost")
            assert end.winners == (tuple(range(seats)) if rich else ())
        elif options["mode"] == "solo":
            assert end.outcome == ("won" if end.players[0].gold >= GOAL else "lost")
        else:
            assert end.outcome == "winners" and end.winners
        outcomes.add(end.outcome)
    assert outcomes
