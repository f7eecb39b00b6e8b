"""Counting the Till: what each card in a Tavern earns (its income effects: effects.py's vocabulary)."""

from __future__ import annotations

from domain.tavern_masters.content import Effect, card
from domain.tavern_masters.terms import any_matches, count_matching


def effect_income(effect: Effect, others: list[str]) -> int:
    if effect.op == "income":
        return effect.amount
    if effect.op == "income_per":
        return effect.amount * count_matching(others, effect.term)
    if effect.op == "income_if":
        return effect.amount if any_matches(others, effect.term) else 0
    return 0


def card_income(card_id: str, tavern: tuple[str, ...]) -> int:
    """What one card in a Tavern earns at the Till: 1 a Patron, 2 a Noble, plus its effects."""
    defn = card(card_id)
    base = (2 if defn.noble else 1) if defn.kind == "patron" else 0
    if not defn.effects:  # most cards: the bots ask this of every card of many Taverns, the rest unread
        return base
    others = [c for c in tavern if c != card_id]
    return base + sum(effect_income(e, others) for e in defn.effects)


def till_income(tavern: tuple[str, ...]) -> int:
    return sum(card_income(c, tavern) for c in tavern)
