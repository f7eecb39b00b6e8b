"""Updates the message catalogs (``make catalogs``; docs/i18n.md): extracts every message id from the
code and the seeds' names into projections/i18n/messages.pot, merges it into each language's
``.po`` (new ids empty, gone ones dropped; English ids are their own text) and compiles the ``.mo``
files the service reads. ``--check`` changes nothing and exits 1 when a file is not current."""

from __future__ import annotations

import copy
import datetime
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from projections.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = LOCALES.parent / f"{DOMAIN}.pot"
SOURCES = ("domain", "projections", "services")
# the functions whose argument (1-based) is a message id: the catalogs' own, the refusals' messages
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "M_": None,
    "n_": (1, 2),
    "p_": ((1, "c"), 2),
    "require": (3,),  # domain/kernel/errors.py: require(condition, code, message)
    "RulesError": (2,),
    "Refused": (3,),  # services/commands/refused.py: Refused(kind, code, message)
    "ApiError": (3,),  # services/gateway/access.py: ApiError(status, code, message)
    "OptionSpec": (4,),  # domain/kernel/game.py: OptionSpec(name, choices, default, description)
}
# the seeds' words that reach a text as they are written there (the other seed values are ids,
# named through tables in the code)
SEED_FIELDS = {
    "tavern-masters": ("name", "agent", "likes", "npc_type", "wants", "counts_as", "free_with", "goods_type", "term"),
    "taverna": ("name",),
    "mercenaries": ("group",),
}
# gettext's plural rule where Babel's (CLDR's) has forms no text here needs (French's "many", for millions)
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);"}
HEADER = "# {language} texts of tavern (docs/i18n.md). Written by `make catalogs` and translators."
DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)  # fixed: the files change only with their messages


def _seed_words(value: object, fields: tuple[str, ...]) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in fields and isinstance(item, str) and item:
                yield item
            elif key in fields and isinstance(item, list):
                yield from (word for word in item if isinstance(word, str) and word)
            elif key not in ("note", "provenance"):
                yield from _seed_words(item, fields)
    elif isinstance(value, list):
        for item in value:
            yield from _seed_words(item, fields)


def template() -> Catalog:
    """Every message id of the code and the seeds, with where it is."""
    catalog = Catalog(project="tavern", domain=DOMAIN, fuzzy=False)
    for source in SOURCES:
        found = extract_from_dir(ROOT / source, [("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",))
        for path, line, message, comments, context in found:
            catalog.add(message, locations=[(f"{source}/{path}", line)], auto_comments=comments, context=context)
    for game, fields in SEED_FIELDS.items():
        for seed in sorted((ROOT / "seeds" / game).glob("*.json")):
            for word in _seed_words(json.loads(seed.read_text()), fields):
                catalog.add(word, locations=[(f"seeds/{game}/{seed.name}", 0)])
    return catalog


def merged(language: str, ids: Catalog, locales: Path = LOCALES, domain: str = DOMAIN) -> Catalog:
    """The language's catalog with exactly the template's ids (its translations kept); the server's
    domain unless another is named (the web client's: tools/client_catalogs.py)."""
    path = locales / language / "LC_MESSAGES" / f"{domain}.po"
    if path.exists():
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=domain)
    else:
        catalog = Catalog(locale=language, domain=domain, project="tavern", fuzzy=False)
        if language in PLURAL_FORMS:
            catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    catalog.header_comment = HEADER.format(language=language)
    catalog.update(copy.deepcopy(ids), no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.fuzzy = False
    if language == DEFAULT:  # the ids are English: an English entry left empty says its id
        for message in catalog:
            if message.id and not any(message.string if isinstance(message.string, tuple) else [message.string]):
                message.string = message.id
    return catalog


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=120, omit_header=False, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def files() -> dict[Path, bytes]:
    """Every catalog file as the code and the ``.po`` translations make it now."""
    ids = template()
    ids.header_comment = HEADER.format(language="The message ids of the")
    ids.creation_date = ids.revision_date = DATE
    out = {TEMPLATE: po_bytes(ids)}
    for language in LANGUAGES:
        catalog = merged(language, ids)
        catalog.creation_date = catalog.revision_date = DATE
        base = LOCALES / language / "LC_MESSAGES"
        out[base / f"{DOMAIN}.po"], out[base / f"{DOMAIN}.mo"] = po_bytes(catalog), mo_bytes(catalog)
    return out


def update(made: dict[Path, bytes], argv: list[str]) -> int:
    """Writes the files that differ (``--check``: only names them, and answers 1)."""
    stale = []
    for path, body in made.items():
        if path.exists() and path.read_bytes() == body:
            continue
        stale.append(path)
        if "--check" not in argv:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
    for path in stale:
        print(("stale: " if "--check" in argv else "wrote: ") + str(path.relative_to(ROOT)))
    return 1 if stale and "--check" in argv else 0


def main(argv: list[str]) -> int:
    return update(files(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
