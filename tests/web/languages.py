"""What a page shows that is English: built from the gettext catalogs, the client's (gateway/catalogs/)
and the server's (projections/i18n/locales/), English against French.

The rule. A message "leaks" when a visible text of the French page contains a piece of its English
text that French does not also use. The pieces are the English text cut at its placeholders
("{player} lost {damage} HP" -> "lost", "HP"), trimmed of spaces and punctuation; a piece counts
only if the English text differs from the French one, it has at least three letters (a lone "no",
"of 7" or "HP" is too short to tell a language by) and it is not a word sequence that some French
text uses too ("Orc", "Lyre", "Taverna"). A piece matches as whole words, case-sensitive: "Pass"
is not found in "Passer", "Elf" not in "Elfe". Player names and the games' titles (proper names)
are taken out of a text before it is matched, and what HTML marks translate="no" (the service's
name) is not read."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TREES = (ROOT / "services" / "gateway" / "catalogs", ROOT / "projections" / "i18n" / "locales")
PLACEHOLDER = re.compile(r"\{\w*\}")
WORD = re.compile(r"(?<![\w{])[^\W\d_]{4,}(?![\w}])")  # letters only: no placeholder's name
APOSTROPHES = "'\u2019"  # French writes l\u2019API
EDGES = " \t\n.,;:!?()[]-/+*#%|'\"\u2013\u2014\u00b7\u2022\u2019\u2026"  # spaces, punctuation, dashes

# Every visible text of the page: text nodes whose element is rendered, a select's chosen option,
# an empty field's placeholder; not what HTML marks translate="no" (the service's name).
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || el.closest('script, style, noscript, [translate=no]')) continue;
    const option = el.closest('option');
    const shown = option ? option.selected && option.parentElement.checkVisibility() : el.checkVisibility();
    if (shown) out.push(text);
  }
  for (const input of document.querySelectorAll('input[placeholder]')) {
    if (!input.value && input.checkVisibility()) out.push(input.placeholder);
  }
  return out;
}"""


def catalogs(language: str) -> list[Catalog]:
    found = []
    for tree in TREES:
        for path in sorted((tree / language / "LC_MESSAGES").glob("*.po")):
            with path.open("rb") as file:
                found.append(read_po(file, locale=language))
    return found


def _texts(message_string: str | tuple[str, ...]) -> tuple[str, ...]:
    return message_string if isinstance(message_string, tuple) else (message_string,)


def _words(piece: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w{APOSTROPHES}])(?:{piece})(?![\w{APOSTROPHES}])")


def _pieces(text: str) -> set[str]:
    """The text between its placeholders, trimmed, where it has three letters or more; and each of
    its words of four letters or more (an English word in a sentence no catalog has)."""
    trimmed = (raw.strip(EDGES) for raw in PLACEHOLDER.split(text))
    return {piece for piece in trimmed if sum(c.isalpha() for c in piece) >= 3} | set(WORD.findall(text))


@cache
def english() -> re.Pattern[str]:
    """One pattern for every piece of English text that must not show on a French page."""
    french = {}
    for catalog in catalogs("fr"):
        for message in catalog:
            if message.id:
                french[message.id] = _texts(message.string)
    french_text = "\n".join(text for texts in french.values() for text in texts)
    pieces: set[str] = set()
    for catalog in catalogs("en"):
        for message in catalog:
            if not message.id or message.id not in french:
                continue
            for text in _texts(message.string):
                pieces |= set() if text in french[message.id] else _pieces(text)
    # a piece some French text says too, in any case, is no sign of English ("Orc", "Lyre", "Solo")
    folded = french_text.casefold()
    french_words = set(re.findall(r"[^\W\d_]+", folded))

    def said_in_french(piece: str) -> bool:
        if piece.isalpha():
            return piece.casefold() in french_words
        return piece.casefold() in folded and bool(_words(re.escape(piece.casefold())).search(folded))

    kept = {piece for piece in pieces if not said_in_french(piece)}
    assert kept, "no English text to look for: the catalogs are missing"
    # the longest first: a leak is reported whole ("free table", not "free")
    return _words("|".join(map(re.escape, sorted(kept, key=len, reverse=True))))


def english_in(texts: list[str], names: list[str]) -> list[tuple[str, str]]:
    """(piece, the text it was found in) for each English piece in the texts, names aside."""
    leaks = []
    for text in texts:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        leaks += [(piece, text) for piece in english().findall(text)]
    return leaks


def english_on_page(page, names: list[str]) -> list[tuple[str, str]]:
    return english_in(page.evaluate(VISIBLE_TEXTS), names)
