"""Tavernkeepers and Mercenaries' content: the mercenary table (one item per rank, naming every card of
that rank in both decks) and the Leaders' limits, from seeds/mercenaries/ as the rules read them."""

from __future__ import annotations

from domain.mercenaries.content import DECK, LEADERS, RANKS, SETTINGS, Rank, deck_of, rank_of
from projections.content.model import Content, Item
from projections.i18n import N_, Texts, texts

# the breakdown's categories (domain/mercenaries/breakdown.py): games won by each Victory condition
SCORING = {"hp": N_("Games won: the rival's HP at 0"), "deck_out": N_("Games won: the rival could not draw"),
           "both_fell": N_("Games won: both at 0 HP, the tie broken")}

SEATS = 2
SUIT_NAMES = {"clubs": N_("Clubs"), "diamonds": N_("Diamonds"), "hearts": N_("Hearts"), "spades": N_("Spades")}


def rank_name(t: Texts, rank: str) -> str:
    """A court card's or the Ace's name (a card's Queen is no Taverna Queen in French), else the number."""
    names = {"A": t.p_("playing card", "Ace"), "J": t.p_("playing card", "Jack"), "Q": t.p_("playing card", "Queen"),
             "K": t.p_("playing card", "King")}
    return names.get(rank, rank)


def card_name(card: str, t: Texts | None = None) -> str:
    """``mc-0-hearts-q`` -> ``Queen of Hearts``."""
    t = t or texts()
    suit = card.split("-")[2]
    return t._("{rank} of {suit}", rank=rank_name(t, rank_of(card).rank), suit=t._(SUIT_NAMES[suit]))


def effect_text(t: Texts, rank: Rank) -> str:
    text = t._(
        "{group}: Sword {sword} in attack position, Shield {shield} in defence. Contract for {contract} Gold; "
        "sells for {contract} Gold; wage {wage} Gold each Night.",
        group=t._(rank.group),
        sword=rank.sword,
        shield=rank.shield,
        contract=rank.contract,
        wage=rank.wage,
    )
    leader = LEADERS.get(rank.rank)
    if leader:
        text += " " + t.n_(
            "Leader: costs {count} sacrifice from your field (none when All In); at most {limit} in your field.",
            "Leader: costs {count} sacrifices from your field (none when All In); at most {limit} in your field.",
            leader.sacrifices,
            limit=leader.field_limit,
        )
    return text


def _item(t: Texts, rank: Rank) -> Item:
    ids = tuple(c for seat in range(SEATS) for c in deck_of(seat) if rank_of(c).rank == rank.rank)
    numbers: dict = {"group": rank.group, "sword": rank.sword, "shield": rank.shield, "wage": rank.wage}
    if rank.rank in LEADERS:
        numbers |= {"field_limit": LEADERS[rank.rank].field_limit, "sacrifices": LEADERS[rank.rank].sacrifices}
    name = t._("{rank} ({group})", rank=rank_name(t, rank.rank), group=t._(rank.group))
    return Item(
        id=rank.rank,
        name=name,
        category="card",
        kind="mercenary",
        ids=ids,
        text=effect_text(t, rank),
        cost={"gold": rank.contract},
        numbers=numbers,
    )


S = SETTINGS


def rules(t: Texts) -> tuple[str, ...]:
    return (
        t._(
            "Two tavernkeepers, each with {hp} HP, {gold} Gold and a deck of {cards} cards, hire mercenaries to "
            "bring the other down to 0 HP.",
            hp=S["starting_hp"],
            gold=S["starting_gold"],
            cards=len(DECK.suits) * len(DECK.ranks),
        ),
        t._(
            "Morning: take {income} Gold from the treasury and draw {draw}; contract one mercenary (at most {field} "
            "in your field), sell one card for its contract value, set positions.",
            income=S["income"],
            draw=S["morning_draw"],
            field=S["field_size"],
        ),
        t._(
            "Afternoon: attack. Both sides roll {dice}d6 and add their mercenaries' Swords (attack) or Shields "
            "(defence); the loser takes the difference as damage and loses mercenaries to the Trash; winning by "
            "{factor} times overruns.",
            dice=S["dice"],
            factor=S["overrun_factor"],
        ),
        t._("Night: pay each mercenary's wage or dismiss it."),
        t._(
            "All In: with fewer than {hp} HP, {gold} Gold or {deck} cards in the deck you may draw {draw}, contract "
            "for free and pay no wages that turn.",
            hp=S["all_in_hp_below"],
            gold=S["all_in_gold_below"],
            deck=S["all_in_deck_below"],
            draw=S["all_in_draw"],
        ),
    )


def terms(t: Texts) -> dict[str, str]:
    return {
        "attack": t._("attack position"),
        "defence": t._("defence position"),
        "morning": t._("Morning"),
        "afternoon": t._("Afternoon"),
        "night": t._("Night"),
        "hp": t._("HP"),
        "gold": t._("Gold"),
        **{suit: t._(name) for suit, name in SUIT_NAMES.items()},
    }


def content(t: Texts) -> Content:
    items = tuple(_item(t, rank) for rank in RANKS.values())
    return Content(
        game="mercenaries",
        language=t.language,
        name=t._("Tavernkeepers and Mercenaries"),
        rules=rules(t),
        terms=terms(t),
        items=items,
        scoring={category: t._(name) for category, name in SCORING.items()},
    )
