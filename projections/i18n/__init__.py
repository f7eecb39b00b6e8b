"""The texts players read, in their language: gettext message catalogs (Babel) under ``locales/``.

The message ids are the English texts, written in the code with ``{name}`` placeholders filled
after translation (``texts("fr")._("{seat} won.", seat=...)``); names that come from the seeds'
data (cards, taverns, goods) are message ids too. ``tools/catalogs.py`` extracts them into
``messages.pot``, updates each language's ``.po`` and compiles its ``.mo`` (docs/i18n.md). The
rules core never translates: it names codes, ids and numbers, and the folds and the gateway put
them in words here."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

LANGUAGES = ("en", "fr")  # the first is the default, and the language of the message ids
DEFAULT = LANGUAGES[0]
LOCALES = Path(__file__).parent / "locales"
DOMAIN = "messages"


def N_(message: str) -> str:
    """Marks a message id for extraction where it is translated later (a table of names)."""
    return message


class Msg(str):
    """A message id given as another message's parameter: said in that message's language."""

    __slots__ = ()


def M_(message: str) -> Msg:
    """Marks a message id for extraction, to be said where it is a parameter (``{what}``)."""
    return Msg(message)


class Texts:
    """One language's catalog. ``_`` translates a message and fills its placeholders; ``n_`` picks
    the singular or a plural form by ``count`` (French says "0 pièce", English "0 coins")."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._catalog: NullTranslations = Translations.load(str(LOCALES), [language], DOMAIN)

    def _(self, message: str, **params: object) -> str:
        text = self._catalog.gettext(message)
        if not params:
            return text
        return text.format(**{k: self._catalog.gettext(v) if isinstance(v, Msg) else v for k, v in params.items()})

    def n_(self, singular: str, plural: str, count: int, **params: object) -> str:
        return self._catalog.ngettext(singular, plural, count).format(count=count, **params)

    def p_(self, context: str, message: str) -> str:
        """A word that another sense of shares its English (a card's Queen, Taverna's Queen)."""
        return str(self._catalog.pgettext(context, message))


@cache
def texts(language: str = DEFAULT) -> Texts:
    """The catalog of one of ``LANGUAGES``; a KeyError for another."""
    if language not in LANGUAGES:
        raise KeyError(language)
    return Texts(language)
