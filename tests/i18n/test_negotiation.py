"""Accept-Language negotiation and the order of the language's sources (services/gateway/language.py)."""

from __future__ import annotations

import pytest

from services.gateway.access import ApiError
from services.gateway.language import choose, negotiated


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("fr", "fr"),
        ("fr-CA", "fr"),
        ("FR-fr;q=0.8", "fr"),
        ("de, fr;q=0.5", "fr"),  # the first the service has
        ("en;q=0.4, fr;q=0.9", "fr"),  # by weight, not order
        ("fr;q=0.5, en;q=0.5", "fr"),  # a tie: the header's order
        ("en, fr", "en"),
        ("de, *;q=0.1", "en"),  # any: the default first
        ("en;q=0, *", "fr"),  # English refused, anything else
        ("fr;q=0", "en"),  # refused, nothing else acceptable: the default
        ("de, ja", "en"),
        ("fr;q=abc, en;q=0.1", "en"),  # a malformed weight counts as 0
        (";;,,", "en"),
    ],
)
def test_accept_language_is_weighed(header, language):
    assert negotiated(header) == language


def test_the_query_wins_over_the_setting_which_wins_over_the_header():
    assert choose({}, "fr") == "fr"
    assert choose({}, "fr", setting="en") == "en"
    assert choose({}, "en", setting="fr") == "fr"
    assert choose({"lang": "en"}, "fr", setting="fr") == "en"
    assert choose({}, "fr", setting="") == "fr"  # no setting: the header decides


def test_an_unknown_lang_is_refused_or_left_out():
    with pytest.raises(ApiError) as refused:
        choose({"lang": "xx"}, "fr")
    assert (refused.value.status, refused.value.code) == (400, "bad_query")
    assert choose({"lang": "xx"}, "fr", strict=False) == "fr"  # an error's own answer
