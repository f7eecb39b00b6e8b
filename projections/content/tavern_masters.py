"""Tavern Masters' content: every card definition of seeds/tavern-masters/ with its copies' ids and an
effect text generated from the same ``effects``/``deed`` entries that domain/tavern_masters/effects.py
interprets."""

from __future__ import annotations

from domain.tavern_masters.content import CardDef, Effect, definitions, instances
from domain.tavern_masters.phases import DEAL, HAND_LIMIT
from domain.tavern_masters.scoring import GOAL, MAX_TIE_ROUNDS
from domain.tavern_masters.state import CHALLENGE_ROUNDS
from domain.tavern_masters.terms import drink_type
from projections.content.model import Content, Item, listing
from projections.i18n import N_, Texts

# the breakdown's categories (domain/tavern_masters/breakdown.py): where each seat's Gold came from
SCORING = {"start": N_("Starting Gold"), "spent": N_("Paid for Goods and Staff"), "trades": N_("Trades"),
           "deeds": N_("Dirty Deeds"), "patrons": N_("The Till: Patrons"),
           "goods_staff": N_("The Till: Goods and Staff")}

PATRON_GOLD, NOBLE_GOLD = 1, 2  # what a Patron and a Noble earn at the Till (till.card_income)
CHALLENGE_NAMES = {
    "buzzed": N_("Buzzed"),
    "tipsy": N_("Tipsy"),
    "sloshed": N_("Sloshed"),
    "hammered": N_("Hammered"),
    "wasted": N_("Wasted"),
}


def effect_sentence(t: Texts, effect: Effect) -> str:
    """One entry of the effect vocabulary in words."""
    op, n, term = effect.op, effect.amount, t._(effect.term) if effect.term else ""
    if op == "income":
        return t._("+{n} Gold when the Till is counted.", n=n)
    if op == "income_per":
        return t._("+{n} Gold at the Till for each other {term} card in your Tavern.", n=n, term=term)
    if op == "income_if":
        return t._("+{n} Gold at the Till if any other {term} card is in your Tavern.", n=n, term=term)
    if op == "gain_gold":
        return t._("Gain {n} Gold.", n=n)
    if op == "draw_tavern":
        return t.n_("Draw {count} Tavern card.", "Draw {count} Tavern cards.", n)
    if op == "steal_gold":
        return t._("Take up to {n} Gold from another player.", n=n)
    if op == "discard_patrons":
        return t._("Discard every {term} Patron in another player's Tavern.", term=term)
    sentences = {
        "allow_nobles": N_("Noble Patrons may be played to your Tavern."),
        "steal_hand": N_("Take one card at random from another player's hand."),
        "discard_hand": N_("Another player discards one card at random from their hand."),
        "discard_patron": N_("Discard one Patron from another player's Tavern."),
        "steal_patron": N_("Move one Patron from another player's Tavern to yours."),
        "steal_card": N_("Move one Goods or Staff card from another player's Tavern to yours."),
        "discard_card": N_("Discard one Goods or Staff card from another player's Tavern."),
        "remove_card": N_("Remove one Goods or Staff card in another player's Tavern from the game."),
        "switch": N_("Swap one Goods or Staff card of your Tavern with one in another player's."),
        "cancel": N_("Play when a Dirty Deed targets you: it has no effect."),
    }
    if op not in sentences:
        raise ValueError(f"no sentence for effect {op!r}")
    return t._(sentences[op])


def _goods(t: Texts, defn: CardDef) -> str:
    kind = drink_type(defn) if defn.goods_type == "Drink" else ""
    goods = t._(defn.goods_type) if defn.goods_type else t._("Goods")
    typed = t._("{goods} ({kind})", goods=goods, kind=t._(kind)) if kind and kind != defn.name else goods
    return t._("{typed}. Buy for {cost} Gold by Day.", typed=typed, cost=defn.cost)


def _staff(t: Texts, defn: CardDef) -> str:
    staff = t._(defn.npc_type) if defn.npc_type else t._("Staff")
    if defn.free_with:
        return t._(
            "{staff}. Hire for {cost} Gold by Day, free with any {free} in your Tavern.",
            staff=staff,
            cost=defn.cost,
            free=t._(defn.free_with),
        )
    return t._("{staff}. Hire for {cost} Gold by Day.", staff=staff, cost=defn.cost)


def _patron(t: Texts, defn: CardDef) -> str:
    parts = [t._("Wants {wants}: play by Night to a Tavern that has it.", wants=t._(defn.wants))]
    if defn.noble:
        parts.append(t._("Noble: needs a card that lets Nobles in."))
    parts.append(t._("Earns {gold} Gold at the Till.", gold=NOBLE_GOLD if defn.noble else PATRON_GOLD))
    if defn.likes:
        likes = listing(t, [t._(like) for like in defn.likes], "or")
        parts.append(t._("Stays after the Till if your Tavern has {likes}.", likes=likes))
    else:
        parts.append(t._("Likes nothing: leaves after the Till."))
    return " ".join(parts)


