"""Game terms: drink types, the name rule, "counts as", plurals, Patron types."""

from __future__ import annotations

from domain.tavern_masters.content import definitions
from domain.tavern_masters.terms import any_matches, drink_type, matches, patron_type, phrase


def test_the_four_drink_types_by_key_word():
    d = definitions()
    assert drink_type(d["dwarven-ale"]) == "Ale"
    assert drink_type(d["pale-ale"]) == "Ale"
    assert drink_type(d["honey-mead"]) == "Mead"
    assert drink_type(d["elven-wine"]) == "Wine"
    assert drink_type(d["dragonfire-brandy"]) == "Brandy"


def test_other_drinks_count_their_name_as_their_type():
    d = definitions()
    assert drink_type(d["grog"]) == "Grog"
    assert drink_type(d["apple-cider"]) == "Apple Cider"
    assert matches("apple-cider-1", "Apple Cider") and not matches("dwarven-ale-1", "Apple Cider")
    assert drink_type(d["aged-cheese"]) == ""  # not a Drink


def test_name_rule_any_cheese():
    """'any Cheese': any card with the word in its name, or that counts as Cheese."""
    assert matches("aged-cheese-1", "Cheese")
    assert matches("goat-cheese-2", "Cheese")
    assert matches("fondue-pot-1", "Cheese")  # "counts as Cheese"
    assert not matches("meat-pie-1", "Cheese")


def test_types_match_goods_npc_and_kind():
    assert matches("elven-barmaid-1", "Wench") and matches("elven-barmaid-1", "Wenches")
    assert matches("elven-barmaid-1", "Staff") and matches("elven-barmaid-1", "Elven")
    assert matches("dice-table-1", "Game") and matches("dice-table-1", "Games")
    assert matches("grog-1", "Drink") and matches("baroness-1", "Noble") and matches("baroness-1", "Patron")
    assert not matches("barbarian-1", "Noble")


def test_plural_and_case_folding():
    assert phrase("Wenches") == phrase("wench") == "wench"
    assert phrase("Cheese") == "cheese"
    assert phrase("Back-Alley Fence") == "back alley fence"


def test_any_matches_over_a_tavern():
    assert any_matches(("meat-pie-1", "goat-cheese-1"), "Cheese")
    assert not any_matches((), "Cheese")


def test_a_patron_is_named_for_its_want():
    assert patron_type("thirsty-farmer-1") == "ale"  # an Ale Patron
    assert patron_type("weary-pilgrim-1") == "drink"  # an Any Drink Patron, not an Ale Patron
