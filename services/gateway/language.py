"""The language of an answer's texts (docs/i18n.md): ``?lang=`` if given, else the setting of the
registered player the request speaks for, else the best of ``Accept-Language`` that the service
has (q-values weighed), else English. Answers whose texts depend on it say ``Content-Language``
and ``Vary: Accept-Language``."""

from __future__ import annotations

import functools
from collections.abc import Mapping, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from projections.i18n import DEFAULT, LANGUAGES
from services.gateway.access import ApiError

VARY = "Accept-Language"
# a player token, or a seat token whose seat a registered player holds, may choose the language too
VARY_WITH_TOKEN = "Accept-Language, Authorization"


@functools.lru_cache(maxsize=256)  # a few headers come again and again (each refused command asks)
def negotiated(accept_language: str | None) -> str:
    """The first of ``LANGUAGES`` by ``Accept-Language`` (RFC 9110 12.5.4): each range with its
    weight (``q``, default 1; 0 refuses it), the higher first, ties in the header's order; a range
    matches a language it is or starts with (``fr-CA`` is French, ``*`` any not named). English
    when none is acceptable or the header is absent or malformed."""
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, *params = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and 0 < weight <= 1:
            ranked.append((-weight, order, tag.lower()))
    refused = {piece.split(";")[0].strip().lower() for piece in (accept_language or "").split(",")} - {
        tag for _, _, tag in ranked
    }
    for _, _, tag in sorted(ranked):
        if tag == "*":
            found = [lang for lang in LANGUAGES if lang not in refused]
            return found[0] if found else DEFAULT
        primary = tag.split("-")[0]
        if primary in LANGUAGES and primary not in refused:
            return primary
    return DEFAULT


def asked(query: Mapping[str, str], strict: bool = True) -> str | None:
    """The ``lang`` query parameter, checked: one of LANGUAGES, or the API's 400 (``strict``; else
    left out, as an error's own answer does)."""
    lang = query.get("lang")
    if lang is None or lang in LANGUAGES:
        return lang
    if strict:
        raise ApiError(400, "bad_query", "lang is one of {languages}", languages=", ".join(LANGUAGES))
    return None


def choose(
    query: Mapping[str, str], accept_language: str | None, setting: str | None = None, strict: bool = True
) -> str:
    """``?lang=``, else the player's ``setting``, else ``Accept-Language``."""
    return asked(query, strict) or (setting if setting in LANGUAGES else None) or negotiated(accept_language)


def of_scope(scope: MutableMapping[str, Any], setting: str | None = None) -> str:
    """The language of an answer given from a bare ASGI scope (an error, a refused command): as
    ``choose``, a malformed ``?lang=`` left out (the error at hand is what the answer says)."""
    raw = scope.get("query_string", b"")
    query = dict(parse_qsl(raw.decode("latin-1"))) if raw else {}  # (a command's path has none)
    headers = scope.get("headers", ())
    accept = next((value.decode("latin-1") for key, value in headers if key == b"accept-language"), None)
    return choose(query, accept, setting, strict=False)
