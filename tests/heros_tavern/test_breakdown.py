"""The end of a match in categories: the rulebook's example added up."""

from __future__ import annotations

from domain.heros_tavern import GAME
from domain.heros_tavern.breakdown import breakdown
from domain.heros_tavern.commands import FinishPurchases
from domain.heros_tavern.content import Tokens
from domain.heros_tavern.events import ScoreRow
from tests.heros_tavern.helpers import Cards, purchasing, run


def test_the_rulebooks_example_by_category():
    """Round 1 (19), round 2 (16), rounds 3-5 left out by the rulebook (none here), the final
    scoring (33) and 3 unspent tokens (HT-T1 to HT-T3)."""
    cards = Cards()
    final = [*cards.take("light_ale"), *cards.take("dark_ale"), *cards.take("lodging"), *cards.take("market", 5),
             *cards.take("shopkeeper"), *cards.take("bartender")]
    rounds = [ScoreRow(entertainment=6, ale=10, market=1, shopkeeper=2, total=19),
              ScoreRow(entertainment=1, ale=10, market=5, total=16), ScoreRow(), ScoreRow(), ScoreRow()]
    others = [ScoreRow(entertainment=6, food=10, total=16)] * 5
    state = purchasing(cards, [[], [], []], [final, cards.take("entertainment", 2), cards.take("entertainment")],
                       [Tokens(coin=2, land=1), Tokens(), Tokens()], [rounds, others, others],
                       finished=[False, True, True])
    assert breakdown(state) is None  # not over yet
    state, _ = run(state, (0, FinishPurchases()))

    lines = {line.category: line.points[0] for line in breakdown(state)}
    assert lines == {"entertainment": 7, "food": 0, "ale": 30, "lodging": 2, "market": 16, "staff": 8 + 5,
                     "unspent": 3}
    assert sum(lines.values()) == 19 + 16 + 33 + 3 == GAME.result(state).standings[0].score
