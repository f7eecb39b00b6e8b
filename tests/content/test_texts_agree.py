"""Every card's effect text agrees with the data the rules read: its numbers are the ones the rules
use (checked against the rules' own functions where they compute), every card id of the game has
exactly one item, and no text shows an internal id."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from domain.games import game_ids
from domain.heros_tavern import scoring
from domain.heros_tavern.content import DECK as HT_DECK
from domain.heros_tavern.content import Tokens
from domain.mercenaries.content import LEADERS, RANKS, deck_of, rank_of
from domain.tavern_masters.content import instances
from domain.tavern_masters.terms import any_matches
from domain.tavern_masters.till import card_income
from domain.taverna.content import BOARD, CUSTOMERS, FAVOURS, SPELLS, TRACKS
from projections.content import content_of
from projections.content.model import Item
from projections.content.taverna import GUILD_NAMES, PEOPLE_NAMES

INTERNAL_ID = re.compile(r"\b(?:[a-z]+-)+\d+\b|\bta-[a-z]{2}-\d+\b|\bmc-\d")


def items(game: str, category: str = "card") -> dict[str, Item]:
    """Each card id the views use, with the item that describes it."""
    out: dict[str, Item] = {}
    for item in content_of(game).items:
        if item.category == category:
            for ident in item.ids:
                assert ident not in out, f"{ident} has two items"
                out[ident] = item
    return out


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"-?\d+", text)]


@pytest.mark.parametrize("game", game_ids())
def test_every_item_has_a_name_a_text_and_no_internal_id(game):
    content = content_of(game)
    assert content.rules and all(content.rules)
    for item in content.items:
        assert item.name.strip() and item.text.strip() and item.ids
        assert not INTERNAL_ID.search(item.name + " " + item.text), item
    for paragraph in content.rules:
        assert not INTERNAL_ID.search(paragraph)


def test_heros_tavern_costs_and_scores_are_the_rules():
    cards = items("heros-tavern")
    assert set(cards) == set(HT_DECK)
    for card_id, card in HT_DECK.items():
        item = cards[card_id]
        assert Tokens(**item.cost) == card.cost
        assert item.kind == card.kind and item.name.lower().replace(" ", "_") == card.kind
    text = {card.kind: cards[card_id].text for card_id, card in HT_DECK.items()}

    def score(**kinds: int) -> int:
        tavern = [c for kind, n in kinds.items() for c in [f for f in HT_DECK if HT_DECK[f].kind == kind][:n]]
        return scoring.score_taverns([tavern])[0].total

    # each claim of the text, checked by scoring a tavern with the rules' own function
    assert f"Every 3 Food cards score {score(food=3)} heroes" in text["food"]
    assert f"paired with a Dark Ale scores {score(light_ale=1, dark_ale=1)}" in text["light_ale"]
    assert f"same ale scores {score(light_ale=2)}" in text["dark_ale"]
    assert f"Each Lodging scores {score(lodging=1)}" in text["lodging"]
    assert numbers(text["market"])[:6] == [score(market=n) for n in range(6)]
    assert numbers(text["entertainment"])[:2] == [score(entertainment=1), 3]  # alone: most; 3 for second
    assert scoring.entertainment([2, 1]) == (numbers(text["entertainment"])[0], numbers(text["entertainment"])[1])
    for kind, token in (("games", "coin"), ("barrel", "storage"), ("tools", "land")):
        awarded = [getattr(scoring.resources(Counter({kind: n})), token) for n in range(6)]
        assert numbers(text[kind])[:6] == awarded
    assert numbers(text["maid"])[:4] == [score(maid=1, lodging=n) - score(lodging=n) for n in range(4)]
    assert numbers(text["shopkeeper"])[0] == score(shopkeeper=1, market=2) - score(market=2) - 2


def test_tavern_masters_texts_are_the_card_data():
    cards = items("tavern-masters")
    assert set(cards) == set(instances())
    for instance, defn in instances().items():
        item, text = cards[instance], cards[instance].text
        assert item.name == defn.name and item.kind == defn.kind
        if defn.cost:
            assert item.cost == {"gold": defn.cost} and f"for {defn.cost} Gold" in text
        for word in (defn.wants, defn.free_with, defn.agent, *defn.likes):
            assert word in text
        assert ("Noble:" in text) == defn.noble and ("Only with Dirty Deeds" in text) == (defn.red_gem
                                                                                        and defn.kind != "deed")
        for effect in (*defn.effects, *([defn.deed] if defn.deed else [])):
            if effect.amount:
                assert f"{effect.amount} Gold" in text or f"{effect.amount} Tavern card" in text
            if effect.term:
                assert effect.term in text
        if defn.kind == "patron":  # what it earns alone at the Till, as the rules count it
            fixed = sum(e.amount for e in defn.effects if e.op == "income")
            assert f"Earns {card_income(instance, (instance,)) - fixed} Gold at the Till" in text
            goods = [i for i, d in instances().items() if d.kind == "goods"]
            assert any(any_matches((i,), defn.wants) for i in goods)  # its Want names something one can buy


def test_taverna_texts_are_the_content():
    cards, tiles = items("taverna"), items("taverna", "tile")
    assert set(cards) == set(CUSTOMERS) | set(SPELLS)
    assert set(FAVOURS) <= set(tiles)
    for card_id, card in CUSTOMERS.items():
        text = cards[card_id].text
        assert all(PEOPLE_NAMES[p] in text for p in card.peoples) and all(GUILD_NAMES[g] in text for g in card.guilds)
        others = set(PEOPLE_NAMES) - set(card.peoples)
        assert not any(re.search(rf"\b{PEOPLE_NAMES[p]}\b", cards[card_id].name) for p in others)
    for spell_id, spell in SPELLS.items():
        text = cards[spell_id].text
        assert (cards[spell_id].cost.get("coins", 0)) == spell.cost
        counted = ("coins", "points", "privilege", "draw", "tax", "level", "favour", "lose_coins")
        assert all(str(e.amount) in text for e in spell.effects if e.kind in counted)
        assert all(PEOPLE_NAMES[e.people] in text for e in spell.effects if e.people)
        assert ("Instant" in text) == bool(spell.instant)
    spaces = {item.id: item for item in content_of("taverna").items if item.category == "space"}
    for side in BOARD.sides:
        for tavern in side.taverns:
            item = spaces[f"{side.id}/{tavern.id}"]
            assert item.name == tavern.name and f"{len(tavern.tables)} tables" in item.text
            assert all(f"{d.price} coins for {d.points} point" in item.text for d in tavern.deeds)
    tracks = items("taverna", "track")
    for people in TRACKS.peoples:
        assert ", ".join(map(str, TRACKS.scores)) in tracks[people.id].text


def test_mercenaries_texts_are_the_table():
    cards = items("mercenaries")
    assert set(cards) == set(deck_of(0)) | set(deck_of(1))
    for card_id, item in cards.items():
        rank = rank_of(card_id)
        assert item.cost == {"gold": rank.contract}
        for claim in (f"Sword {rank.sword}", f"Shield {rank.shield}", f"Contract for {rank.contract} Gold",
                      f"wage {rank.wage} Gold"):
            assert claim in item.text
        leader = LEADERS.get(rank.rank)
        assert ("Leader:" in item.text) == (leader is not None)
        if leader:
            assert f"at most {leader.field_limit} in your field" in item.text
    assert len({item.id for item in cards.values()}) == len(RANKS)
