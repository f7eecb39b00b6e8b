"""The names a narrator puts in its sentences: players by seat, cards and other items by the
content's names (projections/content/), never an internal id."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from projections.content import content_of
from projections.content.model import amount, listing

__all__ = ["Names", "amount", "listing"]


@cache
def _item_names(game_id: str) -> dict[str, str]:
    return {ident: item.name for item in content_of(game_id).items for ident in item.ids}


@cache
def _terms(game_id: str) -> dict[str, str]:
    return content_of(game_id).terms


class Names:
    """Seat and item names for one match. ``players`` are the players' names by seat when the match
    has them; by default "Player 1", "Player 2"... (seat 0 is Player 1)."""

    def __init__(self, game_id: str, players: Sequence[str] = ()) -> None:
        self.game_id, self.players = game_id, tuple(players)
        self.items, self.terms = _item_names(game_id), _terms(game_id)

    def seat(self, seat: int) -> str:
        if seat < 0:
            return "nobody"
        return self.players[seat] if seat < len(self.players) else f"Player {seat + 1}"

    def seats(self, seats: Iterable[int]) -> str:
        return listing([self.seat(s) for s in seats]) or "nobody"

    def card(self, ident: str | None, hidden: str = "a card") -> str:
        """The item's name; ``hidden`` for a card this seat may not see (a blank or missing id)."""
        if not ident:
            return hidden
        return self.items.get(ident, self.term(ident))

    def cards(self, idents: Iterable[str]) -> str:
        return listing([self.card(i) for i in idents]) or "nothing"

    def term(self, word: str) -> str:
        return self.terms.get(word, word.replace("_", " "))
