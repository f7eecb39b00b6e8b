"""The rulebook's game terms: drink types, the name rule, NPC and Goods types, Patron types.

A card *matches* a word (as in "any Cheese", "Likes Wenches", "Wants Ale") when the word is in its
name, is a word it "counts as", or is one of its types (Goods type, drink type, NPC type, kind).
Words compare case-insensitively and singular/plural alike ("Wenches" matches a Wench).
"""

from __future__ import annotations

from functools import cache, lru_cache

from domain.tavern_masters.content import CardDef, card

DRINK_TYPES = ("Ale", "Mead", "Wine", "Brandy")


def singular(word: str) -> str:
    word = word.lower()
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@lru_cache(maxsize=4096)  # the bots ask it of the same few content words tens of thousands of times a move
def phrase(text: str) -> str:
    """A name or term reduced to lower-case singular words: 'Wenches' -> 'wench'."""
    return " ".join(singular(w) for w in text.replace("-", " ").split())


def drink_type(defn: CardDef) -> str:
    """Ale, Mead, Wine or Brandy by key word in the name; any other Drink's type is its name."""
    if defn.goods_type != "Drink":
        return ""
    words = phrase(defn.name).split()
    return next((t for t in DRINK_TYPES if phrase(t) in words), defn.name)


@cache
def labels(card_id: str) -> frozenset[str]:
    """Every word and type a card instance answers to."""
    defn = card(card_id)
    name = phrase(defn.name)
    found = {name, *name.split(), phrase(defn.kind)}
    for extra in (*defn.counts_as, defn.goods_type, defn.npc_type, drink_type(defn)):
        if extra:
            found.update({phrase(extra), *phrase(extra).split()})
    if defn.noble:
        found.add("noble")
    return frozenset(found)


def matches(card_id: str, term: str) -> bool:
    return phrase(term) in labels(card_id)


def any_matches(card_ids: tuple[str, ...] | list[str], term: str) -> bool:
    """The tavern holds at least one card the term names."""
    wanted = phrase(term)
    return any(wanted in labels(c) for c in card_ids)


@lru_cache(maxsize=65536)  # a worker's memory stays bounded
def tavern_labels(card_ids: tuple[str, ...]) -> frozenset[str]:
    """Every word and type some card of a Tavern answers to: the bots ask what a Tavern has of every
    Patron kind in turn, over and over for the same few Taverns, and one set answers them all."""
    return frozenset().union(*(labels(c) for c in card_ids))


def count_matching(card_ids: tuple[str, ...] | list[str], term: str) -> int:
    wanted = phrase(term)
    return sum(wanted in labels(c) for c in card_ids)


def patron_type(card_id: str) -> str:
    """A Patron is named for its Want: a Patron who Wants Ale is an Ale Patron."""
    return phrase(card(card_id).wants)
