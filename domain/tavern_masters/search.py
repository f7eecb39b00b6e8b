"""The search bot of Tavern Masters: determinized Monte Carlo (domain/kernel/search.py) over what a
seat cannot see (the other hands and draft packets, the decks, the discards under their tops),
sampled from its view under the match's options, the planner bot's move searched first, the
greedy bot playing on, and where a playout stops scored by the planner's model of a Tavern."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from msgspec.structs import replace

from domain.kernel import Game, Rng, Seat, Setup
from domain.kernel.search import Search, margin
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.content import deck_cards
from domain.tavern_masters.events import Offer
from domain.tavern_masters.planner import HORIZON, PlannerBot, incomes, waiting_patrons
from domain.tavern_masters.scoring import GOAL
from domain.tavern_masters.setup import DRAFT_PACKET
from domain.tavern_masters.state import Player, State, initial
from domain.tavern_masters.views import TMView

WON = 100  # a won match outweighs any Gold


def _trades(seen: TMView) -> tuple[Offer, ...]:
    return (*seen.drafts, *seen.offers)


def _blanks(seen: TMView) -> list[tuple[int, int]]:
    """(offer id, seat) for each hand card this view shows as "" in an offer between two other seats
    (hidden from it), the seat being the one that put it in or was asked for it."""
    return [(o.id, s) for o in _trades(seen) if seen.seat not in (o.by, o.to)
            for cards, s in ((o.give_hand, o.by), (o.take_hand, o.to)) for c in cards if not c]


def _filled(offer: Offer, fill: dict[int, list[str]]) -> Offer:
    """The offer with its blank hand cards replaced by the hidden cards drawn for them, in order."""
    cards = fill.get(offer.id)
    if not cards:
        return offer
    give = [c or cards.pop(0) for c in offer.give_hand]  # in the order _blanks lists them
    take = [c or cards.pop(0) for c in offer.take_hand]
    return replace(offer, give_hand=tuple(give), take_hand=tuple(take))


class Rival(NamedTuple):
    """What a seat at 2 seats knows of its rival's cards in the draft and the mulligan, from the packets
    it passed (``seen.passed``): the rival's picks from them, its packet, and the cards of its last packet
    that went to the Tavern discard (under the face-up top)."""

    hand: list[str]
    packet: list[str]
    discarded: list[str]


def rival_cards(seen: TMView, rng: Rng) -> Rival | None:
    """The rival's known cards (None when there is nothing to know). A passed card that did not come
    back to this seat (in its hand, its packet, or a packet it passed later) is the rival's: one pick
    from each packet before the last; the last packet is the rival's packet (less the card it kept at
    this step, if it has: one of them at random); once the draft is over the rival kept one of the
    last packet's cards still unseen (at random) and the rest lie under the Tavern discard's top."""
    if seen.seat is None or len(seen.players) != 2 or not seen.passed or seen.phase not in ("draft", "mulligan"):
        return None
    back = {*seen.hand, *seen.packet}
    kept: list[list[str]] = []
    for index, packet in enumerate(seen.passed):
        later = {c for p in seen.passed[index + 1 :] for c in p}
        kept.append([c for c in packet if c not in back and c not in later])
    *picks, last = kept
    hand = [c for cards in picks for c in cards]
    if seen.phase == "draft":
        if 1 - seen.seat in seen.to_act:  # the rival has not kept a card of it yet
            return Rival(hand, last, [])
        pick = rng.below(len(last))
        return Rival([*hand, last[pick]], [*last[:pick], *last[pick + 1 :]], [])
    unseen = rng.shuffle([c for c in last if c not in seen.discard_tops.values()])
    return Rival([*hand, *unseen[:1]], [], unseen[1:])


def sample(seen: TMView, rng: Rng, options: Mapping[str, Any]) -> State:
    """A state this view could come from: the cards it does not show dealt at random, each deck's
    into that deck, its discard pile (under the face-up top) and the other seats' hands and packets.

    What trades show is kept exactly: another seat's hand holds the cards it has shown this seat
    (``seen.shown``); a hand card an offer names that is no longer in a hand, in a Tavern or on a
    discard top is under a discard pile (the only place left where the view still names it); a blank
    hand card of an offer between two other seats is one drawn into that seat's hand; one of an offer
    to or from this seat has left the hand it was shown in (the offer can no longer be accepted) and
    stays "", a card in no seat's zone, which keeps that offer failing as it does.
    At 2 seats, in the draft and the mulligan, the rival holds what ``rival_cards`` says it does.
    The draft step is read off the viewer's own packet; a mulligan already chosen is taken as kept;
    the cards seen in a Tavern this round as those in it now. The match's options rule it."""
    seats, own = len(seen.players), seen.seat
    base = initial(Setup(seats, dict(options)))
    draft = seen.phase == "draft"
    step = DRAFT_PACKET - len(seen.packet) - (own not in seen.to_act) if draft and seats > 1 else 0
    held = {s: [c for c, owner in seen.shown if owner == s] for s in range(seats)}
    rival = rival_cards(seen, rng)
    known = {*rival.hand, *rival.packet} if rival else set()
    visible = {*seen.hand, *seen.packet, *seen.removed, *seen.discard_tops.values(), *known,
               *(c for p in seen.players for c in p.tavern), *(c for cards in held.values() for c in cards)}
    buried = {c for o in _trades(seen) for c in (*o.give_hand, *o.take_hand) if c and c not in visible}
    buried.update(rival.discarded if rival else ())
    decks, discards, loose = {}, {}, []  # loose: the unseen cards in other seats' hands and packets
    for deck, count in seen.deck_counts.items():
        under_top = [c for c in deck_cards(deck, seen.dirty_deeds, seen.card_list) if c in buried]
        pool = rng.shuffle([c for c in deck_cards(deck, seen.dirty_deeds, seen.card_list)
                            if c not in visible and c not in buried])
        top = seen.discard_tops.get(deck, "")
        under = max(seen.discard_counts.get(deck, 0) - bool(top) - len(under_top), 0)
        decks[deck] = tuple(pool[:count])
        discards[deck] = (*under_top, *pool[count : count + under], *([top] if top else []))
        loose += pool[count + under :]
    loose = rng.shuffle(loose)
    players, drawn = [], {}  # drawn: per other seat, the cards dealt to its hand
    for seat, p in enumerate(seen.players):
        hand, packet, passed = seen.hand, seen.packet, seen.passed
        if seat != own:
            known_hand = rival.hand if rival else []
            count = max(p.hand_count - len(held[seat]) - len(known_hand), 0)
            drawn[seat], loose = list(loose[:count]), loose[count:]
            hand = (*held[seat], *known_hand, *drawn[seat])
            size = DRAFT_PACKET - step - (seat not in seen.to_act) if draft and seats > 1 else 0
            if rival and draft:
                packet = tuple(rival.packet)
            else:
                packet, loose = tuple(loose[:size]), loose[size:]
            passed = ()  # what the rival remembers is not this seat's to know
        players.append(Player(
            gold=p.gold, hand=tuple(hand), tavern=p.tavern, seen=p.tavern, packet=tuple(packet), passed=passed,
            picked=draft and seat not in seen.to_act,
            mulligan="" if (seen.phase == "mulligan" and seat in seen.to_act) or draft else "keep",
            done=p.done,
        ))
    fill: dict[int, list[str]] = {}
    for offer_id, seat in _blanks(seen):
        spare = drawn[seat]
        fill.setdefault(offer_id, []).append(spare.pop(0) if spare else "")  # none left: "" (the trade fails)
    drafts, offers = (tuple(_filled(o, fill) for o in trades) for trades in (seen.drafts, seen.offers))
    return replace(
        base, players=tuple(players), decks=decks, discards=discards, removed=seen.removed, phase=seen.phase,
        round=seen.round, server=seen.server, draft_step=step, drafts=drafts, offers=offers,
        shown=tuple((c, own, owner) for c, owner in seen.shown),
        opened=seen.opened,
        next_offer=max((o.id + 1 for o in _trades(seen)), default=0), turn=seen.turn, used=seen.used,
        pending=seen.pending, tie_rounds=seen.tie_rounds, last_income=seen.last_income, winners=seen.winners,
        end_reason="all_win" if seen.outcome == "table_won" else "",
    )


