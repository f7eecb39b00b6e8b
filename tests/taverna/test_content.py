"""The content: counts from the rulebook, and a provenance on every record."""

from __future__ import annotations

from collections import Counter

from domain.taverna.content import BOARD, CUSTOMERS, FAVOURS, SPELLS, TRACKS


def test_counts_from_the_rulebook():
    assert len(CUSTOMERS) == 34 and len(SPELLS) == 32 and len(FAVOURS) == 15
    assert sum(s.curse for s in SPELLS.values()) == 1
    assert Counter(c.players for c in CUSTOMERS.values()) == {2: 22, 4: 6, 5: 6}
    assert TRACKS.scores == (-3, -1, 0, 1, 2, 4, 7, 10)
    assert Counter(f.kind for f in FAVOURS.values()) == {
        "change_guild": 2, "guild_token": 1, "add_guild": 4, "second_spell": 2, "move_customer": 2,
        "other_people": 2, "level": 2,
    }
    sides = {side.id: side for side in BOARD.sides}
    assert [len(t.tables) for t in sides["2-3"].taverns] == [3, 3, 3, 3, 6]
    assert sum(len(t.tables) for t in sides["4-5"].taverns) == 30


def test_every_record_names_its_provenance():
    """Rulebook facts and our own choices are told apart on every record (the loader requires the field)."""
    records = [
        *(t for side in BOARD.sides for t in side.taverns), *TRACKS.peoples, *CUSTOMERS.values(), *SPELLS.values(),
        *FAVOURS.values(),
    ]
    assert all(r.provenance in ("rulebook", "ours") for r in records)
    assert all(r.note for r in records if r.provenance == "ours")
    for supply in (BOARD.guild_tokens, BOARD.privilege_tokens, BOARD.customer_tiles):
        assert supply["provenance"] in ("rulebook", "ours")
    assert TRACKS.order_provenance and TRACKS.scores_provenance == "rulebook"
