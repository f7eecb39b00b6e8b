"""A fast simulator of Tavernkeepers and Mercenaries for the search bot's playouts, with the careful
bot (domain/mercenaries/bot.py) playing both seats.

The rules engine (rules.py) checks every command, folds msgspec events and builds views and legal
lists: about 0.1 ms a command, so that a search within 50 ms affords some 400 commands, a turn or
two of a dozen playouts, which the 2d6 of each fight swing by more than the moves differ. This
simulator plays the same rules on plain lists, a card by its rank (the suit has no effect), a whole
turn in some 10 microseconds, and the careful bot's rules of thumb inline. It is checked against the
engine (tests/mercenaries/test_playout.py): from the same state, with the same decks, the same
careful moves and dice, both reach the same HP, Gold, hands and fields.

Its dice come from a table rolled once per playout and indexed by the turn and the roll, so that
two candidate moves tried on the same playout meet the same dice in the same turn (common random
numbers): their difference is then the moves', not the dice's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TypeVar

from domain.mercenaries.content import DECK, LEADERS, RANKS, SETTINGS

RANK_NAMES: tuple[str, ...] = DECK.ranks
SWORD = tuple(RANKS[r].sword for r in RANK_NAMES)
COST = tuple(RANKS[r].contract for r in RANK_NAMES)
WAGE = tuple(RANKS[r].wage for r in RANK_NAMES)
LIMIT = tuple(LEADERS[r].field_limit if r in LEADERS else 99 for r in RANK_NAMES)
SACRIFICES = tuple(LEADERS[r].sacrifices if r in LEADERS else 0 for r in RANK_NAMES)
ATT, DEF = 0, 1
# careful's thresholds (CarefulBot): the attack edge, a Leader's least gain, cards kept before a sale
EDGE, LEADER_GAIN, KEEP = 2, 2, 4
INCOME, FIELD_SIZE, OVERRUN = SETTINGS["income"], SETTINGS["field_size"], SETTINGS["overrun_factor"]
DICE, DRAW, ALL_IN_DRAW = SETTINGS["dice"], SETTINGS["morning_draw"], SETTINGS["all_in_draw"]
HP_BELOW, GOLD_BELOW, DECK_BELOW = (SETTINGS["all_in_hp_below"], SETTINGS["all_in_gold_below"],
                                    SETTINGS["all_in_deck_below"])

Merc = tuple[int, int, int, int]  # rank, turn contracted, position, turn its position was last set
Random = Callable[[], float]  # uniform in [0, 1)
_T = TypeVar("_T")


def roll(random: Random) -> int:
    return sum(int(random() * 6) + 1 for _ in range(DICE))


def shuffle(cards: list[_T], random: Random) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = int(random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


class Sim:
    """One determinized match, mutable; ``copy`` before trying a move on it."""

    __slots__ = ("active", "all_in", "all_in_turn", "contracted", "dawn_gold", "deck", "dice", "field", "gold",
                 "hand", "hp", "lowest_overall", "random", "sell_field", "sold", "start", "trash", "treasury",
                 "turn", "winner")

    def __init__(self) -> None:
        self.hp: list[int] = [0, 0]
        self.gold: list[int] = [0, 0]
        self.hand: list[list[int]] = [[], []]
        self.deck: list[list[int]] = [[], []]
        self.field: list[list[Merc]] = [[], []]
        self.trash: list[list[int]] = [[], []]
        self.all_in: list[bool] = [False, False]
        self.treasury = self.active = self.turn = self.dawn_gold = self.start = 0
        self.contracted = self.sold = self.all_in_turn = self.lowest_overall = self.sell_field = False
        self.winner = -1  # the seat that won the game being played, once it is over
        self.dice: Sequence[Sequence[int]] = ()  # per turn from the start: attack, defence (or direct) rolls
        self.random: Random = float

    def copy(self) -> Sim:
        out = Sim.__new__(Sim)
        out.hp, out.gold, out.all_in = self.hp[:], self.gold[:], self.all_in[:]
        out.hand, out.deck = [self.hand[0][:], self.hand[1][:]], [self.deck[0][:], self.deck[1][:]]
        out.field, out.trash = [self.field[0][:], self.field[1][:]], [self.trash[0][:], self.trash[1][:]]
        for name in ("treasury", "active", "turn", "dawn_gold", "start", "contracted", "sold", "all_in_turn",
                     "lowest_overall", "sell_field", "winner", "dice", "random"):
            setattr(out, name, getattr(self, name))
        return out

    # --- the Morning --------------------------------------------------------------------------------

    def may_go_all_in(self) -> bool:
        a = self.active
        return not self.all_in[a] and (self.hp[a] < HP_BELOW or min(self.gold[a], self.dawn_gold) < GOLD_BELOW
                                       or len(self.deck[a]) < DECK_BELOW)

    def go_all_in(self) -> None:
        a = self.active
        self.treasury += self.gold[a]
        self.gold[a] = 0
        self.hp[a] -= self.hp[a] // 2
        deck = self.deck[a] + self.hand[a] + [m[0] for m in self.field[a]] + self.trash[a]
        shuffle(deck, self.random)
        self.hand[a], self.deck[a] = deck[:ALL_IN_DRAW], deck[ALL_IN_DRAW:]
        self.field[a], self.trash[a] = [], []
        self.all_in[a] = self.all_in_turn = True
        self.contracted = False

    def contract(self, rank: int, sacrifices: Sequence[int], position: int = ATT) -> None:
        a = self.active
        field = self.field[a]
        self.trash[a] += [field[i][0] for i in sacrifices]
        field = [m for i, m in enumerate(field) if i not in sacrifices]
        field.append((rank, self.turn, position, self.turn))
        self.field[a] = field
        self.hand[a].remove(rank)
        cost = 0 if self.all_in_turn else COST[rank]
        self.gold[a] -= cost
        self.treasury += cost
        self.contracted = True

    def best_contract(self) -> tuple[int, tuple[int, ...]] | None:
        """The careful bot's Contract: the greatest gain in Swords whose wages it can keep paying (the
        first in hand order among equals, as the bot's ``max`` over the legal list)."""
        a = self.active
        if self.contracted:
            return None
        field, gold, free = self.field[a], self.gold[a], self.all_in_turn
        ranks = [m[0] for m in field]
        wages = sum(WAGE[r] for r in ranks)
        best, tried = 0, set()
        chosen: tuple[int, tuple[int, ...]] | None = None
        for rank in self.hand[a]:
            if rank in tried or SWORD[rank] <= best:
                continue  # a gain no greater than the best so far is never chosen
            tried.add(rank)
            cost = 0 if free else COST[rank]
            needed = 0 if free else SACRIFICES[rank]
            if gold < cost or (not needed and len(ranks) >= FIELD_SIZE):
                continue
            if not needed:
                if gold - cost >= wages + WAGE[rank] and ranks.count(rank) < LIMIT[rank]:
                    best, chosen = SWORD[rank], (rank, ())
                continue
            for sacrifices in combinations(range(len(ranks)), needed):
                staying = [r for i, r in enumerate(ranks) if i not in sacrifices]
                gain = SWORD[rank] - sum(SWORD[ranks[i]] for i in sacrifices)
                if (gain > best and gain >= LEADER_GAIN and gold - cost >= sum(WAGE[r] for r in staying) + WAGE[rank]
                        and len(staying) < FIELD_SIZE and staying.count(rank) < LIMIT[rank]):
                    best, chosen = gain, (rank, sacrifices)
        return chosen

    def sell(self, rank: int, from_field: int = -1) -> None:
        a = self.active
        if from_field >= 0:
            del self.field[a][from_field]
        else:
            self.hand[a].remove(rank)
        self.trash[a].append(rank)
        price = min(COST[rank], self.treasury)
        self.gold[a] += price
        self.treasury -= price
        self.sold = True

    def set_position(self, index: int, position: int) -> None:
        field = self.field[self.active]
        rank, turn, _, _ = field[index]
        field[index] = (rank, turn, position, self.turn)

    def careful_morning(self) -> None:
        """The rest of the Morning as the careful bot plays it."""
        a = self.active
        if self.may_go_all_in() and len(self.deck[a]) <= 1:
            self.go_all_in()
        for _ in range(2):  # a sale's Gold may pay for a Contract the bot could not afford before it
            if not self.contracted:
                chosen = self.best_contract()
                if chosen is not None:
                    self.contract(*chosen)
            field = self.field[a]
            for i, m in enumerate(field):
                if m[2] == DEF and m[3] != self.turn:
                    field[i] = (m[0], m[1], ATT, self.turn)
            hand = self.hand[a]
            if self.sold or len(hand) <= KEEP:
                return
            self.sell(min(hand, key=COST.__getitem__))

    # --- the Afternoon ------------------------------------------------------------------------------

    def ready(self) -> list[int]:
        """Indexes of the active field's mercenaries that may attack."""
        return [i for i, m in enumerate(self.field[self.active])
                if m[2] == ATT and (m[1] != self.turn or self.all_in_turn)]

    def careful_attack(self) -> list[int]:
        """The careful bot's attackers (none: no attack)."""
        a = self.active
        ready = self.ready()
        if not ready:
            return []
        foe = self.field[1 - a]
        if not foe:
            return ready
        edge = sum(SWORD[self.field[a][i][0]] for i in ready) - sum(SWORD[m[0]] for m in foe)
        return ready if edge >= EDGE else []

    def attack(self, attackers: Sequence[int]) -> None:
        """The fight, its damage and losses; the game may end. The Night follows (``night``)."""
        a, d = self.active, 1 - self.active
        mine, theirs = self.field[a], self.field[d]
        swords = sum(SWORD[mine[i][0]] for i in attackers)
        rolls = self.dice[self.turn - self.start]
        if not theirs:
            self.hurt(d, max(0, swords - rolls[1]))
            return
        attack, defence = swords + rolls[0], sum(SWORD[m[0]] for m in theirs) + rolls[1]
        if attack == defence:
            return
        loser = d if attack > defence else a
        high, low = max(attack, defence), min(attack, defence)
        if self.hurt(loser, high - low):
            return
        losing = [mine[i] for i in attackers] if loser == a else theirs
        if high >= OVERRUN * low:
            self.lose(loser, losing)
            return
        side, pool = loser, losing
        if self.lowest_overall and all(m[2] == ATT for m in theirs):
            winning = theirs if loser == a else [mine[i] for i in attackers]
            if min(SWORD[m[0]] for m in winning) < min(SWORD[m[0]] for m in losing):
                side, pool = 1 - loser, winning
        self.lose(side, [min(pool, key=lambda m: SWORD[m[0]])])

    def lose(self, seat: int, mercs: Sequence[Merc]) -> None:
        field = self.field[seat]
        for m in mercs:
            field.remove(m)
            self.trash[seat].append(m[0])

    def hurt(self, seat: int, damage: int) -> bool:
        """Damage to a Tavernkeeper; True if it ends the game."""
        self.hp[seat] = max(0, self.hp[seat] - damage)
        if self.hp[seat] == 0:
            self.winner = 1 - seat
            return True
        return False

    # --- the Night and the next turn ----------------------------------------------------------------

    def night(self) -> None:
        """Wages (the weakest dismissed while they cannot be paid), then the other seat's Morning begins."""
        a = self.active
        if not self.all_in_turn:
            field = self.field[a]
            while sum(WAGE[m[0]] for m in field) > self.gold[a]:
                weakest = min(field, key=lambda m: (SWORD[m[0]], -WAGE[m[0]]))
                field.remove(weakest)
                self.trash[a].append(weakest[0])
            wages = sum(WAGE[m[0]] for m in field)
            self.gold[a] -= wages
            self.treasury += wages
        self.begin_turn(1 - a)

    def begin_turn(self, seat: int) -> None:
        self.active, self.turn = seat, self.turn + 1
        self.contracted = self.sold = self.all_in_turn = False
        self.dawn_gold = self.gold[seat]
        income = min(INCOME, self.treasury)
        self.gold[seat] += income
        self.treasury -= income
        deck = self.deck[seat]
        if len(deck) < DRAW:
            self.winner = 1 - seat
            return
        self.hand[seat] += deck[:DRAW]
        del deck[:DRAW]

    def finish_turn(self, attackers: Sequence[int] | None = None) -> None:
        """From the Afternoon: the attack (the careful bot's when None), then the Night."""
        chosen = self.careful_attack() if attackers is None else attackers
        if chosen:
            self.attack(chosen)
        if self.winner < 0:
            self.night()

    def play(self, turns: int) -> None:
        """Whole turns of the careful bot for both seats, until ``turns`` more have begun or the game ends."""
        end = self.turn + turns
        while self.winner < 0 and self.turn < end:
            self.careful_morning()
            self.finish_turn()
