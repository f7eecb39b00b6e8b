"""The end of a match in categories: each seat's Gold from the three it starts with, through the
Day's purchases and hires, trades and Dirty Deeds, to Counting the Till (Patrons apart from Goods
and Staff), as its ledger kept them (state.py)."""

from __future__ import annotations

from domain.kernel import ScoreLine, ScoreLines
from domain.tavern_masters.state import START_GOLD, State

CATEGORIES = ("start", "spent", "trades", "deeds", "patrons", "goods_staff")


def breakdown(state: State) -> ScoreLines | None:
    if state.winners is None:
        return None
    lines = [ScoreLine("start", (START_GOLD,) * state.seats)]
    for account in CATEGORIES[1:]:
        if (account == "trades" and state.seats == 1) or (account == "deeds" and not state.dirty_deeds):
            continue  # nobody to trade with; no Dirty Deeds in play
        lines.append(ScoreLine(account, tuple(getattr(p.ledger, account) for p in state.players)))
    return tuple(lines)
