"""The shape of a game's content as the API serves it (``GET /v1/games/{id}/content``), the same for
every game: items (cards, tiles, board spaces, tracks) with their names and effect texts, the
words the views use for tokens and peoples, and a short rules summary in our own words."""

from __future__ import annotations

import msgspec

Number = int | str | bool | list[int | str]


class Item(msgspec.Struct, frozen=True):
    """One card, tile, board space or track. ``ids`` are the identifiers the views and events use for
    it: the copies of a card (``dwarven-ale-1`` ... ``dwarven-ale-5``), or the item's own id."""

    id: str
    name: str
    category: str  # card | tile | space | track
    kind: str  # the game's own word for it (goods, patron, spell, customer, tavern, ...)
    ids: tuple[str, ...]
    text: str  # what it does, in plain English, generated from the data the rules read
    cost: dict[str, int] = {}  # what it costs, by token word (empty when it costs nothing)
    numbers: dict[str, Number] = {}  # its other printed values


class Content(msgspec.Struct, frozen=True):
    game: str
    name: str
    rules: tuple[str, ...]  # the rules in short, one paragraph per item
    terms: dict[str, str]  # display names of the words the views use (peoples, guilds, tokens, phases)
    items: tuple[Item, ...]


def title(word: str) -> str:
    """``light_ale`` -> ``Light Ale``."""
    return " ".join(part.capitalize() for part in word.replace("_", " ").replace("-", " ").split())


def amount(count: int, noun: str) -> str:
    """``2 coins``, ``1 coin``: a count with its noun, plural by a trailing s."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def listing(words: list[str] | tuple[str, ...], last: str = "and") -> str:
    """``a, b and c``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def article(word: str) -> str:
    """``an Elf``, ``a Thug``."""
    return f"{'an' if word[:1].upper() in 'AEIOU' else 'a'} {word}"