def effect_text(t: Texts, defn: CardDef) -> str:
    parts: list[str] = []
    if defn.kind == "goods":
        parts.append(_goods(t, defn))
    elif defn.kind == "staff":
        parts.append(_staff(t, defn))
    elif defn.kind == "patron":
        parts.append(_patron(t, defn))
    elif defn.kind == "deed":
        parts.append(t._("Dirty Deed."))
        if defn.agent:
            parts.append(t._("Its agent must be in your Tavern: {agent}.", agent=t._(defn.agent)))
    if defn.free_with and defn.kind == "goods":
        parts.append(t._("Free with any {free} in your Tavern.", free=t._(defn.free_with)))
    parts.extend(effect_sentence(t, e) for e in defn.effects)
    if defn.deed is not None:
        deed = effect_sentence(t, defn.deed)
        parts.append(t._("Dirty Deed ability (once a round): {deed}", deed=deed) if defn.kind == "patron" else deed)
    if defn.red_gem and defn.kind != "deed":
        parts.append(t._("Only with Dirty Deeds."))
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


def _item(t: Texts, defn: CardDef, copies: tuple[str, ...]) -> Item:
    cost = {"gold": defn.cost} if defn.cost else {}
    return Item(
        id=defn.id,
        name=t._(defn.name),
        category="card",
        kind=defn.kind,
        ids=copies,
        text=effect_text(t, defn),
        cost=cost,
        numbers=_numbers(defn),
    )


def rules(t: Texts) -> tuple[str, ...]:
    challenges = ", ".join(f"{t._(CHALLENGE_NAMES[name])} {rounds}" for name, rounds in CHALLENGE_ROUNDS.items())
    return (
        t._(
            "One to six tavern masters run taverns: buy Goods and hire Staff by Day, seat Patrons by Night, then "
            "count the Till."
        ),
        t._(
            "Day: you are dealt {deal} Tavern cards (more on the first Day) and play any you can pay for in Gold; "
            "some Staff are free when your Tavern has what they name. Players may trade Goods and Staff for Gold.",
            deal=DEAL,
        ),
        t._("Night: you are dealt {deal} Patron cards and play those whose Want your Tavern has.", deal=DEAL),
        t._(
            "Counting the Till: each Patron earns {patron} Gold, a Noble {noble}, plus the income on the cards. "
            "Patrons leave unless something they Like is in the Tavern. Keep at most {limit} cards (one more with "
            "Dirty Deeds).",
            patron=PATRON_GOLD,
            noble=NOBLE_GOLD,
            limit=HAND_LIMIT,
        ),
        t._(
            "Competitive: the first to {goal} Gold ends the match and the most Gold wins (a tie plays up to {ties} "
            "more rounds; the match stops after round 10 unless the round_cap option says 20 or no cap).",
            goal=GOAL,
            ties=MAX_TIE_ROUNDS,
        ),
        t._(
            "Co-operative: the table wins together if every player has {goal} Gold after the challenge's rounds "
            "({challenges}), and loses together otherwise. Solo: reach {goal} Gold within those rounds.",
            goal=GOAL,
            challenges=challenges,
        ),
        t._(
            "Dirty Deeds (option): a deed card needs its agent in your Tavern; its target may cancel it with City "
            "Watch."
        ),
    )


def terms(t: Texts) -> dict[str, str]:
    return {
        "draft": t._("The draft"),
        "mulligan": t._("The mulligan"),
        "gold": t._("Gold"),
        "tavern": t._("Tavern deck"),
        "patron": t._("Patron deck"),
        "deed": t._("Dirty Deeds deck"),
        "day": t._("Day"),
        "night": t._("Night"),
        "till": t._("Counting the Till"),
        "deeds": t._("Dirty Deeds"),
        "competitive": t._("Competitive"),
        "cooperative": t._("Co-operative"),
        "solo": t._("Solo"),
        **{name: t._(label) for name, label in CHALLENGE_NAMES.items()},
    }


def content(t: Texts) -> Content:
    copies: dict[str, list[str]] = {}
    for instance, defn in instances().items():
        copies.setdefault(defn.id, []).append(instance)
    items = tuple(_item(t, d, tuple(copies[d.id])) for d in definitions().values())
    return Content(
        game="tavern-masters",
        language=t.language,
        name=t._("Tavern Masters"),
        rules=rules(t),
        terms=terms(t),
        items=items,
        scoring={category: t._(name) for category, name in SCORING.items()},
    )
