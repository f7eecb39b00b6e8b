"""Hero's Tavern's content: every card of seeds/heros-tavern/ with what it scores, the score tables
computed by the scoring functions the rules call (domain/heros_tavern/scoring.py)."""

from __future__ import annotations

from collections import Counter

from domain.heros_tavern import scoring
from domain.heros_tavern.content import DECK, Card, Tokens
from domain.heros_tavern.state import HAND_SIZE, ROUNDS
from projections.content.model import Content, Item, listing
from projections.i18n import N_, Texts

# the breakdown's categories (domain/heros_tavern/breakdown.py): the Score steps, then the Final Scoring's tokens
SCORING = {"entertainment": N_("Entertainment"), "food": N_("Food"), "ale": N_("Ale"), "lodging": N_("Lodging"),
           "market": N_("Market"), "staff": N_("Staff"), "unspent": N_("Unspent tokens")}

TOKENS = ("coin", "storage", "land")
KIND_NAMES = {
    "entertainment": N_("Entertainment"), "food": N_("Food"), "light_ale": N_("Light Ale"),
    "dark_ale": N_("Dark Ale"), "lodging": N_("Lodging"), "market": N_("Market"), "games": N_("Games"),
    "barrel": N_("Barrel"), "tools": N_("Tools"), "jester": N_("Jester"), "cook": N_("Cook"),
    "bartender": N_("Bartender"), "maid": N_("Maid"), "shopkeeper": N_("Shopkeeper"),
}  # fmt: skip
UP_TO = 6  # the score tables list counts 0 to 5 and "5 or more"


def token_amount(t: Texts, token: str, count: int) -> str:
    if token == "coin":
        return t.n_("{count} coin", "{count} coins", count)
    if token == "storage":
        return t.n_("{count} storage cube", "{count} storage cubes", count)
    return t.n_("{count} land token", "{count} land tokens", count)


def token_names(t: Texts) -> dict[str, str]:
    return {"coin": t._("coin"), "storage": t._("storage cube"), "land": t._("land token")}


def tokens_text(t: Texts, tokens: Tokens) -> str:
    parts = [token_amount(t, name, getattr(tokens, name)) for name in TOKENS if getattr(tokens, name)]
    return listing(t, parts) or t._("nothing")


def kind_name(t: Texts, kind: str) -> str:
    return t._(KIND_NAMES[kind])


def table(score: object) -> str:
    """``0, 1, 3, 5, 7, 10`` for 0 to 5 or more: a scoring function of one count, tabulated."""
    return ", ".join(str(score(n)) for n in range(UP_TO))  # type: ignore[operator]


def _resource(t: Texts, kind: str) -> str:
    token = {"games": "coin", "barrel": "storage", "tools": "land"}[kind]
    per = ", ".join(str(getattr(scoring.resources(Counter({kind: n})), token)) for n in range(UP_TO))
    plural = {"coin": t._("coins"), "storage": t._("storage cubes"), "land": t._("land tokens")}[token]
    return t._(
        "Awards {tokens} after each round's scoring: {per} for 0, 1, 2, 3, 4, 5 or more {kind} cards in your tavern.",
        tokens=plural,
        per=per,
        kind=kind_name(t, kind),
    )


def effect_text(t: Texts, kind: str) -> str:
    """What a card of this kind does, with the numbers the scoring functions give."""
    s = scoring
    if kind == "entertainment":
        first, second, _ = s.entertainment([2, 1, 0])
        return t._(
            "Most Entertainment cards: {first} heroes, split on a tie (and then no second place); second "
            "most: {second} heroes, split. A tavern with none takes no place.",
            first=first,
            second=second,
        )
    if kind == "food":
        return t._("Every 3 Food cards score {n} heroes.", n=s.food(3))
    if kind in ("light_ale", "dark_ale"):
        return t._(
            "Each Light Ale paired with a Dark Ale scores {mixed} heroes; each pair of the same ale scores {same}.",
            mixed=s.ale(1, 1),
            same=s.ale(2, 0),
        )
    if kind == "lodging":
        return t._("Each Lodging scores {n} heroes.", n=s.lodging(1))
    if kind == "market":
        return t._("Markets score {table} heroes for 0, 1, 2, 3, 4, 5 or more Market cards.", table=table(s.market))
    if kind in ("games", "barrel", "tools"):
        return _resource(t, kind)
    if kind == "jester":
        return t._(
            "Scores {none} hero with no Entertainment, {few} with 1-2, {some} with 3-5, {many} with 6 or more "
            "Entertainment cards.",
            none=s.jester(0),
            few=s.jester(1),
            some=s.jester(3),
            many=s.jester(6),
        )
    if kind == "cook":
        return t._("Scores {n} heroes for every 3 Food cards ({none} with fewer than 3).", n=s.cook(3), none=s.cook(0))
    if kind == "bartender":
        return t._(
            "Scores {mixed} heroes per mixed ale pair and {same} per pair of the same ale ({none} with no pair).",
            mixed=s.bartender(1, 1),
            same=s.bartender(2, 0),
            none=s.bartender(0, 0),
        )
    if kind == "maid":
        return t._(
            "Scores {a}, {b}, {c} or {d} heroes for 0, 1, 2, 3 or more Lodgings.",
            a=s.maid(0),
            b=s.maid(1),
            c=s.maid(2),
            d=s.maid(3),
        )
    if kind == "shopkeeper":
        return t._(
            "Scores {more} hero more than your number of Market cards (at most {cap} with the shopkeeper_cap option).",
            more=s.shopkeeper(1) - 1,
            cap=s.shopkeeper(99, capped=True),
        )
    raise ValueError(f"no text for kind {kind!r}")


def _item(t: Texts, card: Card) -> Item:
    cost = {name: getattr(card.cost, name) for name in TOKENS if getattr(card.cost, name)}
    text = t._(
        "{effect} Buying it for good costs {cost}.", effect=effect_text(t, card.kind), cost=tokens_text(t, card.cost)
    )
    return Item(
        id=card.id,
        name=kind_name(t, card.kind),
        category="card",
        kind=card.kind,
        ids=(card.id,),
        text=text,
        cost=cost,
        numbers={"copy": int(card.id.rsplit("-", 1)[-1])},
    )


def rules(t: Texts) -> tuple[str, ...]:
    return (
        t._(
            "Three to five innkeepers each build a tavern over {rounds} rounds to attract the most heroes.",
            rounds=ROUNDS,
        ),
        t._(
            "Each round every player is dealt {hand} cards and drafts: pick one face down, pass the rest on, until "
            "the hands are empty. Picked cards are revealed together.",
            hand=HAND_SIZE,
        ),
        t._(
            "Taverns score after each round's draft; Games, Barrels and Tools then award coins, storage cubes and "
            "land tokens. Keeping a drafted card costs the tokens printed on it: buy what you want, the rest is "
            "discarded."
        ),
        t._(
            "After the last round the purchased cards score once more; most heroes wins, a tie goes to more unspent "
            "tokens."
        ),
    )


def content(t: Texts) -> Content:
    terms = {**token_names(t), "heroes": t._("heroes")} | {k: kind_name(t, k) for k in {c.kind for c in DECK.values()}}
    items = tuple(_item(t, card) for card in DECK.values())
    return Content(
        game="heros-tavern", language=t.language, name=t._("Hero's Tavern"), rules=rules(t), terms=terms, items=items,
        scoring={category: t._(name) for category, name in SCORING.items()},
    )
