"""The end of a match in categories: the scoring pad's rows (five rounds and the final scoring)
added up by the rulebook's Score steps, then the unspent tokens of the Final Scoring."""

from __future__ import annotations

from domain.heros_tavern.scoring import STAFF
from domain.heros_tavern.state import OVER, State
from domain.kernel import ScoreLine, ScoreLines

CARD_STEPS = ("entertainment", "food", "ale", "lodging", "market")
CATEGORIES = (*CARD_STEPS, "staff", "unspent")


def breakdown(state: State) -> ScoreLines | None:
    if state.phase != OVER:
        return None
    lines = [ScoreLine(step, tuple(sum(getattr(row, step) for row in pad) for pad in state.pads))
             for step in CARD_STEPS]
    staff = tuple(sum(getattr(row, kind) for row in pad for kind in STAFF) for pad in state.pads)
    unspent = tuple(purse.count for purse in state.tokens)
    return (*lines, ScoreLine("staff", staff), ScoreLine("unspent", unspent))
