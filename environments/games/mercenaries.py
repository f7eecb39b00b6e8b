"""Tavernkeepers and Mercenaries: cards by suit and rank (52; each seat's deck holds one of each, so
a card is "mine" or "theirs" by the zone it is in), actions as slots of ``legal`` (128).

Why slots: an attack names any group of the mercenaries in play (``DeclareAttack``), and a Leader's
contract the cards it sacrifices, so the commands that can ever be legal are the subsets of a field;
the longest ``legal`` measured is a small fraction of the bound. Each slot's command type and card
are in the observation.

Features: the match (best of, game number, games won by each side), the treasury, the phase, whose
turn it is, whose move the match waits for; the seat's hand; per side, the observer's first: HP,
Gold, hand and deck sizes, the field by position (attack, defence), which of it may attack or is
summoning sick, the Trash, All In used; this turn's contract, sale, All In and moved cards; the
cards a discard choice is between; the match's winner."""

from __future__ import annotations

import typing

from domain.kernel import Command
from domain.mercenaries.commands import ATTACK, DEFENCE, MercenariesCommand
from domain.mercenaries.content import DECK, SETTINGS
from domain.mercenaries.views import MercenariesView
from environments.actions import LegalSlots
from environments.encoding import Features, relative_seats, vocabulary
from environments.games import Encoding

SEATS = 2
SLOTS = 128
CARDS = vocabulary(f"{suit}-{rank.lower()}" for suit in DECK.suits for rank in DECK.ranks)
PHASES = ("setup", "morning", "afternoon", "night", "over")
HP = 2 * SETTINGS["starting_hp"]
GOLD = 2 * SETTINGS["treasury"]
TURNS = 1000


def kind(card: str) -> str:
    """``mc-<seat>-<suit>-<rank>`` without its seat."""
    return card.split("-", 2)[2]


def card_slot(command: Command) -> int:
    named = getattr(command, "card", "")
    return 1 + CARDS[kind(named)] if named else 0


def encode(features: Features, view: MercenariesView, seat: int, seats: int) -> None:
    order = relative_seats(seat, seats)
    where = {s: k for k, s in enumerate(order)}
    features.one_hot("best_of", view.best_of, (1, 3))
    features.number("game", view.game, 3)
    features.numbers("wins", (view.wins[s] for s in order), SEATS, 2)
    features.number("treasury", view.treasury, GOLD)
    features.one_hot("phase", view.phase, PHASES)
    features.number("my_turn", view.active == seat, 1)
    features.number("turn", view.turn, TURNS)
    features.number("waiting_for_me", view.waiting_for == seat, 1)
    features.counts("hand", (kind(c.card) for c in view.hand), CARDS)
    for k, s in enumerate(order):
        side = view.sides[s]
        features.number(f"side{k}_hp", side.hp, HP, low=-HP)
        features.number(f"side{k}_gold", side.gold, GOLD)
        features.number(f"side{k}_hand_count", side.hand_count, len(CARDS))
        features.number(f"side{k}_deck_count", side.deck_count, len(CARDS))
        for position in (ATTACK, DEFENCE):
            features.counts(
                f"side{k}_{position}", (kind(m.card.card) for m in side.field if m.position == position), CARDS
            )
        features.counts(f"side{k}_may_attack", (kind(m.card.card) for m in side.field if m.may_attack), CARDS)
        features.counts(f"side{k}_summoning_sick", (kind(m.card.card) for m in side.field if m.summoning_sick), CARDS)
        features.counts(f"side{k}_trash", (kind(c) for c in side.trash), CARDS)
        features.number(f"side{k}_all_in_used", side.all_in_used, 1)
    features.number("contracted", view.contracted, 1)
    features.number("sold", view.sold, 1)
    features.number("all_in_turn", view.all_in_turn, 1)
    features.counts("moved", (kind(c) for c in view.moved), CARDS)
    features.counts("discard_candidates", (kind(c) for c in view.discard_candidates), CARDS)
    features.number("match_winner", where[view.match_winner] + 1 if view.match_winner >= 0 else 0, SEATS)


ENCODING = Encoding(
    actions=LegalSlots(SLOTS, typing.get_args(MercenariesCommand), card_slot, len(CARDS)),
    encode=encode,
)
