"""The names a narrator puts in its sentences: players by seat, cards and other items by the
content's names (projections/content/) in the narration's language, never an internal id."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from projections.content import content_of
from projections.content.model import listing
from projections.i18n import DEFAULT, Texts, texts

__all__ = ["Names", "listing"]


@cache
def _item_names(game_id: str, language: str) -> dict[str, str]:
    return {ident: item.name for item in content_of(game_id, language).items for ident in item.ids}


class Names:
    """Seat and item names for one match in one language, and its catalog (``_``, ``n_``).
    ``players`` are the players' names by seat as the table shows them (None: a seat with no
    registered player); a seat without one is "Player 1", "Player 2"... (seat 0 is Player 1)."""

    def __init__(self, game_id: str, players: Sequence[str | None] = (), language: str = DEFAULT) -> None:
        self.game_id, self.players = game_id, tuple(players)
        self.t: Texts = texts(language)
        self._, self.n_, self.p_ = self.t._, self.t.n_, self.t.p_
        self.items, self.terms = _item_names(game_id, language), content_of(game_id, language).terms

    def seat(self, seat: int) -> str:
        if seat < 0:
            return self._("nobody")
        named = self.players[seat] if seat < len(self.players) else None
        return named if named is not None else self._("Player {number}", number=seat + 1)

    def seats(self, seats: Iterable[int]) -> str:
        return listing(self.t, [self.seat(s) for s in seats]) or self._("nobody")

    def card(self, ident: str | None, hidden: str | None = None) -> str:
        """The item's name; ``hidden`` (default "a card") for a card this seat may not see (a blank
        or missing id)."""
        if not ident:
            return hidden or self._("a card")
        return self.items.get(ident, self.term(ident))

    def cards(self, idents: Iterable[str]) -> str:
        return listing(self.t, [self.card(i) for i in idents]) or self._("nothing")

    def term(self, word: str) -> str:
        return self.terms.get(word, word.replace("_", " "))
