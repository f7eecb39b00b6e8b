"""The effect vocabulary: what the ``effects`` and ``deed`` entries of the card data mean.

Static and income effects (on Goods, Staff and Patrons in a Tavern; the income ones counted in till.py):
  ``income`` n          +n Gold when the Till is counted
  ``income_per`` n, T   +n Gold for ANY (each) other card in the Tavern matching T
  ``income_if`` n, T    +n Gold if ANY ONE other card in the Tavern matches T
  ``allow_nobles``      Noble Patrons may be played to this Tavern

Dirty deeds (Dirty Deeds cards and Patron abilities), by what they target:
  none:   ``gain_gold`` n, ``draw_tavern`` n
  seat:   ``steal_gold`` n, ``steal_hand`` (one random card), ``discard_hand`` (one random card),
          ``discard_patrons`` T (ANY, i.e. all, T Patrons in their Tavern)
  patron: ``discard_patron``, ``steal_patron`` (any one Patron in their Tavern)
  card:   ``steal_card``, ``discard_card``, ``remove_card`` (removed from the game): any one Goods or
          Staff in their Tavern
  switch: ``switch`` one Goods or Staff of your Tavern with one in theirs
  ``cancel``: played by the target of a deed to stop it
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.kernel import Rng
from domain.tavern_masters import events as ev
from domain.tavern_masters.builder import Builder
from domain.tavern_masters.content import Effect, card
from domain.tavern_masters.state import State
from domain.tavern_masters.terms import any_matches, patron_type, phrase, tavern_labels

# --- the Tavern: income, Nobles, hiring, Wants and Likes ---------------------------------------


def is_tavern_card(card_id: str) -> bool:
    """Goods and Staff: the only cards that may be traded (with Gold)."""
    return card(card_id).kind in ("goods", "staff")


def allows_nobles(tavern: tuple[str, ...]) -> bool:
    return any(e.op == "allow_nobles" for c in tavern for e in card(c).effects)


def hires_free(card_id: str, tavern: tuple[str, ...]) -> bool:
    """A Tavern card's "free with" condition: its named card or type is in the Tavern (a Staff's,
    e.g. any Cheese; Goods too: Smuggled Rum comes free with any Sailor, RULINGS.md 13)."""
    defn = card(card_id)
    return is_tavern_card(card_id) and bool(defn.free_with) and any_matches(tavern, defn.free_with)


def wants_met(card_id: str, tavern: tuple[str, ...]) -> bool:
    """A Patron may be played when the Tavern has what it Wants; a Noble also needs an enabling card."""
    defn = card(card_id)
    return phrase(defn.wants) in tavern_labels(tavern) and (not defn.noble or allows_nobles(tavern))


def stays(patron_id: str, seen: tuple[str, ...]) -> bool:
    """A Patron stays after the Till when something it Likes was in the Tavern this round."""
    others = tavern_labels(tuple(c for c in seen if c != patron_id))
    return any(phrase(like) in others for like in card(patron_id).likes)


# --- dirty deeds --------------------------------------------------------------------------------

TARGETS = {
    "gain_gold": "none", "draw_tavern": "none",
    "steal_gold": "seat", "steal_hand": "seat", "discard_hand": "seat", "discard_patrons": "seat",
    "discard_patron": "patron", "steal_patron": "patron",
    "steal_card": "card", "discard_card": "card", "remove_card": "card",
    "switch": "switch",
    "cancel": "answer",
}


def is_cancel(card_id: str) -> bool:
    deed = card(card_id).deed
    return card(card_id).kind == "deed" and deed is not None and deed.op == "cancel"


def targets(state: State, seat: int, effect: Effect) -> Iterator[tuple[int, str, str]]:
    """Every (target seat, target card, own card) a deed may be aimed at; (-1, "", "") if untargeted."""
    kind = TARGETS[effect.op]
    if kind == "none":
        yield -1, "", ""
        return
    own = [c for c in state.players[seat].tavern if is_tavern_card(c)]
    for other in range(state.seats):
        if other == seat:
            continue
        tavern = state.players[other].tavern
        if kind == "seat":
            yield other, "", ""
        elif kind == "patron":
            yield from ((other, c, "") for c in tavern if card(c).kind == "patron")
        elif kind == "card":
            yield from ((other, c, "") for c in tavern if is_tavern_card(c))
        elif kind == "switch":
            yield from ((other, c, mine) for c in tavern if is_tavern_card(c) for mine in own)


def resolve(b: Builder, seat: int, effect: Effect, target: int, target_card: str, own_card: str, rng: Rng) -> None:
    """Carry out a deed that nobody cancelled."""
    op, state = effect.op, b.state
    if op == "gain_gold":
        b.emit(ev.GoldChanged(seat=seat, amount=effect.amount))
    elif op == "draw_tavern":
        b.draw(seat, "tavern", effect.amount, "hand", rng)
    elif op == "steal_gold":
        amount = min(effect.amount, state.players[target].gold)
        if amount:
            b.emit(ev.GoldChanged(seat=target, amount=-amount), ev.GoldChanged(seat=seat, amount=amount))
    elif op in ("steal_hand", "discard_hand"):
        hand = state.players[target].hand
        if hand:
            taken = rng.choice(sorted(hand))
            dest = ("hand", seat) if op == "steal_hand" else ("discard", target)
            b.emit(ev.CardMoved(card=taken, owner=target, src="hand", dest_owner=dest[1], dest=dest[0]))
    elif op == "discard_patrons":
        for c in state.players[target].tavern:
            if card(c).kind == "patron" and patron_type(c) == phrase(effect.term):
                b.emit(ev.CardMoved(card=c, owner=target, src="tavern", dest_owner=target, dest="discard"))
    elif op == "switch":
        b.emit(
            ev.CardMoved(card=target_card, owner=target, src="tavern", dest_owner=seat, dest="tavern"),
            ev.CardMoved(card=own_card, owner=seat, src="tavern", dest_owner=target, dest="tavern"),
        )
    else:
        dest = {"steal_patron": ("tavern", seat), "steal_card": ("tavern", seat),
                "discard_patron": ("discard", target), "discard_card": ("discard", target),
                "remove_card": ("removed", target)}[op]
        b.emit(ev.CardMoved(card=target_card, owner=target, src="tavern", dest_owner=dest[1], dest=dest[0]))
