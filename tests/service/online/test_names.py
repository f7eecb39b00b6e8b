"""Names at one table: a name a seat before holds (case and width aside) gets " (2)", " (3)", ...
in seat order; anonymous seats and bots (no name) are left as they are."""

from __future__ import annotations

import pytest

from domain.kernel import RulesError
from services.commands.players import at_table, check_name


@pytest.mark.parametrize(
    ("names", "shown"),
    [
        (["Ann", "Bea", None], ["Ann", "Bea", None]),
        (["Ann", "ann", "ANN"], ["Ann", "ann (2)", "ANN (3)"]),
        ([None, "Zoë", None, "Zoë"], [None, "Zoë", None, "Zoë (2)"]),
        (["\uff22\uff45\uff41", "Bea"], ["\uff22\uff45\uff41", "Bea (2)"]),  # full-width letters read the same
        (["Ann", "Anna"], ["Ann", "Anna"]),
    ],
)
def test_a_repeated_name_is_numbered_in_seat_order(names, shown):
    assert at_table(names) == shown


def test_a_numbered_name_is_nobodys_own():
    with pytest.raises(RulesError) as refused:
        check_name("Ann (2)")
    assert refused.value.code == "bad_name"
