"""The kernel's Game.setup checks, using Hero's Tavern, and the deck as seeded."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from domain.games import get_game
from domain.heros_tavern import GAME, content
from domain.heros_tavern.content import DECK, Tokens
from domain.kernel import RulesError

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "heros-tavern"


def test_the_registry_finds_the_game():
    assert get_game("heros-tavern") is GAME


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_three_to_five_seats_with_defaults_filled_in(seats):
    setup = GAME.setup(seats)
    assert setup.seats == seats
    assert setup.options == {"shopkeeper_cap": False, "zero_entertainment_second": False, "finite_tokens": False,
                             "staff_copies": "each"}


@pytest.mark.parametrize("seats", [0, 1, 2, 6])
def test_other_seat_counts_are_refused(seats):
    with pytest.raises(RulesError) as caught:
        GAME.setup(seats)
    assert caught.value.code == "bad_seats"


@pytest.mark.parametrize(
    "options", [{"no_such_option": True}, {"shopkeeper_cap": "yes"}, {"shopkeeper_cap": 1}, {"shopkeeper_cap": None}]
)
def test_unknown_options_and_bad_values_are_refused(options):
    with pytest.raises(RulesError) as caught:
        GAME.setup(4, options)
    assert caught.value.code == "bad_option"


def test_an_option_value_is_kept():
    assert GAME.setup(3, {"shopkeeper_cap": True}).options == {
        "shopkeeper_cap": True, "zero_entertainment_second": False, "finite_tokens": False, "staff_copies": "each"}


def test_the_deck_holds_118_cards_in_the_rulebook_counts():
    kinds = Counter(card.kind for card in DECK.values())
    assert len(DECK) == 118
    assert {k: n for k, n in kinds.items() if n == 12}.keys() == {
        "entertainment", "food", "light_ale", "dark_ale", "lodging", "market", "games", "barrel", "tools"}
    assert {k: n for k, n in kinds.items() if n == 2}.keys() == {"jester", "cook", "bartender", "maid", "shopkeeper"}


def test_every_card_costs_something_and_the_rulebook_example_is_affordable():
    assert all(card.cost.count > 0 for card in DECK.values())
    costs = Counter((card.kind, card.cost) for card in DECK.values())
    assert costs["dark_ale", Tokens(storage=1)] >= 1
    assert costs["market", Tokens(land=1)] >= 2


@pytest.mark.parametrize("name", ["cards.json", "kinds.json"])
def test_every_seed_record_says_where_it_comes_from(name):
    records = json.loads((SEEDS / name).read_text())
    assert records and all(r["provenance"] in ("rulebook", "ours") and r["note"] for r in records)


def test_ids_name_their_kind():
    assert all(card.id.startswith("ht-" + card.kind.replace("_", "-") + "-") for card in DECK.values())


def test_a_seed_that_breaks_the_rulebook_counts_fails_loudly(monkeypatch):
    real = content.load_seed

    def one_food_short(game, name, type_):
        records = real(game, name, type_)
        return [r for r in records if r.id != "ht-food-12"] if name == "cards.json" else records

    monkeypatch.setattr(content, "load_seed", one_food_short)
    with pytest.raises(ValueError, match="11 food"):
        content.load_deck()
