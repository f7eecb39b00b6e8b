"""The rulebook's worked example, round by round, played through decide (HT-T1 to HT-T3)."""

from __future__ import annotations

from domain.heros_tavern.commands import BuyCard, FinishPurchases, PickCard
from domain.heros_tavern.content import DECK, Tokens
from domain.heros_tavern.events import (
    CardsDiscarded,
    MatchEnded,
    PurchasesFinished,
    ResourcesAwarded,
    ScoreRow,
    TavernsScored,
)
from domain.heros_tavern.state import OVER, PURCHASE
from tests.heros_tavern.helpers import Cards, last_pick, of_type, purchasing, run

STORAGE, LAND = Tokens(storage=1), Tokens(land=1)


def test_round_one_scores_19_and_buys_the_dark_ale_and_a_market():  # HT-T1
    cards = Cards()
    (dark,) = cards.take("dark_ale", cost=STORAGE)
    (market,) = cards.take("market", cost=LAND)
    mine = [*cards.take("entertainment"), *cards.take("light_ale"), dark, market, *cards.take("shopkeeper"),
            *cards.take("barrel")]
    others = [cards.take("food", 6), cards.take("lodging", 6)]  # nobody else entertains
    state = last_pick(cards, [mine, *others], [*cards.take("tools"), *cards.take("food"), *cards.take("lodging")])
    state, events = run(state, *((seat, PickCard(card=state.hands[seat][0])) for seat in range(3)))

    (scored,) = of_type(events, TavernsScored)
    assert scored.rows[0] == ScoreRow(entertainment=6, ale=10, market=1, shopkeeper=2, total=19)
    assert of_type(events, ResourcesAwarded)[0].awards[0] == Tokens(storage=1, land=1)
    assert state.phase == PURCHASE and state.finished == (False, True, True)  # the others cannot buy

    state, events = run(state, (0, BuyCard(card=dark)), (0, BuyCard(card=market)))
    assert of_type(events, PurchasesFinished)[-1].automatic  # nothing left to pay with
    (discarded,) = of_type(events, CardsDiscarded)
    assert len(discarded.cards) == 21 - 2 and dark not in discarded.cards and market not in discarded.cards
    assert state.round == 2 and state.tokens[0] == Tokens() and state.taverns[0] == (dark, market)


def test_round_two_scores_16_with_a_tied_second_place_and_buys_a_market():  # HT-T2
    cards = Cards()
    (dark,) = cards.take("dark_ale", cost=STORAGE)
    first, second = cards.take("market", 2, cost=LAND)
    new = [*cards.take("light_ale"), *cards.take("dark_ale"), second, *cards.take("market"),
           *cards.take("entertainment"), *cards.take("food")]
    p2 = [*cards.take("entertainment"), *cards.take("lodging", 5)]
    p3 = [*cards.take("entertainment", 3), *cards.take("food", 3)]
    state = last_pick(
        cards, [new, p2, p3], [*cards.take("tools"), *cards.take("lodging"), *cards.take("food")],
        round=2, purchased=[[dark, first], [], []],
    )
    state, events = run(state, *((seat, PickCard(card=state.hands[seat][0])) for seat in range(3)))

    rows = of_type(events, TavernsScored)[0].rows
    assert rows[0] == ScoreRow(entertainment=1, ale=10, market=5, total=16)
    assert (rows[1].entertainment, rows[2].entertainment) == (1, 6)
    assert of_type(events, ResourcesAwarded)[0].awards[0] == Tokens(land=1)

    state, _ = run(state, (0, BuyCard(card=second)))
    assert state.taverns[0] == (dark, first, second) and state.round == 3


def test_final_scoring_scores_33_then_a_hero_per_unspent_token():  # HT-T3
    cards = Cards()
    final = [*cards.take("light_ale"), *cards.take("dark_ale"), *cards.take("lodging"), *cards.take("market", 5),
             *cards.take("shopkeeper"), *cards.take("bartender")]
    p2, p3 = cards.take("entertainment", 2), cards.take("entertainment")
    unbought = cards.take("games", 3)  # drafted in round 5 but not bought: no resources at the end
    pads = [[ScoreRow(total=t) for t in (19, 16, 10, 10, 10)], [ScoreRow(total=20)] * 5, [ScoreRow(total=5)] * 5]
    state = purchasing(
        cards, [unbought, [], []], [final, p2, p3], [Tokens(coin=2, land=1), Tokens(), Tokens()], pads,
        finished=[False, True, True],
    )
    state, events = run(state, (0, FinishPurchases()))

    final_row = of_type(events, TavernsScored)[0]
    assert final_row.final
    assert final_row.rows[0] == ScoreRow(ale=10, lodging=2, market=10, bartender=5, shopkeeper=6, total=33)
    assert of_type(events, ResourcesAwarded)[0].awards[0] == Tokens()
    (ended,) = of_type(events, MatchEnded)
    assert ended.unspent[0] == 3
    assert ended.totals[0] == 19 + 16 + 10 + 10 + 10 + 33 + 3
    assert state.phase == OVER and set(unbought) <= set(state.discard)
    assert all(DECK[c].kind != "games" for c in state.taverns[0])
