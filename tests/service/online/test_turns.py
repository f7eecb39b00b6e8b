"""The projector's one turn check (services/commands/turns.py), from which both the inbox and the
notifications are kept: a seat is due while its clock runs, so a seat a sealed prompt asks is due
until the prompt closes, answered or not (services/commands/clocks.py ``is_due``)."""

from __future__ import annotations

from domain.games import get_game, make_bot, online_game
from domain.kernel import Table
from services.commands.folds import Folded
from services.commands.matches import Match
from services.commands.turns import turns


def test_a_seat_a_sealed_prompt_asks_is_due_though_it_has_nothing_legal():
    game = online_game("taverna")  # its instant spells' prompts are sealed
    setup = game.setup(4)
    table = Table(game, setup, "sealed")
    bots = [make_bot(get_game("taverna"), "random", setup.options) for _ in range(4)]
    for _ in range(3000):
        sealed = set(game.sealed(table.state))
        legal = {seat for seat in range(4) if game.legal(table.state, seat)}
        if sealed - legal:  # a seat that answered the prompt, which is still open
            break
        seat = table.actors()[0]
        table.submit(seat, bots[seat].choose(game.view(table.state, seat), game.legal(table.state, seat),
                                             table.rng(f"bot:{seat}")))  # fmt: skip
    assert sealed - legal, "no sealed prompt answered by one seat while open: the test saw nothing"
    match = Match("m", game, setup, "seed", "", (), "greedy", {}, players={seat: f"p{seat}" for seat in range(4)})
    now = turns(match, Folded(7, table.state, "", 0.0, "seed"))
    assert set(now.due) == legal | sealed
