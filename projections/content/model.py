"""The shape of a game's content as the API serves it (``GET /v1/games/{id}/content``), the same for
every game: items (cards, tiles, board spaces, tracks) with their names and effect texts, the
words the views use for tokens and peoples, and a short rules summary in our own words, each in
one language (projections/i18n/)."""

from __future__ import annotations

import msgspec

from projections.i18n import Texts

Number = int | str | bool | list[int | str]


class Item(msgspec.Struct, frozen=True):
    """One card, tile, board space or track. ``ids`` are the identifiers the views and events use for
    it: the copies of a card (``dwarven-ale-1`` ... ``dwarven-ale-5``), or the item's own id."""

    id: str
    name: str
    category: str  # card | tile | space | track
    kind: str  # the game's own word for it (goods, patron, spell, customer, tavern, ...)
    ids: tuple[str, ...]
    text: str  # what it does, in words, generated from the data the rules read
    cost: dict[str, int] = {}  # what it costs, by token word (empty when it costs nothing)
    numbers: dict[str, Number] = {}  # its other printed values


class Content(msgspec.Struct, frozen=True):
    game: str
    language: str  # the language of every text below (en, fr)
    name: str
    rules: tuple[str, ...]  # the rules in short, one paragraph per item
    terms: dict[str, str]  # display names of the words the views use (peoples, guilds, tokens, phases)
    items: tuple[Item, ...]
    # display names of the categories of a finished match's ``breakdown``, in the rulebook's scoring order
    scoring: dict[str, str]


def title(word: str) -> str:
    """``light_ale`` -> ``Light Ale``."""
    return " ".join(part.capitalize() for part in word.replace("_", " ").replace("-", " ").split())


def listing(t: Texts, words: list[str] | tuple[str, ...], last: str = "and") -> str:
    """``a, b and c`` (``last="or"``: ``a, b or c``), in the catalog's language."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    first = ", ".join(words[:-1])
    if last == "or":
        return t._("{first} or {last}", first=first, last=words[-1])
    return t._("{first} and {last}", first=first, last=words[-1])
