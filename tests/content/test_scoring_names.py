"""Every category a game's breakdown may name has a name in its content, in every language, in the
breakdown's own order."""

from __future__ import annotations

import importlib

import pytest

from domain.games import game_ids, get_game
from projections.content import content_of
from projections.i18n import LANGUAGES


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_category_is_named(game_id, language):
    categories = importlib.import_module(get_game(game_id).breakdown.__module__).CATEGORIES
    scoring = content_of(game_id, language).scoring
    assert tuple(scoring) == categories
    assert all(name.strip() for name in scoring.values())
    if language != "en":
        english = content_of(game_id, "en").scoring
        assert [scoring[c] != english[c] for c in categories].count(False) <= 1  # translated (a loan word may stay)
