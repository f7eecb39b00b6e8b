"""The search bot of Tavernkeepers and Mercenaries: determinized Monte Carlo over the cards a seat
cannot see (its own deck's order, the rival's hand and deck), sampled from its view under the
match's options, on the fast simulator of domain/mercenaries/playout.py with the careful bot playing on.

The kernel's search (domain/kernel/search.py) runs the rules engine, some 400 commands within 50 ms:
a turn or two of a dozen playouts, which the 2d6 of each fight swing by more than the moves differ,
so it lost to the careful bot it played with. Here every playout runs whole turns in microseconds,
and every candidate move of a decision meets the same deals and the same dice turn by turn (common
random numbers), so that hundreds of paired playouts a move tell the moves apart. The careful bot's
move is played unless another beats it on those playouts by ``caution`` standard errors.

The work per move is a count of simulated turns, not a clock: the same view, legal list and seed
always give the same move (the audit of a timed-out seat relies on it)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from domain.kernel import Command, Rng, Setup
from domain.kernel.rng import Floats
from domain.mercenaries.bot import CarefulBot
from domain.mercenaries.commands import (
    ATTACK,
    DEFENCE,
    Contract,
    DeclareAttack,
    EndPhase,
    GoAllIn,
    SellMercenary,
    SetPosition,
)
from domain.mercenaries.content import deck_of, rank_of
from domain.mercenaries.playout import ATT, DEF, RANK_NAMES, SWORD, Random, Sim, roll, shuffle
from domain.mercenaries.state import Merc, Player, State, initial
from domain.mercenaries.views import MercenariesView

MATCH_WON = 1000  # a won match outweighs any margin of HP and field
GAME_WON = 200  # so does a won game of a best of three
# in HP: what a Sword on the field may yet take off the rival, one in hand once hired, a Gold paying for both
FIELD_WORTH, HAND_WORTH, GOLD_WORTH = 1.5, 0.5, 0.2
RANK = {name: index for index, name in enumerate(RANK_NAMES)}
CARD_RANK = {card: RANK[rank_of(card).rank] for seat in (0, 1) for card in deck_of(seat)}


def hidden_cards(seen: MercenariesView) -> list[list[str]]:
    """Per seat, the cards of its own deck that the view does not place (in its hand, field or Trash)."""
    out = []
    for side in seen.sides:
        placed = {*(c.card for c in seen.hand if side.seat == seen.seat), *(m.card.card for m in side.field),
                  *side.trash}
        out.append([c for c in deck_of(side.seat) if c not in placed])
    return out


def deal_cards(seen: MercenariesView, hidden: list[list[str]], random: Random) -> list[tuple[list[str], list[str]]]:
    """Per seat, a hand and a deck this view could come from: the hidden cards at random, in the
    counts the view gives (the seat's own hand as it is)."""
    out = []
    for side in seen.sides:
        cards = hidden[side.seat][:]
        shuffle(cards, random)
        if side.seat == seen.seat:
            hand = [c.card for c in seen.hand]
        else:
            hand, cards = cards[: side.hand_count], cards[side.hand_count :]
        out.append((hand, cards[: side.deck_count]))
    return out


def sample(seen: MercenariesView, rng: Rng, options: Mapping[str, Any]) -> State:
    """The simulator's determinization as a state of the rules, ruled by the match's options (what
    tests/kernel/test_search_bot.py checks against the view); the active seat's Gold at dawn is
    taken as its Gold now."""
    dealt = deal_cards(seen, hidden_cards(seen), Floats(rng.below(2**62)).random)
    players = tuple(
        Player(hp=side.hp, gold=side.gold, hand=tuple(hand), deck=tuple(deck), trash=side.trash,
               all_in_used=side.all_in_used,
               field=tuple(Merc(card=m.card.card, position=m.position,
                                turn=seen.turn if m.summoning_sick else seen.turn - 1) for m in side.field))
        for side, (hand, deck) in zip(seen.sides, dealt, strict=True)
    )
    return replace(
        initial(Setup(len(players), dict(options))), best_of=seen.best_of, players=players, treasury=seen.treasury,
        number=seen.game, wins=seen.wins,
        active=seen.active, turn=seen.turn, phase=seen.phase, contracted=seen.contracted,
        dawn_gold=players[seen.active].gold, sold=seen.sold, all_in_turn=seen.all_in_turn, moved=seen.moved,
        discard_seat=seen.waiting_for if seen.discard_candidates else -1, discard_from=seen.discard_candidates,
        records=seen.games, match_winner=seen.match_winner, last_combat=seen.last_combat,
    )


def rank(card: str) -> int:
    return CARD_RANK[card]


def simulator(seen: MercenariesView, options: Mapping[str, Any]) -> Sim:
    """The view on the simulator, the cards it does not show left out (``deal`` fills them)."""
    sim = Sim()
    for side in seen.sides:
        s = side.seat
        sim.hp[s], sim.gold[s], sim.all_in[s] = side.hp, side.gold, side.all_in_used
        sim.field[s] = [(rank(m.card.card), seen.turn if m.summoning_sick else seen.turn - 1,
                         ATT if m.position == ATTACK else DEF, seen.turn if m.card.card in seen.moved else -1)
                        for m in side.field]
        sim.trash[s] = [rank(c) for c in side.trash]
    sim.treasury, sim.active, sim.turn, sim.start = seen.treasury, seen.active, seen.turn, seen.turn
    sim.contracted, sim.sold, sim.all_in_turn = seen.contracted, seen.sold, seen.all_in_turn
    sim.dawn_gold = seen.sides[seen.active].gold
    sim.lowest_overall = options.get("ava_trash") == "lowest_overall"
    sim.sell_field = options.get("sell_from") == "hand_or_field"
    return sim


def deal(base: Sim, seen: MercenariesView, hidden: list[list[str]], random: Floats, turns: int) -> Sim:
    """A determinization on the simulator (``deal_cards``), and the dice of ``turns`` turns rolled."""
    sim = base.copy()
    draw = random.random
    for seat, (hand, deck) in enumerate(deal_cards(seen, hidden, draw)):
        sim.hand[seat], sim.deck[seat] = [CARD_RANK[c] for c in hand], [CARD_RANK[c] for c in deck]
    sim.dice = [(roll(draw), roll(draw)) for _ in range(turns + 2)]
    sim.random = draw
    return sim


def key(move: Command, seen: MercenariesView) -> Any:
    """Moves that differ only in which of two alike cards they name play alike: one key."""
    field = {m.card.card: (m.card.stats.sword, m.summoning_sick, m.position, m.card.card in seen.moved)
             for side in seen.sides for m in side.field}
    if isinstance(move, Contract):
        return ("contract", rank(move.card), move.position, tuple(sorted(field[c] for c in move.sacrifices)))
    if isinstance(move, SellMercenary):
        return ("sell", rank(move.card), field.get(move.card))
    if isinstance(move, SetPosition):
        return ("position", field[move.card], move.position)
    if isinstance(move, DeclareAttack):
        return ("attack", tuple(sorted(field[c] for c in move.attackers)))
    return (type(move).__name__,)


def play(sim: Sim, move: Command, seen: MercenariesView) -> None:
    """The move on the simulator, then the careful bot to the end of the turn."""
    me = seen.sides[seen.active]
    index = {m.card.card: i for i, m in enumerate(me.field)}
    morning = seen.phase == "morning"
    if isinstance(move, Contract):
        sim.contract(rank(move.card), [index[c] for c in move.sacrifices], ATT if move.position == ATTACK else DEF)
    elif isinstance(move, SellMercenary):
        sim.sell(rank(move.card), index.get(move.card, -1))
    elif isinstance(move, SetPosition):
        sim.set_position(index[move.card], ATT if move.position == ATTACK else DEF)
    elif isinstance(move, GoAllIn):
        sim.go_all_in()
    elif isinstance(move, DeclareAttack):
        sim.finish_turn([index[c] for c in move.attackers])
        return
    elif isinstance(move, EndPhase):
        sim.finish_turn([] if not morning else None)
        return
    sim.careful_morning()
    sim.finish_turn()


def worth(sim: Sim, seat: int, seen: MercenariesView) -> float:
    """The seat's margin over its rival: a won game (a won match above all), else HP, Gold and the
    Swords on the field and in hand."""
    if sim.winner >= 0:
        won = seen.wins[sim.winner] + 1 > seen.best_of // 2
        return (MATCH_WON if won else GAME_WON) * (1 if sim.winner == seat else -1)
    score = [sim.hp[s] + GOLD_WORTH * sim.gold[s] + FIELD_WORTH * sum(SWORD[m[0]] for m in sim.field[s])
             + HAND_WORTH * sum(SWORD[r] for r in sim.hand[s]) for s in (0, 1)]
    return score[seat] - score[1 - seat]


class MercenariesSearch:
    """Flat Monte Carlo over the distinct legal moves, the careful bot's first and kept unless beaten."""

    def __init__(self, options: Mapping[str, Any], budget: int = 1500, horizon: int = 6, caution: float = 2.0,
                 width: int = 8) -> None:
        self.options = options
        self.budget = budget  # simulated turns per move, over all playouts
        self.horizon = horizon  # whole turns after the one the move is in
        self.caution = caution  # standard errors by which a move must beat the careful bot's
        self.width = width  # moves searched at most, the careful bot's included
        self.careful = CarefulBot()
        # a mercenary fights alike in either position; only where Attack vs Attack trashes the lowest
        # of all does a defence position change a fight, so elsewhere the search leaves it out
        self.defence_matters = options.get("ava_trash") == "lowest_overall"

    def choose(self, view: MercenariesView, legal: Sequence[Command], rng: Rng) -> Command:
        favourite = self.careful.choose(view, legal, rng)
        if len(legal) == 1 or view.phase not in ("morning", "afternoon") or view.discard_candidates:
            return favourite  # a discard or a dismissal: among the weakest, which the careful bot picks
        seat = view.seat or 0
        seen_keys = {key(favourite, view)}
        candidates = [favourite]
        for move in legal:
            k = key(move, view)
            if k not in seen_keys and (position(move) != DEFENCE or self.defence_matters):
                seen_keys.add(k)
                candidates.append(move)
        candidates = candidates[: self.width]
        if len(candidates) == 1:
            return favourite
        random = Floats(rng.below(2**62))
        base, hidden = simulator(view, self.options), hidden_cards(view)
        playouts = max(2, self.budget // (len(candidates) * (self.horizon + 1)))
        values: list[list[float]] = [[] for _ in candidates]
        for _ in range(playouts):
            dealt = deal(base, view, hidden, random, self.horizon + 1)
            seed = random.random()
            for index, move in enumerate(candidates):
                sim = dealt.copy()
                sim.random = Floats(seed).random  # the same reshuffles for every move
                play(sim, move, view)
                sim.play(self.horizon)
                values[index].append(worth(sim, seat, view))
        return candidates[best(values, self.caution)]


def position(move: Command) -> str | None:
    return move.position if isinstance(move, Contract | SetPosition) else None


def best(values: list[list[float]], caution: float) -> int:
    """The careful bot's move (the first) unless another beats it on the same playouts by more
    than ``caution`` standard errors of the difference; then the one that beats it by most."""
    chosen, lead = 0, 0.0
    for index in range(1, len(values)):
        diffs = [mine - theirs for mine, theirs in zip(values[index], values[0], strict=True)]
        mean = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        if mean > caution * error and mean > lead:
            chosen, lead = index, mean
    return chosen


def search_bot(options: Mapping[str, Any]) -> MercenariesSearch:
    return MercenariesSearch(options)
