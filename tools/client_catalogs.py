"""Updates the reference client's message catalogs (``make catalogs``; docs/web-client.md): extracts
every message id of services/gateway/web/**.js (``_("...")``, ``N_("...")``, ``n_("one", "many", n)``,
Babel's JavaScript extractor) into services/gateway/catalogs/client.pot, merges it into each
language's gettext catalog catalogs/<lang>/LC_MESSAGES/client.po (the translators' file, not served),
as tools/catalogs.py does for the server's domain, and compiles it to web/locales/<lang>.json, which
the browser loads. ``--check``
changes nothing and exits 1 when a file is not current."""

from __future__ import annotations

import gettext
import json
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

from projections.i18n import LANGUAGES
from tools.catalogs import DATE, HEADER, merged, po_bytes, update

GATEWAY = Path(__file__).resolve().parent.parent / "services" / "gateway"
WEB = GATEWAY / "web"
LOCALES = GATEWAY / "catalogs"  # the gettext sources: outside web/, which is served as it is
COMPILED = WEB / "locales"
DOMAIN = "client"
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "n_": (1, 2)}
# a message inside a template literal's ${...} is found too
OPTIONS = {"**.js": {"parse_template_string": "true"}}


def template() -> Catalog:
    """Every message id of the client's code, with where it is."""
    catalog = Catalog(project="tavern", domain=DOMAIN, fuzzy=False)
    for path, line, message, comments, context in extract_from_dir(
        WEB, [("**.js", "javascript")], OPTIONS, keywords=KEYWORDS, comment_tags=("i18n:",)
    ):
        catalog.add(message, locations=[(path, line)], auto_comments=comments, context=context)
    return catalog


def translations(language: str, ids: Catalog) -> Catalog:
    """The language's client catalog with exactly the template's ids (its translations kept)."""
    return merged(language, ids, LOCALES, DOMAIN)


def plural_categories(catalog: Catalog) -> dict[str, int]:
    """Intl.PluralRules' category (CLDR's) -> the index of the catalog's plural form it takes: the
    browser picks a form by category, the catalog orders them by its Plural-Forms expression."""
    assert catalog.locale is not None
    rule = Locale.parse(catalog.locale).plural_form
    index = gettext.c2py(catalog.plural_expr)
    samples = [*range(200), 1_000, 1_000_000, 2_000_000]
    return {tag: index(next(n for n in samples if rule(n) == tag)) for tag in sorted(rule.tags | {"other"})}


def compiled(catalog: Catalog) -> bytes:
    """The JSON the browser loads: each id's translation, a plural one's forms by category."""
    categories = plural_categories(catalog)
    messages: dict[str, str | dict[str, str]] = {}
    for message in catalog:
        ids, texts = message.id, message.string
        if isinstance(ids, str):
            if ids and isinstance(texts, str) and texts:
                messages[ids] = texts
        elif ids and isinstance(texts, tuple | list) and all(texts):
            messages[str(ids[0])] = {tag: str(texts[i]) for tag, i in categories.items()}
    body = {"language": str(catalog.locale), "messages": dict(sorted(messages.items()))}
    return (json.dumps(body, ensure_ascii=False, indent=1) + "\n").encode()


def files() -> dict[Path, bytes]:
    """Every client catalog file as the code and the ``.po`` translations make it now."""
    ids = template()
    ids.header_comment = HEADER.format(language="The message ids of the")
    ids.creation_date = ids.revision_date = DATE
    out = {LOCALES / f"{DOMAIN}.pot": po_bytes(ids)}
    for language in LANGUAGES:
        catalog = translations(language, ids)
        catalog.creation_date = catalog.revision_date = DATE
        out[LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"] = po_bytes(catalog)
        out[COMPILED / f"{language}.json"] = compiled(catalog)
    return out


def main(argv: list[str]) -> int:
    return update(files(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
