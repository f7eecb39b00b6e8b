"""The options that offer another reading of a rulebook (issue 21, finding 14; Taverna's favour
windows, finding 2): the strict auditor accepts matches played with each, and a charter written
before an option existed audits as the rules then played."""

from __future__ import annotations

import pytest

from domain.games import get_game
from projections.audit import AuditFailure, audit
from tests.audit.forgery import with_charter
from tests.audit.offline import export_of_play

NOW = 1_800_000_000.0  # the audit's clock in these tests (2027-01)

READINGS = [
    ("heros-tavern", 3, {"staff_copies": "once"}),
    ("mercenaries", 2, {"sell_from": "hand_or_field", "best_of": 3}),
    ("tavern-masters", 3, {"draft": "booklet"}),
    ("taverna", 3, {"off_turn_favours": True}),
    ("taverna", 3, {"off_turn_favours": False}),
    ("taverna", 4, {"notary_second_deed": True}),
]


@pytest.mark.parametrize(("game", "seats", "options"), READINGS, ids=lambda v: str(v))
def test_a_match_with_the_option_audits(game, seats, options):
    report = audit(export_of_play(game, seats, f"reading-{game}", options), now=NOW)
    assert report.commands > 0 and report.result is not None


def test_a_taverna_charter_of_rules_version_2_audits_without_favour_windows():
    """Version 2 had no ``off_turn_favours``: its charters lack it, and their matches opened no window.
    The same log under a charter that names the option (on) is refused: there a window would open."""
    game = get_game("taverna")
    later = ("off_turn_favours", "auto_pass_entries")  # options of rules versions 3 and 4
    options = {name: value for name, value in game.setup(3).options.items() if name not in later}
    seed = "rules-2-2"  # a match in which windows open under version 3
    assert b'"FavourWindow' in export_of_play("taverna", 3, seed, recorded=(3, {**options, "off_turn_favours": True}))
    old = export_of_play("taverna", 3, seed, recorded=(2, options))
    assert audit(old, now=NOW).rules_version == 2
    assert b"FavourWindow" not in old
    forged = with_charter(old, options={**options, "off_turn_favours": True})
    with pytest.raises(AuditFailure, match=r"PickCustomer .* gives 1 more event"):  # the window after the pick
        audit(forged, now=NOW)
