"""The planner bot of Tavern Masters: it plans the Day's purchases over the Tills it expects to be left.

The greedy bot (bot.py) values each card alone, as if four more rounds were always to come. Matches
between good players last four or five rounds, and an income card is worth more the more Patrons
it serves: a Tip Jar pays nothing in a Tavern no Patron can enter, and much beside a Drink and a
Wench. So this bot values *sets* of cards over the Tills it expects, with a small model of a Tavern:

- ``incomes``: the Gold each coming Till should bring. A Tavern earns its income now (``till_income``);
  each Night it seats its share of the Patron deck's 3-card deal (plus the Patrons waiting in hand
  that it lets in), each worth the average extra income one more seated Patron brings there (their
  own Gold, and every card that pays per Patron); after each Till those who Like nothing leave, the
  others stay and keep earning. The model's figures depend on the Tavern's kinds of card only, and
  are cached.
- ``tills_left``: the Till at which the first seat should reach 20 Gold, by the same model on every
  seat's public Gold and Tavern (capped by the round cap); in co-operative and solo play the
  Challenge's rounds left. Near the end a card must pay for itself in the Tills that are left.
- ``best_set``: the subset of the hand's Goods and Staff, within the purse, whose Tavern brings the
  most Gold over those Tills less what it costs (free hires counted). The Day plays that set (the
  cards that are free once the others are in, last); a draft pick or a discard is judged by how it
  changes the best set of the hand (with no purse: those cards are played over several Days).
- Trades: an offer is accepted when it brings this seat more by the model than it brings the seat
  that offered it (in co-operative play, when the table gains, or as greedy accepts a gift). The bot
  opens offers as greedy does (gifts in co-operative play only).

Everything else (Patrons, the mulligan, Dirty Deeds) it plays as greedy does. It reads only its
view and its legal commands; its choice among equals is drawn from the rng over the commands in
a fixed order (not the legal list's, which follows the order of cards in another seat's hand),
so that the same view and seed give the same command (the service's audit relies on that). A move
costs well under the 50 ms of a worker (tests/bench/bench_search_bot.py --bot planner).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

import msgspec

from domain.kernel import Command, Rng
from domain.tavern_masters import bot as greedy
from domain.tavern_masters import commands as cmd
from domain.tavern_masters.bot import PATRONS_A_NIGHT, patron_kinds
from domain.tavern_masters.content import card
from domain.tavern_masters.effects import hires_free, is_tavern_card, stays, wants_met
from domain.tavern_masters.events import Offer
from domain.tavern_masters.scoring import GOAL
from domain.tavern_masters.till import till_income

HORIZON = 6  # Tills looked ahead at most (a match between good players lasts 4 or 5 rounds)
NO_PURSE = float("inf")  # a draft pick or a discard: the hand is played over several Days
WIDEST = 6  # Goods and Staff of a hand combined at most (64 sets): the time a move takes stays bounded


@lru_cache(maxsize=65536)  # a worker's memory stays bounded
def _model(tavern: tuple[str, ...], dirty_deeds: bool, card_list: int) -> tuple[int, float, float, float, int]:
    """(income now, share of the Patron deck it seats, Gold one more seated Patron adds on average,
    share of the seated who stay, income once the Patrons in it who Like nothing have left)."""
    now = till_income(tavern)
    total = seated = adds = stay = 0.0
    for patron, copies in patron_kinds(dirty_deeds, card_list):
        total += copies
        if patron not in tavern and wants_met(patron, tavern):
            seated += copies
            adds += copies * (till_income((*tavern, patron)) - now)
            stay += copies * stays(patron, (*tavern, patron))
    kept = till_income(tuple(c for c in tavern if card(c).kind != "patron" or stays(c, tavern)))
    if not seated:
        return now, 0.0, 0.0, 0.0, kept
    return now, seated / total, adds / seated, stay / seated, kept


def _kinds_key(tavern: Sequence[str]) -> tuple[str, ...]:
    """The Tavern named by kinds (copies of a kind numbered from 1): a card's income depends on the
    kinds of the others only, so Taverns alike share one model."""
    count: dict[str, int] = {}
    out = []
    for c in sorted(tavern):
        kind = card(c).id
        count[kind] = count.get(kind, 0) + 1
        out.append(f"{kind}-{count[kind]}")
    return tuple(out)


def incomes(tavern: Sequence[str], waiting: int, tills: int, decks: Any, dealt: bool = False) -> list[float]:
    """The Gold each of the next ``tills`` Tills should bring this Tavern, a Night coming before each:
    what it earns now, and the Patrons it seats (``waiting`` from the hand, then its share of each
    deal), some of whom stay. ``decks``: a view, or ``Decks`` (the decks the match plays). ``dealt``:
    the first Till's Night has dealt its Patrons already (they are among those waiting)."""
    now, share, adds, stay, kept = _model(_kinds_key(tavern), decks.dirty_deeds, decks.card_list)
    fresh = PATRONS_A_NIGHT * share
    extra = waiting + (0.0 if dealt else fresh)
    out = []
    for till in range(tills):
        out.append((now if till == 0 else kept) + extra * adds)
        extra = extra * stay + fresh
    return out


def tills_left(view: Any) -> int:
    """The Tills still to be counted, this round's included if it is still to come."""
    coming = view.phase in ("draft", "mulligan", "day", "night")
    if view.mode != "competitive":
        return max(0, view.rounds - view.round) + coming
    cap = HORIZON if not view.rounds else max(1, min(HORIZON, view.rounds - view.round + coming))
    first = cap
    for seat in view.players:
        gold = float(seat.gold)
        for till, gain in enumerate(incomes(seat.tavern, 0, cap, view), 1):
            gold += gain
            if gold >= GOAL:
                first = min(first, till)
                break
    return first


