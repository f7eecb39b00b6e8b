"""The search bot's simulator (domain/mercenaries/playout.py) plays the rules and the careful bot as
the engine does, and the search bot decides from its seat's view alone."""

from __future__ import annotations

import pytest

from domain.kernel import Bot, Event, Table, bot_turn
from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.bot import CarefulBot
from domain.mercenaries.playout import Sim
from domain.mercenaries.search import MercenariesSearch, rank, simulator
from domain.mercenaries.state import MORNING, State

OPTIONS = [{}, {"ava_trash": "lowest_overall"}]


def on_simulator(state: State, options: dict[str, str]) -> Sim:
    """The true state on the simulator: the view's, with the hidden hands and decks as they are."""
    sim = simulator(GAME.view(state, state.active), GAME.setup(2, options).options)
    for seat, p in enumerate(state.players):
        sim.hand[seat], sim.deck[seat] = [rank(c) for c in p.hand], [rank(c) for c in p.deck]
    return sim


def summary(sim: Sim) -> tuple[object, ...]:
    return (sim.hp, sim.gold, sim.treasury, sim.active, sim.winner, [sorted(h) for h in sim.hand],
            [sorted(m[0] for m in f) for f in sim.field], [sorted(t) for t in sim.trash])


@pytest.mark.parametrize("options", OPTIONS)
def test_a_simulated_turn_of_the_careful_bots_is_the_engines(options: dict[str, str]) -> None:
    """From the Morning of every turn of whole matches: one turn played by the engine and by the
    simulator, on the same decks and the engine's dice, ends alike."""
    setup = GAME.setup(2, options)
    bots = [CarefulBot(), CarefulBot()]
    turns = fights = 0
    for match in range(3):
        table = Table(GAME, setup, f"playout-{match}")
        while not table.finished:
            state = table.state
            me = state.players[state.active]
            # an All In's reshuffle draws from each one's own random source: those turns are left out
            if state.phase != MORNING or state.all_in_turn or (not me.all_in_used and len(me.deck) <= 1):
                table.submit(*bot_turn(table, bots))
                continue
            sim = on_simulator(state, options)
            events: list[Event] = []
            while not table.finished and (table.state.turn == state.turn or table.state.phase != MORNING):
                events += table.submit(*bot_turn(table, bots))
            dice = [(sum(e.attack_dice), sum(e.defence_dice)) for e in events if isinstance(e, ev.Combat)]
            dice += [(0, sum(e.defence_dice)) for e in events if isinstance(e, ev.DirectAttack)]
            sim.dice = [dice[0] if dice else (0, 0)]
            sim.play(1)
            fights += bool(dice)
            after = table.state
            if after.number != state.number or after.match_winner >= 0:  # the game ended in that turn
                assert sim.winner == after.records[-1].winner
                continue
            expected = on_simulator(after, options)
            expected.winner = -1
            assert summary(sim) == summary(expected)
            turns += 1
    assert turns > 100 and fights > 10


def test_the_search_bot_reads_only_its_view_and_its_rng() -> None:
    """The same view, legal list and seed give the same move; a move is always a legal one."""
    setup = GAME.setup(2)
    table = Table(GAME, setup, "search-view")
    search = MercenariesSearch(setup.options, budget=200)
    bots: list[Bot] = [search, CarefulBot()]
    for _ in range(60):
        seat, move = bot_turn(table, bots)
        legal = GAME.legal(table.state, seat)
        assert move in legal
        if seat == 0:
            again = search.choose(GAME.view(table.state, 0), legal, table.rng("bot:0"))
            assert again == move
        table.submit(seat, move)
