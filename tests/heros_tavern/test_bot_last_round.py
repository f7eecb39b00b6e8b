"""The greedy bot's last-round purchases count the final scoring exactly: one row left, a token one hero."""

from __future__ import annotations

from domain.heros_tavern import GAME
from domain.heros_tavern.bot import GreedyBot
from domain.heros_tavern.commands import BuyCard, FinishPurchases
from domain.heros_tavern.content import DECK, Tokens
from domain.heros_tavern.events import ScoreRow
from domain.kernel import Rng
from tests.heros_tavern.helpers import Cards, purchasing


def choice(round: int, tavern_kind: str, owned: tuple[str, ...] = ()):
    cards = Cards()
    own = [*(cards.take(kind)[0] for kind in owned)]
    card = next(c for c in cards.take(tavern_kind, 6) if DECK[c].cost.count == 1)
    others = [cards.take("lodging") for _ in range(2)]
    tokens = Tokens(coin=3, storage=3, land=3)
    state = purchasing(cards, [[card], *others], [own, [], []], [tokens] * 3, [[ScoreRow()] * (round - 1)] * 3,
                       round=round)
    legal = GAME.legal(state, 0)
    return card, GreedyBot().choose(GAME.view(state, 0), legal, Rng("bot", 0))


def test_no_last_round_purchase_of_a_set_that_can_no_longer_be_finished():
    card, command = choice(5, "food")  # one food scores nothing at the end and costs a token
    assert command == FinishPurchases()
    _, earlier = choice(3, "food")  # with rounds to go it is a step towards a set of three
    assert earlier == BuyCard(card=card)


def test_a_last_round_purchase_that_pays_is_still_made():
    card, command = choice(5, "food", owned=("food", "food"))  # completes a set of three: 10 heroes
    assert command == BuyCard(card=card)