def waiting_patrons(hand: Sequence[str], tavern: Sequence[str]) -> int:
    return sum(1 for c in hand if card(c).kind == "patron" and wants_met(c, tuple(tavern)))


def _price(chosen: Sequence[str], tavern: Sequence[str]) -> int:
    """What a set of cards costs to play into the Tavern: a Staff whose hire condition the rest meet
    comes free."""
    more = (*tavern, *chosen)
    return sum(0 if hires_free(c, tuple(x for x in more if x != c)) else card(c).cost for c in chosen)


class Decks(NamedTuple):
    """What ``incomes`` reads of a view: which decks the match plays."""

    dirty_deeds: bool
    card_list: int


def best_set(view: Any, hand: Sequence[str], tills: int, purse: float) -> tuple[float, tuple[str, ...]]:
    """The Goods and Staff of ``hand`` to play within ``purse``: the set whose Tavern should bring the
    most Gold over ``tills`` less what it costs; and that Gold (0 and () when no set pays)."""
    tavern = tuple(sorted(view.players[view.seat].tavern))
    decks = Decks(view.dirty_deeds, view.card_list)
    return _best_set(tavern, tuple(sorted(hand)), tills, float(purse), decks)


@lru_cache(maxsize=4096)
def _best_set(tavern: tuple[str, ...], hand: tuple[str, ...], tills: int, purse: float,
              decks: Decks) -> tuple[float, tuple[str, ...]]:
    """best_set, remembered: each command of a Day or a discard asks it of the same hand. Of a long
    hand only the ``WIDEST`` cards best alone are combined, so that a move stays within its time."""
    base = sum(incomes(tavern, waiting_patrons(hand, tavern), tills, decks))

    def gain(chosen: tuple[str, ...]) -> float:
        more = (*tavern, *chosen)
        return sum(incomes(more, waiting_patrons(hand, more), tills, decks)) - base - _price(chosen, tavern)

    cards = sorted((c for c in hand if is_tavern_card(c)), key=lambda c: (-gain((c,)), c))[:WIDEST]
    best = 0.0
    plan: tuple[str, ...] = ()
    for size in range(1, len(cards) + 1):
        for chosen in combinations(sorted(cards), size):
            if _price(chosen, tavern) <= purse and (value := gain(chosen)) > best + 1e-9:
                best, plan = value, chosen
    return best, plan


def hand_value(view: Any, hand: Sequence[str], tills: int) -> float:
    return best_set(view, hand, tills, NO_PURSE)[0]


def side_gain(view: Any, seat: int, gets: Sequence[str], loses: Sequence[str], tills: int) -> float:
    """What a trade's cards are worth to a seat by the model: the Tavern cards it gets or gives up
    change its Tavern's Gold; a hand card is worth what it would bring played there, less its price."""
    tavern = [c for c in view.players[seat].tavern if c not in loses]
    moved = [c for c in gets if c in _all_taverns(view)]
    after = (*tavern, *moved)
    before = view.players[seat].tavern
    change = sum(incomes(after, 0, tills, view)) - sum(incomes(before, 0, tills, view))
    for c in gets:
        if c and c not in moved:
            change += max(0.0, sum(incomes((*after, c), 0, tills, view)) - sum(incomes(after, 0, tills, view))
                          - card(c).cost)
    for c in loses:
        if c and c not in before:
            change -= max(0.0, sum(incomes((*before, c), 0, tills, view)) - sum(incomes(before, 0, tills, view))
                          - card(c).cost)
    return change


def _all_taverns(view: Any) -> set[str]:
    return {c for seat in view.players for c in seat.tavern}


def answer_worth(command: cmd.AnswerOffer, view: Any, tills: int) -> float:
    """Accept what brings this seat more than the seat offering it (co-operative: what the table
    gains by, or a gift greedy takes); decline at 0."""
    if not command.accept:
        return 0.0
    offer: Offer = next(o for o in view.offers if o.id == command.offer)
    given = (*offer.give_hand, *offer.give_tavern)
    taken = (*offer.take_hand, *offer.take_tavern)
    mine = side_gain(view, view.seat, given, taken, tills) + offer.gold
    theirs = side_gain(view, offer.by, taken, given, tills) - offer.gold
    if view.mode == "cooperative":
        return max(greedy.answer_worth(command, view), mine + theirs)
    return min(mine, mine - theirs)


def score(command: Command, view: Any, tills: int) -> float:
    match command:
        case cmd.PickCard() if is_tavern_card(command.card):
            return hand_value(view, (*view.hand, command.card), tills) - hand_value(view, view.hand, tills)
        case cmd.PlayCard():
            me = view.players[view.seat]
            plan = best_set(view, view.hand, tills, me.gold)[1]
            if command.card not in plan:
                return -1.0
            later = not command.free and _price((command.card,), [*me.tavern, *plan]) == 0
            return 5.0 if later else 10.0 + command.free  # a card the rest of the set hires free, last
        case cmd.DiscardCard() if is_tavern_card(command.card):
            rest = list(view.hand)
            rest.remove(command.card)
            return hand_value(view, rest, tills) - hand_value(view, view.hand, tills)
        case cmd.AnswerOffer():
            return answer_worth(command, view, tills)
    return greedy.score(command, view)


class PlannerBot:
    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        tills = tills_left(view)
        scores = [score(c, view, tills) for c in legal]
        best = max(scores)
        top = sorted((c for c, s in zip(legal, scores, strict=True) if s == best), key=msgspec.json.encode)
        return top[rng.below(len(top))]
