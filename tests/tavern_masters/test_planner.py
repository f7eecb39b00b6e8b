"""The planner bot (domain/tavern_masters/planner.py) and the search's determinization in trading
states (domain/tavern_masters/search.py): the bot decides from its view alone, plays legal moves in
every mode, answers offers by what they bring it, and plans a Day over the Tills left."""

from __future__ import annotations

import pytest

from domain.games import fallback_bot, make_bot
from domain.kernel import Bot, Command, Rng, Table, bot_turn, play
from domain.tavern_masters import GAME
from domain.tavern_masters.commands import AnswerOffer, Done, PlayCard
from domain.tavern_masters.planner import PlannerBot, tills_left
from domain.tavern_masters.search import sample
from domain.tavern_masters.state import State
from tests.kernel.test_search_bot import Checked, same_choices
from tests.tavern_masters.helpers import make, send
from tests.tavern_masters.test_trading import offer


def states(kind: str, seats: int, mode: str, seed: str) -> list[State]:
    """Every state of one match of ``kind`` bots."""
    table = Table(GAME, GAME.setup(seats, {"mode": mode}), seed)
    bots = [make_bot(GAME, kind, table.setup.options) for _ in range(seats)]
    out = []
    while not table.finished:
        out.append(table.state)
        table.submit(*bot_turn(table, bots))
    return out


def trading_states(mode: str) -> list[State]:
    """States of random tables with offers naming hand cards: shown, blanked, or gone from the hand."""
    found = [s for seats in (2, 3) for s in states("random", seats, mode, f"trading-{mode}-{seats}")
             if any(o.give_hand or o.take_hand for o in (*s.drafts, *s.offers))]
    return found[::7]


@pytest.mark.parametrize("mode", ["competitive", "cooperative"])
def test_a_sampled_trading_state_shows_the_seat_the_view_it_came_from(mode):
    """Offers show hand cards to the two seats of a trade, blank them for the others, and blank them
    for the two once the card has left the hand; a determinization keeps all of it exactly."""
    blanked = named = 0
    for index, state in enumerate(trading_states(mode)):
        for seat in range(state.seats):
            seen = GAME.view(state, seat)
            drawn = sample(seen, Rng("draw", index, "sample"), GAME.setup(state.seats, {"mode": mode}).options)
            assert GAME.view(drawn, seat) == seen
            assert GAME.legal(drawn, seat) == GAME.legal(state, seat)  # in order: a bot may break ties by it
            cards = [c for o in (*seen.drafts, *seen.offers) for c in (*o.give_hand, *o.take_hand)]
            blanked += "" in cards
            named += any(cards)
    assert blanked > 10 and named > 10


@pytest.mark.parametrize(("seats", "mode"), [(1, "solo"), (2, "competitive"), (3, "cooperative"), (4, "competitive")])
def test_the_planner_plays_legal_moves_to_the_end_of_a_match(seats, mode):
    planner = Checked(PlannerBot())
    bots: list[Bot] = [planner, *(make_bot(GAME, "random", {}) for _ in range(seats - 1))]
    table = play(GAME, GAME.setup(seats, {"mode": mode}), f"planner-{seats}-{mode}", bots)
    assert GAME.result(table.state) is not None and planner.moves > 0


def test_the_choice_depends_on_the_view_and_seed_only():
    """A second true state with the same view (its hidden cards drawn anew, the legal list in another
    order) gets the same move for the same seed, trading states included."""
    pool = [*states("greedy", 3, "competitive", "same-view")[::9], *trading_states("competitive")]
    pairs = [(state, index % state.seats) for index, state in enumerate(pool)]
    assert same_choices(GAME, sample, PlannerBot(), pairs, GAME.setup(3).options, reverse=True) > 20


def test_a_timed_out_seat_falls_back_to_the_search_at_3_and_4_competitive_seats_else_the_planner():
    """Where the arena measured the search ahead of the planner (RULINGS.md 46), and only there."""
    def fallback(seats: int, mode: str = "competitive") -> str:
        return fallback_bot(GAME, GAME.setup(seats, {"mode": mode}))

    assert [fallback(seats) for seats in range(2, 7)] == ["planner", "search", "search", "planner", "planner"]
    assert fallback(1, "solo") == fallback(3, "cooperative") == fallback(4, "cooperative") == "planner"


def test_the_planner_plays_a_set_whose_cards_pay_only_together():
    """An Ale seats Patrons, a Tip Jar pays for each: with 2 Gold and an empty Tavern it plays both
    (the Tip Jar alone would earn nothing), the Ale first."""
    state = make(players=[{"gold": 2, "hand": ("tip-jar-1", "dwarven-ale-1", "fondue-pot-1")}],
                 round=1, card_list=2)
    seen = GAME.view(state, 0)
    legal = GAME.legal(state, 0)
    first = PlannerBot().choose(seen, legal, Rng("t", 0))
    assert first in (PlayCard(card="dwarven-ale-1"), PlayCard(card="tip-jar-1"))
    state, _ = send(state, 0, first)
    second = PlannerBot().choose(GAME.view(state, 0), GAME.legal(state, 0), Rng("t", 1))
    assert {first, second} == {PlayCard(card="dwarven-ale-1"), PlayCard(card="tip-jar-1")}


def test_on_the_last_day_the_planner_keeps_gold_a_card_would_not_earn_back():
    """A rival at 19 Gold ends the match at this Till: a Hedge Wizard (3 Gold, earning 1 a Till) does
    not pay for itself, while greedy, counting on four more rounds, hires it."""
    players = [{"gold": 10, "hand": ("hedge-wizard-1",), "tavern": ("dwarven-ale-1",)},
               {"gold": 19, "tavern": ("dwarven-ale-2",)}]
    state = make(players=players, round=4, card_list=2)
    seen = GAME.view(state, 0)
    assert tills_left(seen) == 1
    legal = GAME.legal(state, 0)
    assert PlannerBot().choose(seen, legal, Rng("t", 0)) == Done()
    assert make_bot(GAME, "greedy", {}).choose(seen, legal, Rng("t", 0)) == PlayCard(card="hedge-wizard-1")


def answer(state: State, seat: int) -> Command:
    legal = [c for c in GAME.legal(state, seat) if isinstance(c, AnswerOffer)]
    return PlannerBot().choose(GAME.view(state, seat), legal, Rng("t", 0))


def test_the_planner_accepts_an_offer_that_brings_it_more_than_the_offerer():
    """Seat 1 gives the Ale seat 0 lacks (its Patrons cannot come in without it) and takes a Dice
    Table seat 0 has no use for: accepted. The reverse trade is declined."""
    players = [{"gold": 3, "hand": ("thirsty-farmer-1", "old-smith-1"), "tavern": ("dice-table-1",)},
               {"gold": 3, "tavern": ("dwarven-ale-1", "house-wine-1", "aged-cheese-1")}]
    state = make(players=players, card_list=2)
    good, number = offer(state, 1, 0, "dwarven-ale-1", "dice-table-1")
    assert answer(good, 0) == AnswerOffer(offer=number, accept=True)
    bad, number = offer(state, 1, 0, "aged-cheese-1", "dice-table-1", gold=-3)
    assert answer(bad, 0) == AnswerOffer(offer=number, accept=False)
