"""The search bot of Tavern Masters: determinized Monte Carlo (domain/kernel/search.py) over what a
seat cannot see (the other hands and draft packets, the decks, the discards under their tops),
sampled from its view, with the greedy bot playing on."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Game, Rng, Seat, Setup
from domain.kernel.search import Search, margin
from domain.tavern_masters.bot import PATRONS_A_NIGHT, GreedyBot, coverage
from domain.tavern_masters.content import deck_cards
from domain.tavern_masters.effects import till_income
from domain.tavern_masters.events import Offer
from domain.tavern_masters.scoring import GOAL
from domain.tavern_masters.setup import DRAFT_PACKET
from domain.tavern_masters.state import CHALLENGE_ROUNDS, Player, State, initial
from domain.tavern_masters.views import TMView

WON = 100  # a won match outweighs any Gold
ROUNDS_AHEAD = 2  # competitive: the Nights a Tavern is counted for (20 Gold comes within a few rounds)


def _options(seen: TMView) -> dict:
    competitive = seen.mode == "competitive"
    options = {"mode": seen.mode, "dirty_deeds": seen.dirty_deeds, "card_list": seen.card_list}
    if competitive:
        options["round_cap"] = seen.rounds
    elif seen.challenge in CHALLENGE_ROUNDS:
        options["challenge"] = seen.challenge
    return options


def _trades(seen: TMView) -> tuple[Offer, ...]:
    return (*seen.drafts, *seen.offers)


def _held(seen: TMView, seat: int) -> list[str]:
    """The cards of another seat's hand the view names or blanks ("": hidden from this seat): those
    that seat puts in a trade from its hand, and those a trade has shown this seat."""
    traded = [c for o in _trades(seen) for c in (o.give_hand if o.by == seat else o.take_hand if o.to == seat else ())]
    named = list(dict.fromkeys(c for c in traded if c))  # one card may be in several offers
    return [*named, *(c for c, owner in seen.shown if owner == seat and c not in named), *[""] * traded.count("")]


def _filled(offer: Offer, seat_cards: dict[int, list[str]]) -> Offer:
    """The offer with each blank hand card replaced by the card drawn for that seat's hand."""
    def fill(cards: tuple[str, ...], seat: int) -> tuple[str, ...]:
        # a blank with no card left to draw stays blank (a card that left the hand: the trade fails)
        return tuple(c or (seat_cards.get(seat) or [""]).pop(0) for c in cards)

    return replace(offer, give_hand=fill(offer.give_hand, offer.by), take_hand=fill(offer.take_hand, offer.to))


def sample(seen: TMView, rng: Rng) -> State:
    """A state this view could come from: the cards it does not show dealt at random, each deck's
    into that deck, its discard pile (under the face-up top) and the other seats' hands and packets.
    The draft step is read off the viewer's own packet; a mulligan already chosen is taken as kept;
    the cards seen in a Tavern this round as those in it now."""
    seats, own = len(seen.players), seen.seat
    base = initial(Setup(seats, _options(seen)))
    draft = seen.phase == "draft"
    step = DRAFT_PACKET - len(seen.packet) - (own not in seen.to_act) if draft and seats > 1 else 0
    others = [c for s in range(seats) if s != own for c in _held(seen, s) if c]
    shown = {*seen.hand, *seen.packet, *seen.removed, *seen.discard_tops.values(), *others,
             *(c for p in seen.players for c in p.tavern)}
    decks, discards, loose = {}, {}, []  # loose: the unseen cards in other seats' hands and packets
    for deck, count in seen.deck_counts.items():
        pool = rng.shuffle([c for c in deck_cards(deck, seen.dirty_deeds, seen.card_list) if c not in shown])
        top = seen.discard_tops.get(deck, "")
        under = max(seen.discard_counts.get(deck, 0) - bool(top), 0)
        decks[deck] = tuple(pool[:count])
        discards[deck] = (*pool[count : count + under], *([top] if top else []))
        loose += pool[count + under :]
    loose = rng.shuffle(loose)
    players, blanks = [], {}  # blanks: per seat, the cards drawn for its hand cards a trade shows as ""
    for seat, p in enumerate(seen.players):
        hand, packet = seen.hand, seen.packet
        if seat == own:  # a card of its own a trade blanks has left its hand since: any unseen card
            count = _held(seen, seat).count("")
            blanks[seat], loose = loose[:count], loose[count:]
        else:
            held = _held(seen, seat)
            count = max(p.hand_count - len(held), 0) + held.count("")
            drawn, loose = loose[:count], loose[count:]
            blanks[seat] = drawn[: held.count("")]
            hand = (*(c for c in held if c), *drawn)
            size = DRAFT_PACKET - step - (seat not in seen.to_act) if draft and seats > 1 else 0
            packet, loose = tuple(loose[:size]), loose[size:]
        players.append(Player(
            gold=p.gold, hand=tuple(hand), tavern=p.tavern, seen=p.tavern, packet=tuple(packet),
            picked=draft and seat not in seen.to_act,
            mulligan="" if (seen.phase == "mulligan" and seat in seen.to_act) or draft else "keep",
            done=p.done,
        ))
    drafts, offers = (tuple(_filled(o, blanks) for o in trades) for trades in (seen.drafts, seen.offers))
    return replace(
        base, players=tuple(players), decks=decks, discards=discards, removed=seen.removed, phase=seen.phase,
        round=seen.round, server=seen.server, draft_step=step, drafts=drafts, offers=offers,
        shown=tuple((c, own) for c, _ in seen.shown),
        opened=seen.opened,
        next_offer=max((o.id + 1 for o in _trades(seen)), default=0), turn=seen.turn, used=seen.used,
        pending=seen.pending, tie_rounds=seen.tie_rounds, last_income=seen.last_income, winners=seen.winners,
        end_reason="all_win" if seen.outcome == "table_won" else "",
    )


def expected_gold(state: State) -> list[float]:
    """Each seat's Gold and what its Tavern should bring in the Nights left, as the greedy bot counts
    a card: its income, and the Patrons a Night deals it that the Tavern could seat."""
    if state.mode == "competitive":
        nights = 0 if state.winners is not None else ROUNDS_AHEAD
    else:
        nights = max(0, state.rounds - state.round) + (state.phase in ("day", "draft", "mulligan"))
    return [
        p.gold + nights * (till_income(p.tavern) + PATRONS_A_NIGHT * coverage(p.tavern, state))
        for p in state.players
    ]


def _worth(state: State, seat: Seat) -> float:
    """In co-operative play the table's expected Gold short of the goal; otherwise the margin."""
    won = WON * (state.winners is not None and seat in state.winners)
    golds = expected_gold(state)
    if state.mode == "cooperative":
        return won + sum(min(gold, GOAL) for gold in golds)
    return won + margin(golds, seat)


def search_bot(game: Game) -> Search:
    return Search(game, sample, _worth, seats=lambda state: state.seats, policy=GreedyBot,
                  budget=120, horizon=10, width=3)


