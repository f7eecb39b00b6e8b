"""Hero's Tavern's content: every card of seeds/heros-tavern/ with what it scores, the score tables
computed by the scoring functions the rules call (domain/heros_tavern/scoring.py)."""

from __future__ import annotations

from collections import Counter

from domain.heros_tavern import scoring
from domain.heros_tavern.content import DECK, Card, Tokens
from domain.heros_tavern.state import HAND_SIZE, ROUNDS
from projections.content.model import Content, Item, amount, title

TOKENS = {"coin": "coin", "storage": "storage cube", "land": "land token"}
UP_TO = 6  # the score tables list counts 0 to 5 and "5 or more"


def tokens_text(tokens: Tokens) -> str:
    parts = [amount(getattr(tokens, name), noun) for name, noun in TOKENS.items() if getattr(tokens, name)]
    return " and ".join(parts) or "nothing"


def table(score: object) -> str:
    """``0, 1, 3, 5, 7, 10`` for 0 to 5 or more: a scoring function of one count, tabulated."""
    return ", ".join(str(score(n)) for n in range(UP_TO))  # type: ignore[operator]


def _resource(kind: str) -> str:
    token = {"games": "coin", "barrel": "storage", "tools": "land"}[kind]
    per = [getattr(scoring.resources(Counter({kind: n})), token) for n in range(UP_TO)]
    return (f"Awards {TOKENS[token]}s after each round's scoring: {', '.join(map(str, per))} for 0, 1, 2, 3, 4, "
            f"5 or more {title(kind)} cards in your tavern.")


def effect_text(kind: str) -> str:
    """What a card of this kind does, with the numbers the scoring functions give."""
    s = scoring
    if kind == "entertainment":
        first, second, _ = s.entertainment([2, 1, 0])
        return (f"Most Entertainment cards: {first} heroes, split on a tie (and then no second place); "
                f"second most: {second} heroes, split. A tavern with none takes no place.")
    if kind == "food":
        return f"Every 3 Food cards score {s.food(3)} heroes."
    if kind in ("light_ale", "dark_ale"):
        return (f"Each Light Ale paired with a Dark Ale scores {s.ale(1, 1)} heroes; "
                f"each pair of the same ale scores {s.ale(2, 0)}.")
    if kind == "lodging":
        return f"Each Lodging scores {s.lodging(1)} heroes."
    if kind == "market":
        return f"Markets score {table(s.market)} heroes for 0, 1, 2, 3, 4, 5 or more Market cards."
    if kind in ("games", "barrel", "tools"):
        return _resource(kind)
    if kind == "jester":
        return (f"Scores {s.jester(0)} hero with no Entertainment, {s.jester(1)} with 1-2, {s.jester(3)} with 3-5, "
                f"{s.jester(6)} with 6 or more Entertainment cards.")
    if kind == "cook":
        return f"Scores {s.cook(3)} heroes for every 3 Food cards ({s.cook(0)} with fewer than 3)."
    if kind == "bartender":
        return (f"Scores {s.bartender(1, 1)} heroes per mixed ale pair and {s.bartender(2, 0)} per pair of the same "
                f"ale ({s.bartender(0, 0)} with no pair).")
    if kind == "maid":
        return f"Scores {s.maid(0)}, {s.maid(1)}, {s.maid(2)} or {s.maid(3)} heroes for 0, 1, 2, 3 or more Lodgings."
    if kind == "shopkeeper":
        more = s.shopkeeper(1) - 1
        return (f"Scores {more} hero more than your number of Market cards "
                f"(at most {s.shopkeeper(99, capped=True)} with the shopkeeper_cap option).")
    raise ValueError(f"no text for kind {kind!r}")


def _item(card: Card) -> Item:
    cost = {name: getattr(card.cost, name) for name in TOKENS if getattr(card.cost, name)}
    text = f"{effect_text(card.kind)} Buying it for good costs {tokens_text(card.cost)}."
    return Item(id=card.id, name=title(card.kind), category="card", kind=card.kind, ids=(card.id,), text=text,
                cost=cost, numbers={"copy": int(card.id.rsplit("-", 1)[-1])})


RULES = (
    f"Three to five innkeepers each build a tavern over {ROUNDS} rounds to attract the most heroes.",
    f"Each round every player is dealt {HAND_SIZE} cards and drafts: pick one face down, pass the rest on, "
    "until the hands are empty. Picked cards are revealed together.",
    "Taverns score after each round's draft; Games, Barrels and Tools then award coins, storage cubes and land "
    "tokens. Keeping a drafted card costs the tokens printed on it: buy what you want, the rest is discarded.",
    "After the last round the purchased cards score once more; most heroes wins, a tie goes to more unspent tokens.",
)


def content() -> Content:
    terms = {**TOKENS, "heroes": "heroes"} | {k: title(k) for k in {c.kind for c in DECK.values()}}
    items = tuple(_item(card) for card in DECK.values())
    return Content(game="heros-tavern", name="Hero's Tavern", rules=RULES, terms=terms, items=items)
