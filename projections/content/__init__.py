"""Each game's content as the API serves it: one pure module per game (``content(texts) -> Content``),
encoded once per language with its ETag."""

from __future__ import annotations

import hashlib
import importlib
from functools import cache

import msgspec

from projections.content.model import Content
from projections.i18n import DEFAULT, texts

_MODULES = {
    "heros-tavern": "projections.content.heros_tavern",
    "tavern-masters": "projections.content.tavern_masters",
    "taverna": "projections.content.taverna",
    "mercenaries": "projections.content.mercenaries",
}


@cache
def content_of(game_id: str, language: str = DEFAULT) -> Content:
    """The game's content in one of projections.i18n.LANGUAGES; a KeyError for an unknown game."""
    return importlib.import_module(_MODULES[game_id]).content(texts(language))


@cache
def encoded(game_id: str, language: str = DEFAULT) -> tuple[bytes, str]:
    """The content as JSON and its strong ETag (a hash of those bytes: each language has its own)."""
    body = msgspec.json.encode(content_of(game_id, language))
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def schema() -> dict:
    """The JSON Schema of every game's content (the same shape for all)."""
    return msgspec.json.schema(Content)
