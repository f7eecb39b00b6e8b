"""The seeds: the rulebook's mercenary table and leader limits, and a provenance on every record."""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable

import pytest

from domain.kernel.content import SEEDS
from domain.mercenaries.content import LEADERS, RANKS, SETTINGS, deck_of, rank_of

TABLE = {  # the rulebook's mercenary table: Sword = Shield, Contract, Wage
    "Novice": ("A2", 1, 1, 0), "Soldier": ("34", 3, 3, 1), "Veteran": ("56", 5, 4, 2),
    "Captain": ("78", 7, 5, 3), "Elite": ("9T", 9, 6, 4), "Leader": ("JQK", 10, 9, 5),
}


@pytest.mark.parametrize("group", TABLE)
def test_the_mercenary_table(group):
    ranks, value, contract, wage = TABLE[group]
    for short in ranks:
        row = RANKS["10" if short == "T" else short]
        assert (row.group, row.sword, row.shield, row.contract, row.wage) == (group, value, value, contract, wage)


def test_leader_limits_and_setup_numbers():
    assert {r: LEADERS[r].field_limit for r in "JQK"} == {"J": 3, "Q": 2, "K": 1}
    assert (SETTINGS["starting_hp"], SETTINGS["starting_gold"], SETTINGS["treasury"]) == (100, 100, 200)
    assert (SETTINGS["starting_hand"], SETTINGS["field_size"], SETTINGS["income"]) == (4, 3, 10)


def records(path: Traversable):
    data = json.loads(path.read_text())
    return data if isinstance(data, list) else [data]


JSON_FILES = sorted((p for p in (SEEDS / "mercenaries").iterdir() if p.name.endswith(".json")), key=lambda p: p.name)


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda p: p.name)
def test_every_record_says_where_it_comes_from(path):
    for record in records(path):
        assert record["provenance"] in {"rulebook", "ours"}
        assert record["provenance"] == "rulebook" or record["note"]


def test_each_deck_has_52_distinct_cards_with_readable_ids():
    decks = deck_of(0) + deck_of(1)
    assert len(set(decks)) == 104 and len(deck_of(0)) == 52
    assert rank_of("mc-1-spades-10").group == "Elite" and rank_of("mc-0-hearts-a").group == "Novice"


def test_the_rulings_are_written_down():
    text = (SEEDS / "mercenaries" / "RULINGS.md").read_text()
    for topic in ("## Decks", "## Leaders and sacrifices", "## All In", "## Combat", "## The Night"):
        assert topic in text
