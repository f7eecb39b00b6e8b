"""Tavern Masters (and its options: Dirty Deeds, co-operative and solo play, the card lists): cards
by their definition (84 kinds; a kind's copies play alike), actions as slots of ``legal`` (2048).

Why slots: trading writes offers card by card to any seat with any Gold (``AddToOffer``,
``SetOfferGold``), and a deed names a target seat, a card of theirs and one of one's own, so the
commands that can ever be legal are far too many to list. The longest ``legal`` measured in random
play is 111 (6 seats) and 301 with Dirty Deeds (6 seats), where a "switch with" deed lists every
(target seat, their card, your card): the bound leaves room for several such deeds in one hand.
Each slot's command type and card kind are in the observation.

Features: the mode, options and phase; the round, the rounds to play and the Gold to reach; the
server and the Dirty Deeds turn relative to the observer; per seat round the table from the
observer (padded to 6): whether the match waits for it, its Gold, Tavern, hand size, last income;
the seat's hand, draft packet, cards of others' hands shown to it in trades; the decks' and
discard piles' sizes and the piles' top cards; removed cards; the trade offers to and from the
seat (cards each side gives, Gold); the deed waiting for an answer; Patron abilities used."""

from __future__ import annotations

import typing
from collections.abc import Iterable

from domain.kernel import Command
from domain.tavern_masters.commands import TMCommand
from domain.tavern_masters.content import CARD_LISTS, DECK_FILES, card, definitions
from domain.tavern_masters.scoring import GOAL
from domain.tavern_masters.views import TMView
from environments.actions import LegalSlots
from environments.encoding import Features, relative_seats, vocabulary
from environments.games import Encoding

MAX_SEATS = 6
SLOTS = 2048
KINDS = vocabulary(definitions())
MODES = ("competitive", "cooperative", "solo")
PHASES = ("draft", "mulligan", "day", "night", "deeds", "till", "over")
GOLD = 200  # far above any seat's Gold (clipped there)
COPIES = 16  # the most copies of one kind a zone can hold counts as this many
ROUNDS = 60


def kinds(cards: Iterable[str]) -> list[str]:
    """Card instances by their kind; a card hidden from the seat ("") counts as none."""
    return [card(c).id for c in cards if c]


def card_slot(command: Command) -> int:
    named = getattr(command, "card", "") or getattr(command, "cancel", "")
    return 1 + KINDS[card(named).id] if named else 0


def encode(features: Features, view: TMView, seat: int, seats: int) -> None:
    order = relative_seats(seat, seats)
    where = {s: k for k, s in enumerate(order)}
    features.one_hot("mode", view.mode, MODES)
    features.number("dirty_deeds", view.dirty_deeds, 1)
    features.one_hot("card_list", view.card_list, CARD_LISTS)
    features.one_hot("phase", view.phase, PHASES)
    features.number("round", view.round, ROUNDS)
    features.number("rounds", view.rounds, ROUNDS)
    features.number("target_gold", view.target_gold, GOAL)
    features.number("server", where[view.server], MAX_SEATS - 1)
    features.number("deeds_turn", where[view.turn] + 1 if view.turn >= 0 else 0, MAX_SEATS)  # 0: none
    for k in range(MAX_SEATS):
        player = view.players[order[k]] if k < seats else None
        features.number(f"seat{k}_present", player is not None, 1)
        features.number(f"seat{k}_to_act", k < seats and order[k] in view.to_act, 1)
        features.number(f"seat{k}_gold", player.gold if player else 0, GOLD, low=-GOLD)
        features.counts(f"seat{k}_tavern", kinds(player.tavern) if player else (), KINDS, COPIES)
        features.number(f"seat{k}_hand_count", player.hand_count if player else 0, 2 * COPIES)
        features.number(f"seat{k}_done", bool(player and player.done), 1)
        income = view.last_income[order[k]] if player and order[k] < len(view.last_income) else 0
        features.number(f"seat{k}_last_income", income, GOLD, low=-GOLD)
    features.counts("hand", kinds(view.hand), KINDS, COPIES)
    features.counts("packet", kinds(view.packet), KINDS, COPIES)
    features.counts("shown", kinds(c for c, _ in view.shown), KINDS, COPIES)
    features.numbers("deck_counts", (view.deck_counts.get(d, 0) for d in DECK_FILES), 3, 400)
    features.numbers("discard_counts", (view.discard_counts.get(d, 0) for d in DECK_FILES), 3, 400)
    features.counts("discard_tops", kinds(view.discard_tops.values()), KINDS, COPIES)
    features.counts("removed", kinds(view.removed), KINDS, COPIES)
    offers = (*view.drafts, *view.offers)
    for name, mine in (
        ("offers_to_me", [o for o in view.offers if o.to == seat]),
        ("offers_by_me", [o for o in offers if o.by == seat]),
    ):
        features.number(f"{name}", len(mine), MAX_SEATS)
        features.counts(f"{name}_give", kinds(c for o in mine for c in (*o.give_hand, *o.give_tavern)), KINDS, COPIES)
        features.counts(f"{name}_take", kinds(c for o in mine for c in (*o.take_hand, *o.take_tavern)), KINDS, COPIES)
        features.number(f"{name}_gold", sum(o.gold for o in mine), GOLD, low=-GOLD)
    pending = view.pending
    features.number("deed_pending", pending is not None, 1)
    features.number("deed_by", where[pending.seat] if pending else 0, MAX_SEATS - 1)
    features.number("deed_at_me", bool(pending and pending.target == seat), 1)
    features.counts("deed_card", kinds([pending.card]) if pending else (), KINDS)
    features.counts("deed_target_card", kinds([pending.target_card]) if pending else (), KINDS)
    features.counts("used", kinds(view.used), KINDS, COPIES)


ENCODING = Encoding(
    actions=LegalSlots(SLOTS, typing.get_args(TMCommand), card_slot, len(KINDS)),
    encode=encode,
)