def projected_gold(state: State) -> list[float]:
    """Each seat's Gold at the Till where the planner's model of a Tavern (planner.incomes, with the
    Patrons waiting in its hand) expects the match to end: in competitive play the first Till at
    which some seat reaches 20 (within the planner's horizon and the round cap), otherwise the
    Challenge's last. Exact once the match is over."""
    if state.winners is not None:
        return [float(p.gold) for p in state.players]
    coming = state.phase != "till"  # this round's Till is still to be counted
    if state.mode == "competitive":
        left = state.round_cap - state.round + coming if state.round_cap else HORIZON
        tills = max(1, min(HORIZON, left))
    else:
        tills = max(0, state.rounds - state.round) + coming
    dealt = state.phase in ("night", "deeds")  # this Night's Patrons are in the hands already
    golds = [[float(p.gold)] for p in state.players]
    for gold, p in zip(golds, state.players, strict=True):
        for gain in incomes(p.tavern, waiting_patrons(p.hand, p.tavern), tills, state, dealt):
            gold.append(gold[-1] + gain)
    end = tills
    if state.mode == "competitive":
        end = next((till for till in range(1, tills + 1) if max(gold[till] for gold in golds) >= GOAL), tills)
    return [gold[end] for gold in golds]


def _worth(state: State, seat: Seat) -> float:
    """A won match, then in co-operative play the table's projected Gold up to the goal, otherwise
    the projected margin."""
    won = WON * (state.winners is not None and seat in state.winners)
    golds = projected_gold(state)
    if state.mode == "cooperative":
        return won + sum(min(gold, GOAL) for gold in golds)
    return won + margin(golds, seat)


def search_bot(game: Game, options: Mapping[str, Any]) -> Search:
    # the planner's move first, kept unless the playouts find another better by two standard errors
    # on the same deals; the playouts (greedy, 10 commands) end before most purchases have paid, so
    # each is scored by the planner's projection of the Gold at the Till that should end the match
    # (seeds/tavern-masters/RULINGS.md 46)
    return Search(game, sample, _worth, seats=lambda state: state.seats, policy=GreedyBot, lead=PlannerBot,
                  options=options, budget=120, horizon=10, width=3, caution=2.0)
