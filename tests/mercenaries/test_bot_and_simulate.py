"""The greedy bot against the random bot, the careful bot's three thresholds, and the simulator's
determinism."""

from __future__ import annotations

import io
import json

import pytest

from domain.games import make_bot
from domain.kernel import Rng, play
from domain.mercenaries import GAME
from domain.mercenaries.commands import Contract, DeclareAttack, EndPhase, SellMercenary
from domain.mercenaries.state import MORNING, State
from services.cli.simulate import simulate
from tests.mercenaries.build import card, merc, player, position


@pytest.mark.parametrize("greedy_seat", [0, 1])
def test_greedy_beats_random_clearly(greedy_seat):
    setup = GAME.setup(2, {"best_of": 1})
    wins = 0
    for index in range(30):
        kinds = ["random", "random"]
        kinds[greedy_seat] = "greedy"
        table = play(GAME, setup, f"bot-{greedy_seat}-{index}", [make_bot(GAME, k, setup.options) for k in kinds])
        wins += GAME.result(table.state).winners == (greedy_seat,)
    assert wins >= 24  # at least 80% over 30 games


def choices(state: State) -> dict[str, object]:
    """What each bot sends for seat 0 in this position."""
    options = GAME.setup(2).options
    return {kind: make_bot(GAME, kind, options).choose(GAME.view(state, 0), GAME.legal(state, 0), Rng("bot", 0))
            for kind in ("greedy", "careful")}


def test_the_careful_bot_attacks_only_by_two_swords_or_more():
    by_one = position(player(0, field=(merc(0, "7"),)), player(1, field=(merc(1, "5"), merc(1, "A"))))
    assert choices(by_one) == {"greedy": DeclareAttack(attackers=(card(0, "7"),)), "careful": EndPhase()}
    by_two = position(player(0, field=(merc(0, "7"),)), player(1, field=(merc(1, "5"),)))
    assert set(choices(by_two).values()) == {DeclareAttack(attackers=(card(0, "7"),))}


def test_the_careful_bot_sacrifices_no_elite_for_a_leader():
    elites = (merc(0, "9"), merc(0, "10"), merc(0, "9", "spades"))
    jack = player(0, hand=(card(0, "J"),), field=elites)
    assert choices(position(jack, phase=MORNING)) == {
        "greedy": Contract(card=card(0, "J"), sacrifices=(card(0, "9"),)), "careful": EndPhase()}
    captain = player(0, hand=(card(0, "J"),), field=(*elites[:2], merc(0, "7")))
    assert set(choices(position(captain, phase=MORNING)).values()) == {
        Contract(card=card(0, "J"), sacrifices=(card(0, "7"),))}


def test_the_careful_bot_keeps_four_cards_before_it_sells():
    elites = (merc(0, "9"), merc(0, "10"), merc(0, "9", "spades"))  # a full field: no Contract helps
    three = player(0, hand=(card(0, "3"), card(0, "A"), card(0, "4")), field=elites)
    assert choices(position(three, phase=MORNING)) == {"greedy": SellMercenary(card=card(0, "A")),
                                                       "careful": EndPhase()}
    five = player(0, hand=(card(0, "3"), card(0, "A"), card(0, "4"), card(0, "5"), card(0, "6")), field=elites)
    assert set(choices(position(five, phase=MORNING)).values()) == {SellMercenary(card=card(0, "A"))}


def match_lines(best_of: int) -> list[dict]:
    out = io.StringIO()
    simulate(GAME, GAME.setup(2, {"best_of": best_of}), "7", 40, ["random"], out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return [line for line in lines if "summary" not in line]


@pytest.mark.parametrize("best_of", [1, 3])
def test_simulate_finishes_every_match_and_is_deterministic(best_of):
    first, second = match_lines(best_of), match_lines(best_of)
    assert first == second and len(first) == 40
    for line in first:
        assert len(line["result"]["winners"]) == 1
        games = line["result"]["details"]["games"]
        assert max(sum(g["winner"] == seat for g in games) for seat in (0, 1)) == best_of // 2 + 1
