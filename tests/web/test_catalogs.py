"""The reference client's catalogs as the browser loads them (tools/client_catalogs.py; that every
message has both languages with its placeholders is tests/i18n/test_catalogs.py's): each language's
JSON whole, a plural message with a form for each of the language's plural categories, and the
client offering the languages the catalogs have."""

from __future__ import annotations

import json
import re

from projections.i18n import LANGUAGES
from tools import client_catalogs
from tools.client_catalogs import COMPILED, WEB


def test_the_browser_loads_each_language_whole():
    """locales/<lang>.json has every message; a plural one has a form for each of the language's
    plural categories (Intl.PluralRules: French "one", "many" and "other"), the form the catalog's
    Plural-Forms gives that category."""
    ids = client_catalogs.template()
    assert len(ids) > 300  # the client's texts are found in the code
    singular = {message.id[0] if isinstance(message.id, tuple) else message.id for message in ids if message.id}
    for language in LANGUAGES:
        messages = json.loads((COMPILED / f"{language}.json").read_text())["messages"]
        assert set(messages) == singular
        categories = set(client_catalogs.plural_categories(client_catalogs.translations(language, ids)))
        forms = [value for value in messages.values() if isinstance(value, dict)]
        assert forms and all(set(form) == categories for form in forms)
    # French says 0 and 1 in the singular (gettext's n > 1), a million in the plural
    french_forms = client_catalogs.plural_categories(client_catalogs.translations("fr", ids))
    assert french_forms == {"many": 1, "one": 0, "other": 1}
    french = json.loads((COMPILED / "fr.json").read_text())["messages"]
    assert french["{count} seat"] == {"many": "{count} places", "one": "{count} place", "other": "{count} places"}
    english = json.loads((COMPILED / "en.json").read_text())["messages"]
    assert english["{count} seat"] == {"one": "{count} seat", "other": "{count} seats"}


def test_the_client_offers_the_languages_the_catalogs_have():
    offered = re.search(r"export const LANGUAGES = \{([^}]*)\}", (WEB / "i18n.js").read_text())
    assert offered is not None
    assert tuple(re.findall(r"(\w+):", offered.group(1))) == LANGUAGES
