"""The match state and evolve (the fold). Only events change it; evolve never draws."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.kernel import Setup
from domain.kernel.seats import left_of
from domain.tavern_masters import events as ev
from domain.tavern_masters.content import card
from domain.tavern_masters.till import card_income

CHALLENGE_ROUNDS = {"buzzed": 6, "tipsy": 5, "sloshed": 4, "hammered": 3, "wasted": 2}


START_GOLD = 3


class Ledger(msgspec.Struct, frozen=True):
    """Where a seat's Gold came from and went since the start (breakdown.py's categories)."""

    patrons: int = 0  # the Till: each Patron's 1 Gold (a Noble's 2) and its own bonus
    goods_staff: int = 0  # the Till: the Goods' and Staff's bonus Gold
    spent: int = 0  # Goods purchased and Staff hired (negative)
    trades: int = 0  # Gold received less Gold paid in trades
    deeds: int = 0  # Gold gained less Gold stolen by Dirty Deeds


class Player(msgspec.Struct, frozen=True):
    gold: int = START_GOLD
    hand: tuple[str, ...] = ()
    tavern: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()  # every card in the Tavern at some time this round (for Likes)
    packet: tuple[str, ...] = ()  # draft cards in front of this seat
    picked: bool = False  # has kept a card at this draft step
    # at 2 seats, the packets this seat passed to its rival, one per draft step (what it remembers of them:
    # seeds/tavern-masters/RULINGS.md 6)
    passed: tuple[tuple[str, ...], ...] = ()
    mulligan: str = ""  # "" undecided, "keep", "take"
    done: bool = False
    ledger: Ledger = Ledger()


def booked(player: Player, account: str, amount: int) -> Player:
    """The seat's Gold changed by ``amount``, written in its ledger under ``account``."""
    ledger = replace(player.ledger, **{account: getattr(player.ledger, account) + amount})
    return replace(player, gold=player.gold + amount, ledger=ledger)


class State(msgspec.Struct, frozen=True):
    seats: int
    mode: str
    rounds: int  # Challenge Chart rounds (co-operative and solo)
    dirty_deeds: bool
    players: tuple[Player, ...]
    round_cap: int = 10  # option: a competitive match ends after this round at the latest; 0: never
    draft_keeps: int = 3  # option draft: cards kept from the opening packet of 4 (the 2018 rules 3, the booklet 4)
    card_list: int = 1  # option: the card list the decks are built from (content.CARD_LISTS)
    decks: dict[str, tuple[str, ...]] = {}
    discards: dict[str, tuple[str, ...]] = {}
    removed: tuple[str, ...] = ()
    phase: str = "setup"
    round: int = 0
    server: int = 0
    draft_step: int = 0
    drafts: tuple[ev.Offer, ...] = ()  # offers being written (not yet sent)
    offers: tuple[ev.Offer, ...] = ()  # offers sent, waiting for the answer
    next_offer: int = 0
    opened: tuple[tuple[int, int], ...] = ()  # (by, to): the offers opened this phase, one per ordered pair
    # (card, seat, owner): a hand card shown to that seat in an offer, as the owner's; kept as the seat knew
    # it until the seat sees the card move (a move between hands out of its sight says nothing to it)
    shown: tuple[tuple[str, int, int], ...] = ()
    turn: int = -1  # whose Dirty Deeds turn
    used: tuple[str, ...] = ()  # Patrons whose Dirty Deed ability was used this round, whoever owns them now
    pending: ev.DeedDeclared | None = None
    tie_rounds: int = 0
    last_income: tuple[int, ...] = ()
    winners: tuple[int, ...] | None = None
    end_reason: str = ""


def initial(setup: Setup) -> State:
    options = setup.options
    return State(
        seats=setup.seats,
        mode=options.get("mode", "competitive"),
        rounds=CHALLENGE_ROUNDS[options.get("challenge", "buzzed")],
        dirty_deeds=bool(options.get("dirty_deeds", False)),
        round_cap=int(options.get("round_cap", 10)),
        draft_keeps=4 if options.get("draft") == "booklet" else 3,
        # a match created before the option existed (its options lack it) played list 1
        card_list=int(options.get("card_list", 1)),
        players=tuple(Player() for _ in range(setup.seats)),
    )


def set_player(state: State, seat: int, player: Player) -> State:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def with_player(state: State, seat: int, **changes: Any) -> State:
    return set_player(state, seat, replace(state.players[seat], **changes))


def _take(player: Player, zone: str, card_id: str) -> Player:
    items = getattr(player, zone)
    return replace(player, **{zone: tuple(c for c in items if c != card_id)})


def _put(player: Player, zone: str, card_id: str) -> Player:
    player = replace(player, **{zone: (*getattr(player, zone), card_id)})
    if zone == "tavern" and card_id not in player.seen:
        player = replace(player, seen=(*player.seen, card_id))
    return player


