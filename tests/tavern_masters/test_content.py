"""The card set: large and varied enough for six, every record with its provenance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.tavern_masters.content import CARD_LISTS, deck_cards, definitions, instances
from domain.tavern_masters.effects import wants_met
from domain.tavern_masters.terms import DRINK_TYPES, drink_type
from domain.tavern_masters.till import card_income

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "tavern-masters"
NPC_TYPES = {"Soldier", "Thug", "Mage", "Wench", "Entertainer", "Sailor", "Craftsman", "Hunter"}


def test_every_record_names_its_provenance():
    for name in ("tavern.json", "patrons.json", "deeds.json"):
        for record in json.loads((SEEDS / name).read_text()):
            assert record["provenance"] in ("rulebook", "ours"), record["id"]
            assert record["note"], record["id"]


def test_rulebook_cards_are_marked_as_such():
    barmaid = definitions()["elven-barmaid"]
    assert (barmaid.provenance, barmaid.npc_type, barmaid.cost, barmaid.free_with) == ("rulebook", "Wench", 2, "Cheese")


@pytest.mark.parametrize("card_list", CARD_LISTS)
def test_decks_are_large_enough_for_six_seats(card_list):
    # six seats draft 24 Tavern cards and are dealt 18 Patrons and 18 Tavern cards a round
    assert len(deck_cards("tavern", False, card_list)) >= 70
    assert len(deck_cards("patron", False, card_list)) >= 70
    assert len(deck_cards("deed", True, card_list)) >= 40
    assert deck_cards("deed", False, card_list) == ()


def test_card_list_2_changes_only_our_cards():
    one, two = (set(deck_cards("tavern", True, n) + deck_cards("patron", True, n)) for n in (1, 2))
    changed = {instances()[c].id for c in one ^ two}
    assert changed == {"serving-wench", "traveling-bard", "juggler", "tavern-wench", "wandering-bard",
                       "fire-juggler", "tip-jar", "house-brew"}
    assert all(definitions()[c].provenance == "ours" for c in changed)
    assert {c for c in changed if definitions()[c].lists == (1,)} == {"serving-wench", "traveling-bard", "juggler"}


def test_red_gem_cards_only_with_dirty_deeds():
    red = {i for i, d in instances().items() if d.red_gem}
    assert red
    assert not red & set(deck_cards("tavern", False) + deck_cards("patron", False))
    assert red <= set(deck_cards("tavern", True) + deck_cards("patron", True))


def test_every_npc_type_drink_type_and_goods_type_is_in_the_tavern_deck():
    cards = definitions().values()
    assert {d.npc_type for d in cards if d.kind == "staff"} >= NPC_TYPES
    assert set(DRINK_TYPES) <= {drink_type(d) for d in cards}
    assert {"Drink", "Food", "Game"} <= {d.goods_type for d in cards}


def test_patrons_have_wants_likes_and_nobles_and_deeds_have_agents():
    patrons = [d for d in definitions().values() if d.kind == "patron"]
    assert all(p.wants for p in patrons)
    assert any(p.noble for p in patrons) and any(p.likes for p in patrons) and any(not p.likes for p in patrons)
    assert any(p.deed for p in patrons if p.red_gem)
    deeds = [d for d in definitions().values() if d.kind == "deed"]
    assert all(d.deed for d in deeds)
    assert all(d.agent for d in deeds if d.deed and d.deed.op != "cancel")
    assert sum(d.copies for d in deeds if d.deed and d.deed.op == "cancel") == 3


def test_every_effect_op_is_in_the_vocabulary():
    from domain.tavern_masters.effects import TARGETS

    static = {"income", "income_per", "income_if", "allow_nobles"}
    for d in definitions().values():
        assert {e.op for e in d.effects} <= static, d.id
        assert d.deed is None or d.deed.op in TARGETS, d.id


def test_instance_ids_are_unique_and_name_their_card():
    assert instances()["elven-barmaid-3"].name == "Elven Barmaid"
    assert "elven-barmaid-4" not in instances()


def test_house_brew_seats_ale_mead_and_wine_patrons_and_takes_a_tip_from_each():
    brew = next(c for c in deck_cards("tavern", False, 2) if c.startswith("house-brew"))
    patrons = [next(c for c in deck_cards("patron", False, 2) if c.startswith(name))
               for name in ("thirsty-farmer", "barbarian", "gambler", "cheesemonger")]
    assert [wants_met(p, (brew,)) for p in patrons] == [True, True, True, False]
    assert card_income(brew, (brew, *patrons[:3])) == 3
