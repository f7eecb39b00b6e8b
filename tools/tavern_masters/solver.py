"""A perfect-play search over a known deal: can a co-operative or solo table reach the Challenge Chart's goal?

It plays the rules core itself (``legal`` and ``decide`` with the match's random streams, as a
Table would), knowing every deck's order, depth first. Commands are tried in the greedy bot's order
of preference, as a limited discrepancy search: the bot's own line, then lines that leave it once,
twice, up to four times, then the whole tree (wins turn up early; a loss is proved only by the whole
tree). Three cuts never lose a win:

- a transposition memo: a state (with its log position, which names the random stream of the
  next draw) that has been searched to no win is not searched again;
- per seat, an upper bound on its Gold at the end (``bound``): its Gold, plus every remaining Till
  counted on the cards that can reach its Tavern by then, every purchase at its best and within
  the purse where the purse is known; a seat whose bound is under the goal ends the branch;
- the Night is played by its dominant move: every Patron that can be played is played (without
  Dirty Deeds or trades nothing can be lost by seating one), and equal copies of a card are one
  choice.

Trades and Dirty Deeds are outside the search (``solve`` refuses Dirty Deeds): for a
co-operative table a "no" therefore means "not without trading". Seats act one after the other
(the lowest seat first); without trades or deeds the simultaneous phases do not depend on it.
A search that passes its node budget answers ``None`` (unknown).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.kernel import Rng, Setup
from domain.tavern_masters import GAME
from domain.tavern_masters.bot import score
from domain.tavern_masters.commands import (
    DiscardCard,
    Done,
    KeepHand,
    Mulligan,
    PickCard,
    PlayCard,
    PlayPatron,
    TMCommand,
)
from domain.tavern_masters.content import card, definitions
from domain.tavern_masters.phases import DEAL
from domain.tavern_masters.rules import to_act
from domain.tavern_masters.scoring import GOAL
from domain.tavern_masters.setup import DRAFT_PICKS
from domain.tavern_masters.state import State
from domain.tavern_masters.terms import labels, matches, phrase

SEARCHED = (PickCard, Mulligan, KeepHand, PlayCard, DiscardCard, Done)


# Limited discrepancy search: the greedy bot's line first, then lines that leave it once, twice, ...
# (wins are found early), then the whole tree (a loss is proved only there).
DISCREPANCIES = (0, 1, 2, 3, 4, 1 << 30)


class BudgetExceeded(Exception):
    """The search visited more states than it was allowed."""


Move = tuple[int, TMCommand]  # (seat, command)


class Verdict(msgspec.Struct, frozen=True):
    winnable: bool | None  # None: the node budget ran out first
    line: tuple[Move, ...]  # a winning game's commands, in order, when winnable (replay it on a Table)
    nodes: int  # states searched


@dataclass
class Search:
    seed: str
    budget: int
    nodes: int = 0
    failed: dict[bytes, int] = field(default_factory=dict)  # state -> the most discrepancies it had, no win
    line: list[Move] = field(default_factory=list)  # the commands from the opening to the state searched
    encode: Any = field(default_factory=lambda: msgspec.json.Encoder().encode)


def table_start(seed: str, seats: int, options: dict[str, Any]) -> tuple[State, int]:
    """The state after the opening (the shuffles and the first deal) and its log position, as a Table has them."""
    setup: Setup = GAME.setup(seats, options)
    state = GAME.initial(setup)
    events = GAME.begin(state, Rng(seed, 0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, len(events)


def solve(seed: str, seats: int, options: dict[str, Any], budget: int = 100_000) -> Verdict:
    """Whether perfect play wins the deal of ``seed`` (a Table's seed), with a winning line if so."""
    filled = GAME.setup(seats, options).options
    if filled["mode"] == "competitive" or filled["dirty_deeds"]:
        raise ValueError("the solver answers co-operative and solo tables without Dirty Deeds")
    state, version = table_start(seed, seats, options)
    search = Search(seed, budget)
    try:
        won = any(_wins(search, state, version, allowed) for allowed in DISCREPANCIES)
    except BudgetExceeded:
        return Verdict(None, (), search.nodes)
    return Verdict(won, tuple(search.line) if won else (), search.nodes)


def _won(state: State) -> bool:
    return len(state.winners or ()) == state.seats


def _wins(search: Search, state: State, version: int, allowed: int) -> bool:
    """Depth first, leaving the greedy bot's favourite command at most ``allowed`` times (each step
    down its list is one discrepancy); on a win ``search.line`` holds the winning commands."""
    if state.winners is not None:
        return _won(state)
    key = search.encode((version, canonical(state)))
    if search.failed.get(key, -1) >= allowed or not hopeful(state):
        return False
    search.nodes += 1
    if search.nodes > search.budget:
        raise BudgetExceeded
    seat = min(to_act(state))
    depth = len(search.line)
    if state.phase == "night":  # one move: every Patron that can be seated, then Done
        if _wins(search, *_night(search, state, version, seat), allowed):
            return True
    else:
        for rank, command in enumerate(choices(state, seat)):
            if rank > allowed:
                break
            if _wins(search, *_play(search, state, version, seat, command), allowed - rank):
                return True
            del search.line[depth:]
    del search.line[depth:]
    search.failed[key] = allowed
    return False


def canonical(state: State) -> State:
    """The state with each seat's zones sorted: the order cards were bought in changes nothing ahead."""
    players = tuple(replace(p, hand=tuple(sorted(p.hand)), tavern=tuple(sorted(p.tavern)), seen=tuple(sorted(p.seen)))
                    for p in state.players)
    return replace(state, players=players)


def _play(search: Search, state: State, version: int, seat: int, command: TMCommand) -> tuple[State, int]:
    events = GAME.decide(state, command, seat, Rng(search.seed, version))
    search.line.append((seat, command))
    for event in events:
        state = GAME.evolve(state, event)
    return state, version + len(events)


def _night(search: Search, state: State, version: int, seat: int) -> tuple[State, int]:
    """The Night's dominant move: seat Patrons while any can be seated (one may let in another), then Done."""
    while True:
        patrons = [c for c in GAME.legal(state, seat) if isinstance(c, PlayPatron)]
        if not patrons:
            return _play(search, state, version, seat, Done())
        state, version = _play(search, state, version, seat, patrons[0])


def choices(state: State, seat: int) -> Iterator[TMCommand]:
    """The seat's legal commands worth searching, one per kind of card, the greedy bot's favourite first
    (so that the first line searched is the greedy bot's game, and wins turn up early)."""
    view = GAME.view(state, seat)
    legal = sorted((c for c in GAME.legal(state, seat) if isinstance(c, SEARCHED)), key=lambda c: -score(c, view))
    seen: set[tuple[type, str, bool]] = set()
    for command in legal:
        name = getattr(command, "card", "")
        kind = (type(command), card(name).id if name else "", getattr(command, "free", False))
        if kind not in seen:
            seen.add(kind)
            yield command


def hopeful(state: State) -> bool:
    """Every seat's optimistic final Gold reaches the goal."""
    return all(bound(state, seat) >= GOAL for seat in range(state.seats))


OPENING_DRAWS = 14  # Tavern cards a seat may yet draw in the opening: the solo draw's 10, a mulligan's 4


def bound(state: State, seat: int) -> float:
    """An upper bound on the seat's Gold after the last Till; infinity when a deck may run short (and
    be reshuffled) before then.

    Each Till is counted on the seat's universe by then: its Tavern, its hand and the cards dealt to
    it by then (in the opening, every hand and packet and every card the opening may still draw),
    with the Patrons that can be in its Tavern at that Till (their Want met in the universe). Every
    card earns what it would earn there: a Patron from the first Till it can be seated at, and at
    later ones only if the universe holds something it Likes; a Goods or Staff card in the Tavern
    at every Till; one still to be bought from its first possible Day on, less its price (nothing,
    for a Staff whose hire condition the universe holds), and only if that is positive. What the
    hand buys today is limited by the Gold in the purse, and the opening keeps only a hand's worth."""
    player = state.players[seat]
    tavern_deck, patron_deck = state.decks["tavern"], state.decks["patron"]
    phase, round_, hand, keep = state.phase, state.round, player.hand, len(player.hand)
    if phase in ("draft", "mulligan"):  # as the first Day, holding a hand from whatever the opening may give
        opening = OPENING_DRAWS * state.seats
        hand = (*(c for p in state.players for c in (*p.hand, *p.packet)), *tavern_deck[:opening])
        if phase == "draft":
            keep = DRAFT_PICKS + 1 if state.seats == 1 else state.draft_keeps  # the solo draw ends with a draw of 1
        tavern_deck, phase, round_ = tavern_deck[opening:], "day", 1
    after_till = phase == "till"
    tills = state.rounds - round_ + (0 if after_till else 1)
    if tills <= 0:
        return player.gold
    first = round_ + after_till  # the round of the first Till still to count (Till 0)
    tavern_deals = _dealt(state, seat, round_, tavern_deck, [round_ + 1 + j for j in range(tills - 1 + after_till)])
    patron_deals = _dealt(state, seat, round_, patron_deck,
                          [round_ + (phase != "day") + j for j in range(tills - (phase == "night"))])
    if tavern_deals is None or patron_deals is None:
        return float("inf")
    hand_till = 1 if phase == "night" else 0  # Goods and Staff are played by Day only
    goods = [(c, 0) for c in player.tavern if card(c).kind != "patron"]
    buyable = [(c, hand_till) for c in hand if card(c).kind != "patron"]
    buyable += [(c, q - first) for q, c in tavern_deals]
    patrons = [(c, 0) for c in (*player.tavern, *hand) if card(c).kind == "patron"]
    patrons += [(c, q - first) for q, c in patron_deals]
    # the cards that may be in the Tavern at each Till, Patrons aside; then with every Patron arrived
    things = [(*player.seen, *(c for c, since in (*goods, *buyable) if since <= a)) for a in range(tills)]
    labels_by = [_labels((*things[a], *(c for c, since in patrons if since <= a))) for a in range(tills)]
    seated = {}  # a Patron: the first Till it can be in the Tavern at
    for c, since in patrons:
        at = next((a for a in range(since, tills) if _seatable(c, labels_by[a])), None)
        if at is not None:
            seated[c] = at
    counts = [_counts((*things[a], *(c for c, at in seated.items() if at <= a))) for a in range(tills)]
    liked = {c: next((a for a in range(tills) if _likes(c, labels_by[a])), tills) for c in seated}
    in_hand = set(hand)

    def present(x: str, since: int) -> int:
        """The most Tills from ``since`` on that card ``x`` can be in the Tavern at: a Patron that
        Likes nothing there leaves after one."""
        if x not in seated:
            return tills - max(since, arrives[x])
        start = max(since, seated[x])
        if start >= tills:
            return 0
        return tills - start if liked[x] <= start else max(1, tills - liked[x])

    arrives = {c: since for c, since in (*goods, *buyable)}
    sums: dict[tuple[str, int], list[int]] = {}  # (term, Till) -> the hand's and the others' Tills present

    def earned(c: str, since: int) -> int:
        """What Goods or Staff card ``c`` earns from Till ``since`` on: an income for every card of a
        kind counts each such card's Tills in the Tavern (a hand keeps at most ``keep`` cards)."""
        total = 0
        for effect in card(c).effects:
            if effect.op == "income":
                total += effect.amount * (tills - since)
            elif effect.op == "income_if":
                mine = effect.term in _terms(c)
                total += effect.amount * sum(counts[a][effect.term] > mine for a in range(since, tills))
            elif effect.op == "income_per":
                key = (effect.term, since)
                if key not in sums:
                    ours = [x for x in (*arrives, *seated) if effect.term in _terms(x)]
                    kept = [present(x, since) for x in ours if x in in_hand]
                    others = sum(present(x, since) for x in ours if x not in in_hand)
                    sums[key] = [len(kept), max(kept, default=0), others]
                held, each, others = sums[key]
                if c in in_hand and effect.term in _terms(c):
                    held -= 1
                elif effect.term in _terms(c):
                    others -= present(c, since)
                total += effect.amount * (min(held, keep - (c in in_hand)) * each + others)
        return total

    total = player.gold + sum(earned(c, 0) for c, _ in goods)
    for c, at in seated.items():
        if c in player.tavern:
            total += sum(_earns(c, counts[a]) for a in range(_last(c, labels_by[0], 0, tills)))
        else:  # seated at some Till from ``at`` on; it stays past one only if something there is Liked
            total += max(sum(_earns(c, counts[a]) for a in range(start, _last(c, labels_by[start], start, tills)))
                         for start in range(at, tills))
    free = labels_by[-1]

    def value(c: str, since: int) -> int:  # bought for the Day before Till ``since``
        price = 0 if card(c).free_with and phrase(card(c).free_with) in free else card(c).cost
        return earned(c, since) - price if since < tills else 0

    total += sum(max(0, value(c, since)) for c, since in buyable if c not in in_hand)
    if phase != "day":
        return total + sum(max(0, value(c, since)) for c, since in buyable if c in in_hand)
    now = _labels((*player.tavern, *hand))
    items = [(value(c, 0), max(0, value(c, 1)),
              0 if card(c).free_with and phrase(card(c).free_with) in now else card(c).cost)
             for c, _ in buyable if c in in_hand]
    return total + _best_hand(items, keep, player.gold)


def _best_hand(items: list[tuple[int, int, int]], keep: int, gold: int) -> int:
    """The most a hand earns: each card (worth ``now`` bought today for ``price``, ``later`` bought on a
    later Day) bought today, kept for later or let go, at most ``keep`` cards kept and at most ``gold``
    spent today."""
    best = {(0, 0): 0}  # (cards kept, Gold spent today) -> value
    for now, later, price in items:
        step = dict(best)
        for (kept, spent), worth in best.items():
            if kept < keep:
                for key, gain in (((kept + 1, spent), later), ((kept + 1, spent + price), now)):
                    if key[1] <= gold and step.get(key, -1) < worth + gain:
                        step[key] = worth + gain
        best = step
    return max(best.values())


def _dealt(state: State, seat: int, round_: int, deck: tuple[str, ...],
           rounds: list[int]) -> list[tuple[int, str]] | None:
    """(round, card) for each card the deals of those rounds give the seat (each seat takes ``DEAL`` in
    turn, from the left of that round's Server; the Server of ``round_`` is ``state.server``), or None
    if the deck runs short first."""
    per_day = DEAL * state.seats
    if len(deck) < per_day * len(rounds):
        return None
    out = []
    for j, q in enumerate(rounds):
        first = (seat - state.server - (q - round_) - 1) % state.seats  # the Server passes left each round
        start = per_day * j + DEAL * first
        out += [(q, c) for c in deck[start:start + DEAL]]
    return out


ALLOW_NOBLES = "!allow_nobles"  # not a word of any card: marks a card that lets Nobles in


@cache
def _marks(card_id: str) -> frozenset[str]:
    nobles = any(e.op == "allow_nobles" for e in card(card_id).effects)
    return labels(card_id) | {ALLOW_NOBLES} if nobles else labels(card_id)


def _labels(cards: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*map(_marks, cards))


def _seatable(patron: str, present: frozenset[str]) -> bool:
    defn = card(patron)
    return phrase(defn.wants) in present and (not defn.noble or ALLOW_NOBLES in present)


def _last(patron: str, present: frozenset[str], start: int, tills: int) -> int:
    """The Till after the last one a Patron seated at Till ``start`` can be paid at."""
    return tills if _likes(patron, present) else start + 1


def _likes(patron: str, present: frozenset[str]) -> bool:
    return any(phrase(like) in present for like in card(patron).likes)


@cache
def _terms(card_id: str) -> frozenset[str]:
    """The terms of every income effect a card answers to (what ``_counts`` tallies)."""
    return frozenset(e.term for d in definitions().values() for e in d.effects if e.term and matches(card_id, e.term))


def _counts(universe: tuple[str, ...]) -> Counter[str]:
    return Counter(term for c in universe for term in _terms(c))


def _earns(card_id: str, counts: Counter[str]) -> int:
    """``till.card_income`` of the card among a universe's cards, from the universe's term counts."""
    defn = card(card_id)
    total = (2 if defn.noble else 1) if defn.kind == "patron" else 0
    for effect in defn.effects:
        others = counts[effect.term] - (effect.term in _terms(card_id)) if effect.term else 0
        if effect.op == "income":
            total += effect.amount
        elif effect.op == "income_per":
            total += effect.amount * others
        elif effect.op == "income_if":
            total += effect.amount if others else 0
    return total
