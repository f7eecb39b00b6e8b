"""Tavern Masters' content: every card definition of seeds/tavern-masters/ with its copies' ids and an
effect text generated from the same ``effects``/``deed`` entries that domain/tavern_masters/effects.py
interprets."""

from __future__ import annotations

from domain.tavern_masters.content import CardDef, Effect, definitions, instances
from domain.tavern_masters.phases import DEAL, HAND_LIMIT
from domain.tavern_masters.scoring import GOAL, MAX_TIE_ROUNDS
from domain.tavern_masters.state import CHALLENGE_ROUNDS
from domain.tavern_masters.terms import drink_type
from projections.content.model import Content, Item, amount, article

PATRON_GOLD, NOBLE_GOLD = 1, 2  # what a Patron and a Noble earn at the Till (effects.card_income)


def effect_sentence(effect: Effect) -> str:
    """One entry of the effect vocabulary in words."""
    op, n, term = effect.op, effect.amount, effect.term
    gold = amount(n, "Gold").replace("Golds", "Gold")
    sentences = {
        "income": f"+{gold} when the Till is counted.",
        "income_per": f"+{gold} at the Till for each other {term} card in your Tavern.",
        "income_if": f"+{gold} at the Till if any other {term} card is in your Tavern.",
        "allow_nobles": "Noble Patrons may be played to your Tavern.",
        "gain_gold": f"Gain {gold}.",
        "draw_tavern": f"Draw {amount(n, 'Tavern card')}.",
        "steal_gold": f"Take up to {gold} from another player.",
        "steal_hand": "Take one card at random from another player's hand.",
        "discard_hand": "Another player discards one card at random from their hand.",
        "discard_patrons": f"Discard every {term} Patron in another player's Tavern.",
        "discard_patron": "Discard one Patron from another player's Tavern.",
        "steal_patron": "Move one Patron from another player's Tavern to yours.",
        "steal_card": "Move one Goods or Staff card from another player's Tavern to yours.",
        "discard_card": "Discard one Goods or Staff card from another player's Tavern.",
        "remove_card": "Remove one Goods or Staff card in another player's Tavern from the game.",
        "switch": "Swap one Goods or Staff card of your Tavern with one in another player's.",
        "cancel": "Play when a Dirty Deed targets you: it has no effect.",
    }
    if op not in sentences:
        raise ValueError(f"no sentence for effect {op!r}")
    return sentences[op]


def effect_text(defn: CardDef) -> str:
    parts: list[str] = []
    if defn.kind == "goods":
        kind = drink_type(defn) if defn.goods_type == "Drink" else ""
        typed = f"{defn.goods_type} ({kind})" if kind and kind != defn.name else defn.goods_type or "Goods"
        parts.append(f"{typed}. Buy for {defn.cost} Gold by Day.")
    elif defn.kind == "staff":
        hire = f"Hire for {defn.cost} Gold by Day"
        parts.append(f"{defn.npc_type or 'Staff'}. {hire}, free with any {defn.free_with} in your Tavern."
                     if defn.free_with else f"{defn.npc_type or 'Staff'}. {hire}.")
    elif defn.kind == "patron":
        gold = NOBLE_GOLD if defn.noble else PATRON_GOLD
        noble = " Noble: needs a card that lets Nobles in." if defn.noble else ""
        likes = f" Stays after the Till if your Tavern has {' or '.join(defn.likes)}." if defn.likes else \
            " Likes nothing: leaves after the Till."
        parts.append(f"Wants {defn.wants}: play by Night to a Tavern that has it.{noble} "
                      f"Earns {gold} Gold at the Till.{likes}")
    elif defn.kind == "deed":
        agent = f"Needs {article(defn.agent)} in your Tavern. " if defn.agent else ""
        parts.append(f"Dirty Deed. {agent}")
    if defn.free_with and defn.kind == "goods":
        parts.append(f"Free with any {defn.free_with} in your Tavern.")
    parts.extend(effect_sentence(e) for e in defn.effects)
    if defn.deed is not None:
        prefix = "Dirty Deed ability (once a round): " if defn.kind == "patron" else ""
        parts.append(prefix + effect_sentence(defn.deed))
    if defn.red_gem and defn.kind != "deed":
        parts.append("Only with Dirty Deeds.")
    return " ".join(p.strip() for p in parts if p.strip())


def _numbers(defn: CardDef) -> dict:
    numbers: dict = {"copies": defn.copies}
    for name in ("goods_type", "npc_type", "free_with", "wants", "agent"):
        if getattr(defn, name):
            numbers[name] = getattr(defn, name)
    if defn.likes:
        numbers["likes"] = list(defn.likes)
    if defn.noble:
        numbers["noble"] = True
    if defn.red_gem:
        numbers["dirty_deeds_only"] = True
    if defn.lists:
        numbers["card_lists"] = list(defn.lists)  # only in these card lists (match option card_list)
    return numbers


def _item(defn: CardDef, copies: tuple[str, ...]) -> Item:
    cost = {"gold": defn.cost} if defn.cost else {}
    return Item(id=defn.id, name=defn.name, category="card", kind=defn.kind, ids=copies, text=effect_text(defn),
                cost=cost, numbers=_numbers(defn))


CHALLENGES = ", ".join(f"{name} {rounds}" for name, rounds in CHALLENGE_ROUNDS.items())
RULES = (
    "One to six tavern masters run taverns: buy Goods and hire Staff by Day, seat Patrons by Night, "
    "then count the Till.",
    f"Day: you are dealt {DEAL} Tavern cards (more on the first Day) and play any you can pay for in Gold; "
    "some Staff are free when your Tavern has what they name. Players may trade Goods and Staff for Gold.",
    f"Night: you are dealt {DEAL} Patron cards and play those whose Want your Tavern has.",
    f"Counting the Till: each Patron earns {PATRON_GOLD} Gold, a Noble {NOBLE_GOLD}, plus the income on the cards. "
    f"Patrons leave unless something they Like is in the Tavern. Keep at most {HAND_LIMIT} cards "
    "(one more with Dirty Deeds).",
    f"Competitive: the first to {GOAL} Gold ends the match and the most Gold wins (a tie plays up to "
    f"{MAX_TIE_ROUNDS} more rounds; the match stops after round 10 unless the round_cap option says 20 or no cap).",
    f"Co-operative: the table wins together if every player has {GOAL} Gold after the challenge's rounds "
    f"({CHALLENGES}), and loses together otherwise. Solo: reach {GOAL} Gold within those rounds.",
    "Dirty Deeds (option): a deed card needs its agent in your Tavern; its target may cancel it with City Watch.",
)

TERMS = {"draft": "The draft", "mulligan": "The mulligan", "gold": "Gold",
         "tavern": "Tavern deck", "patron": "Patron deck", "deed": "Dirty Deeds deck",
         "day": "Day", "night": "Night", "till": "Counting the Till", "deeds": "Dirty Deeds",
         "competitive": "Competitive", "cooperative": "Co-operative", "solo": "Solo",
         **{name: name.capitalize() for name in CHALLENGE_ROUNDS}}


def content() -> Content:
    copies: dict[str, list[str]] = {}
    for instance, defn in instances().items():
        copies.setdefault(defn.id, []).append(instance)
    items = tuple(_item(d, tuple(copies[d.id])) for d in definitions().values())
    return Content(game="tavern-masters", name="Tavern Masters", rules=RULES, terms=TERMS, items=items)
