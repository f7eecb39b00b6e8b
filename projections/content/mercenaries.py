"""Tavernkeepers and Mercenaries' content: the mercenary table (one item per rank, naming every card of
that rank in both decks) and the Leaders' limits, from seeds/mercenaries/ as the rules read them."""

from __future__ import annotations

from domain.mercenaries.content import DECK, LEADERS, RANKS, SETTINGS, Rank, deck_of, rank_of
from projections.content.model import Content, Item, amount

SEATS = 2
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_NAMES = {"clubs": "Clubs", "diamonds": "Diamonds", "hearts": "Hearts", "spades": "Spades"}


def rank_name(rank: str) -> str:
    return RANK_NAMES.get(rank, rank)


def card_name(card: str) -> str:
    """``mc-0-hearts-q`` -> ``Queen of Hearts``."""
    suit = card.split("-")[2]
    return f"{rank_name(rank_of(card).rank)} of {SUIT_NAMES[suit]}"


def effect_text(rank: Rank) -> str:
    text = (f"{rank.group}: Sword {rank.sword} in attack position, Shield {rank.shield} in defence. "
            f"Contract for {rank.contract} Gold; sells for {rank.contract} Gold; "
            f"wage {amount(rank.wage, 'Gold').replace('Golds', 'Gold')} each Night.")
    leader = LEADERS.get(rank.rank)
    if leader:
        text += (f" Leader: costs {amount(leader.sacrifices, 'sacrifice')} from your field (none when All In); "
                 f"at most {leader.field_limit} in your field.")
    return text


def _item(rank: Rank) -> Item:
    ids = tuple(c for seat in range(SEATS) for c in deck_of(seat) if rank_of(c).rank == rank.rank)
    numbers: dict = {"group": rank.group, "sword": rank.sword, "shield": rank.shield, "wage": rank.wage}
    if rank.rank in LEADERS:
        numbers |= {"field_limit": LEADERS[rank.rank].field_limit, "sacrifices": LEADERS[rank.rank].sacrifices}
    return Item(id=rank.rank, name=f"{rank_name(rank.rank)} ({rank.group})", category="card", kind="mercenary", ids=ids,
                text=effect_text(rank), cost={"gold": rank.contract}, numbers=numbers)


S = SETTINGS
RULES = (
    f"Two tavernkeepers, each with {S['starting_hp']} HP, {S['starting_gold']} Gold and a deck of "
    f"{len(DECK.suits) * len(DECK.ranks)} cards, hire mercenaries to bring the other down to 0 HP.",
    f"Morning: take {S['income']} Gold from the treasury and draw {S['morning_draw']}; contract one mercenary "
    f"(at most {S['field_size']} in your field), sell one card for its contract value, set positions.",
    f"Afternoon: attack. Both sides roll {S['dice']}d6 and add their mercenaries' Swords (attack) or Shields "
    "(defence); the loser takes the difference as damage and loses mercenaries to the Trash; winning by "
    f"{S['overrun_factor']} times overruns.",
    "Night: pay each mercenary's wage or dismiss it.",
    f"All In: with fewer than {S['all_in_hp_below']} HP, {S['all_in_gold_below']} Gold or {S['all_in_deck_below']} "
    f"cards in the deck you may draw {S['all_in_draw']}, contract for free and pay no wages that turn.",
)

TERMS = {"attack": "attack position", "defence": "defence position", "morning": "Morning",
         "afternoon": "Afternoon", "night": "Night", "hp": "HP", "gold": "Gold", **SUIT_NAMES}


def content() -> Content:
    items = tuple(_item(rank) for rank in RANKS.values())
    return Content(game="mercenaries", name="Tavernkeepers and Mercenaries", rules=RULES, terms=TERMS, items=items)
