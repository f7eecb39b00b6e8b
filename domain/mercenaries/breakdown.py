"""The end of a match in categories: the games each seat won, by the rulebook's Victory condition
that won them (the match's score is games won)."""

from __future__ import annotations

from domain.kernel import ScoreLine, ScoreLines
from domain.mercenaries.state import State

# the opponent's HP at 0; the opponent could not draw in the Morning; both at 0 HP, the tie broken by
# more Gold, then more HP, then a die (turns.py's reasons both_fell_gold, both_fell_hp, both_fell_roll)
CATEGORIES = ("hp", "deck_out", "both_fell")


def category(reason: str) -> str:
    return "both_fell" if reason.startswith("both_fell") else reason


def breakdown(state: State) -> ScoreLines | None:
    if state.match_winner < 0:
        return None
    return tuple(
        ScoreLine(name, tuple(sum(r.winner == seat and category(r.reason) == name for r in state.records)
                              for seat in range(len(state.players))))
        for name in CATEGORIES
    )