SEAT_ZONES = ("hand", "packet", "tavern")
HIDDEN_ZONES = ("hand", "packet")


def private_move(src: str, dest: str) -> bool:
    """Hand to hand (a steal, a trade) or within a seat's own hidden zones: named to the receiver alone."""
    return src in HIDDEN_ZONES and dest in HIDDEN_ZONES


def move(state: State, card_id: str, owner: int, src: str, dest_owner: int, dest: str) -> State:
    """One card from one zone to another: a seat's hand, packet or Tavern, its deck's discard, the box.
    A card leaving a hand is forgotten by the seats it was shown to that see it move: all of them when
    it goes face up, only the receiver when it goes to another hand unseen (private_move); the seat
    it left knows where it went."""
    if src == "hand" and state.shown:
        unseen = private_move(src, dest)
        kept = tuple(s for s in state.shown if s[0] != card_id or (unseen and s[1] != dest_owner))
        state = replace(state, shown=kept)
    if src == dest == "hand" and owner != dest_owner and (card_id, owner, dest_owner) not in state.shown:
        # the giver (or the one stolen from) knows where its card went, as if shown it there
        state = replace(state, shown=(*state.shown, (card_id, owner, dest_owner)))
    if src in SEAT_ZONES:
        state = set_player(state, owner, _take(state.players[owner], src, card_id))
    if dest in SEAT_ZONES:
        return set_player(state, dest_owner, _put(state.players[dest_owner], dest, card_id))
    if dest == "discard":
        deck = card(card_id).deck
        return replace(state, discards={**state.discards, deck: (*state.discards.get(deck, ()), card_id)})
    return replace(state, removed=(*state.removed, card_id))


def all_players(state: State, **changes: Any) -> State:
    return replace(state, players=tuple(replace(p, **changes) for p in state.players))


def _dealt(state: State, e: ev.Dealt) -> State:
    deck = state.decks[e.deck]
    state = replace(state, decks={**state.decks, e.deck: deck[len(e.cards):]})
    player = state.players[e.seat]
    return with_player(state, e.seat, **{e.to: (*getattr(player, e.to), *e.cards)})


def _reshuffled(state: State, e: ev.Reshuffled) -> State:
    return replace(
        state,
        decks={**state.decks, e.deck: (*state.decks[e.deck], *e.order)},
        discards={**state.discards, e.deck: ()},
    )


def _draft_step(state: State, e: ev.DraftStep) -> State:
    packets = [p.packet for p in state.players]
    players = state.players
    if e.passed:
        packets = [packets[(seat - 1) % state.seats] for seat in range(state.seats)]
        if state.seats == 2:
            players = tuple(replace(p, passed=(*p.passed, p.packet)) for p in players)
    players = tuple(replace(p, packet=packets[i], picked=False) for i, p in enumerate(players))
    return replace(state, players=players, draft_step=state.draft_step + 1)


def _round_began(state: State, e: ev.RoundBegan) -> State:
    players = tuple(replace(p, seen=p.tavern) for p in state.players)
    return replace(state, players=players, round=e.round, server=e.server, used=())


def _phase_began(state: State, e: ev.PhaseBegan) -> State:
    state = all_players(state, done=False)
    return replace(state, phase=e.phase, turn=-1, opened=())


def _card_played(state: State, e: ev.CardPlayed) -> State:
    state = move(state, e.card, e.seat, "hand", e.seat, "tavern")
    return set_player(state, e.seat, booked(state.players[e.seat], "spent", -e.paid))


def _offer_opened(state: State, e: ev.OfferOpened) -> State:
    return replace(state, drafts=(*state.drafts, ev.Offer(id=e.id, by=e.by, to=e.to)), next_offer=e.id + 1,
                   opened=(*state.opened, (e.by, e.to)))


def _edit_draft(state: State, offer_id: int, **changes: Any) -> State:
    drafts = tuple(replace(d, **changes) if d.id == offer_id else d for d in state.drafts)
    return replace(state, drafts=drafts)


def _card_added(state: State, e: ev.OfferCardAdded) -> State:
    draft = next(d for d in state.drafts if d.id == e.offer)
    field = ("give_" if e.owner == e.by else "take_") + e.zone
    state = _edit_draft(state, e.offer, **{field: (*getattr(draft, field), e.card)})
    return _show(state, e.card, e.owner, (e.by, e.to)) if e.zone == "hand" else state


def _show(state: State, card_id: str, owner: int, seats: tuple[int, int]) -> State:
    """A hand card put in an offer is shown to the other seat of the trade."""
    other = seats[1] if owner == seats[0] else seats[0]
    if (card_id, other, owner) in state.shown:
        return state
    return replace(state, shown=(*state.shown, (card_id, other, owner)))


def _offer(state: State, e: ev.Offer) -> State:
    """An offer sent: out of the drafts (a rules version 1 offer had none) into the open offers."""
    state = replace(state, drafts=tuple(d for d in state.drafts if d.id != e.id),
                    offers=(*state.offers, e), next_offer=max(state.next_offer, e.id + 1))
    for card_id in e.give_hand:
        state = _show(state, card_id, e.by, (e.by, e.to))
    return state


def _offer_withdrawn(state: State, e: ev.OfferWithdrawn) -> State:
    return replace(state, drafts=tuple(d for d in state.drafts if d.id != e.offer),
                   offers=tuple(o for o in state.offers if o.id != e.offer))


def gives(offer: ev.Offer) -> tuple[str, ...]:
    return (*offer.give_hand, *offer.give_tavern)


def takes(offer: ev.Offer) -> tuple[str, ...]:
    return (*offer.take_hand, *offer.take_tavern)


def _hand_over(state: State, card_id: str, src: int, dest: int) -> State:
    """A traded card keeps its place: from a hand to a hand, from a Tavern to a Tavern."""
    zone = "hand" if card_id in state.players[src].hand else "tavern"
    return move(state, card_id, src, zone, dest, zone)


def _offer_answered(state: State, e: ev.OfferAnswered) -> State:
    offer = next(o for o in state.offers if o.id == e.offer)
    state = replace(state, offers=tuple(o for o in state.offers if o.id != e.offer))
    if not e.accepted:
        return state
    for card_id in gives(offer):
        state = _hand_over(state, card_id, offer.by, offer.to)
    for card_id in takes(offer):
        state = _hand_over(state, card_id, offer.to, offer.by)
    state = set_player(state, offer.by, booked(state.players[offer.by], "trades", -offer.gold))
    return set_player(state, offer.to, booked(state.players[offer.to], "trades", offer.gold))


def _counted(player: Player, gain: int) -> Player:
    """The Till's Gold, the Patrons' share apart from the Goods' and Staff's."""
    patrons = sum(card_income(c, player.tavern) for c in player.tavern if card(c).kind == "patron")
    return booked(booked(player, "patrons", patrons), "goods_staff", gain - patrons)


def _income(state: State, e: ev.IncomeCounted) -> State:
    players = tuple(_counted(p, g) for p, g in zip(state.players, e.gains, strict=True))
    return replace(state, players=players, last_income=e.gains)


def _deed_declared(state: State, e: ev.DeedDeclared) -> State:
    if e.ability:
        state = replace(state, used=(*state.used, e.card))
    else:
        state = move(state, e.card, e.seat, "hand", e.seat, "discard")
    return replace(state, pending=e if e.target not in (-1, e.seat) else None)


def _deed_answered(state: State, e: ev.DeedAnswered) -> State:
    if e.cancel:
        state = move(state, e.cancel, e.seat, "hand", e.seat, "discard")
    return replace(state, pending=None)


def evolve(state: State, e: Any) -> State:
    match e:
        case ev.MatchSetUp():
            return replace(state, decks=dict(e.decks), discards={k: () for k in e.decks}, server=e.server)
        case ev.Dealt():
            return _dealt(state, e)
        case ev.Reshuffled():
            return _reshuffled(state, e)
        case ev.Picked():
            state = move(state, e.card, e.seat, "packet", e.seat, "hand")
            return with_player(state, e.seat, picked=True)
        case ev.DraftStep():
            return _draft_step(state, e)
        case ev.MulliganChosen():
            return with_player(state, e.seat, mulligan="take" if e.take else "keep")
        case ev.CardMoved():
            return move(state, e.card, e.owner, e.src, e.dest_owner, e.dest)
        case ev.RoundBegan():
            return _round_began(state, e)
        case ev.PhaseBegan():
            return _phase_began(state, e)
        case ev.CardPlayed():
            return _card_played(state, e)
        case ev.SeatDone():
            return with_player(state, e.seat, done=True)
        case ev.OfferOpened():
            return _offer_opened(state, e)
        case ev.OfferCardAdded():
            return _card_added(state, e)
        case ev.OfferGoldSet():
            return _edit_draft(state, e.offer, gold=e.gold)
        case ev.Offer():
            return _offer(state, e)
        case ev.OfferWithdrawn():
            return _offer_withdrawn(state, e)
        case ev.OfferAnswered():
            return _offer_answered(state, e)
        case ev.GoldChanged():  # only Dirty Deeds change Gold so
            return set_player(state, e.seat, booked(state.players[e.seat], "deeds", e.amount))
        case ev.IncomeCounted():
            return _income(state, e)
        case ev.TurnBegan():
            return replace(state, turn=e.seat)
        case ev.DeedDeclared():
            return _deed_declared(state, e)
        case ev.DeedAnswered():
            return _deed_answered(state, e)
        case ev.TieRound():
            return replace(state, tie_rounds=e.count)
        case ev.MatchEnded():
            return replace(state, winners=e.winners, end_reason=e.reason, phase="over", turn=-1, pending=None)
    raise TypeError(f"unknown event {e!r}")


def next_server(state: State) -> int:
    return left_of(state.server, state.seats)
