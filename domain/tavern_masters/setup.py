"""How to begin: the shuffle, the opening draft (or solo's 4-3-2-1 draw) and the mulligan."""

from __future__ import annotations

from domain.kernel import Rng, require
from domain.tavern_masters import events as ev
from domain.tavern_masters.builder import Builder, turn_order
from domain.tavern_masters.commands import KeepHand, Mulligan, PickCard, TMCommand
from domain.tavern_masters.content import card, deck_cards
from domain.tavern_masters.phases import start_round
from domain.tavern_masters.state import State

DRAFT_PACKET = 4
DRAFT_PICKS = 3
CHEAP = 2  # a Drink costing this much or less makes a hand playable


def solo_setup(state: State) -> bool:
    """A single seat draws 4-3-2-1 ("How To Begin - Single Player"); several seats draft, whatever the mode:
    the Challenge Chart is "an alternate mode of playing with multiple" players, not another setup."""
    return state.seats == 1


def begin(state: State, rng: Rng) -> list:
    decks = {deck: tuple(rng.shuffle(deck_cards(deck, state.dirty_deeds, state.card_list)))
             for deck in ("tavern", "patron", "deed")}
    b = Builder(state)
    b.emit(ev.MatchSetUp(decks=decks, server=0), ev.PhaseBegan(phase="draft"))
    b.deal_all("tavern", DRAFT_PACKET, "packet", rng)
    return b.events


def needs_mulligan(state: State, seat: int) -> bool:
    """A hand with no Drink costing 2 Gold or less may be mulliganed (once, before round 1)."""
    player = state.players[seat]
    cheap = any(card(c).goods_type == "Drink" and card(c).cost <= CHEAP for c in player.hand)
    return player.mulligan == "" and not cheap


def undecided(state: State, seat: int) -> bool:
    """Every seat says whether it mulligans, so that keeping tells nobody whether it could have."""
    return state.players[seat].mulligan == ""


def decide_pick(state: State, command: PickCard, seat: int) -> list:
    player = state.players[seat]
    require(state.phase == "draft", "not_drafting", "the opening draft is over")
    require(not player.picked, "already_picked", "you have kept a card at this step; wait for the others")
    require(command.card in player.packet, "card_not_in_packet", "that card is not in front of you")
    return [ev.Picked(seat=seat, card=command.card)]


def decide_mulligan(state: State, command: Mulligan | KeepHand, seat: int) -> list:
    require(state.phase == "mulligan", "not_mulligan", "the mulligan comes right after the draft")
    require(undecided(state, seat), "no_mulligan", "you have chosen already")
    if isinstance(command, Mulligan):
        require(needs_mulligan(state, seat), "no_mulligan", "your hand holds a Drink costing 2 Gold or less")
    return [ev.MulliganChosen(seat=seat, take=isinstance(command, Mulligan))]


def legal_setup(state: State, seat: int) -> list[TMCommand]:
    player = state.players[seat]
    if state.phase == "draft" and not player.picked:
        return [PickCard(card=c) for c in player.packet]
    if state.phase == "mulligan" and undecided(state, seat):
        return [Mulligan(), KeepHand()] if needs_mulligan(state, seat) else [KeepHand()]
    return []


def _discard_packets(b: Builder) -> None:
    for seat, player in enumerate(b.state.players):
        for c in player.packet:
            b.emit(ev.CardMoved(card=c, owner=seat, src="packet", dest_owner=seat, dest="discard"))


def settle_draft(b: Builder, rng: Rng) -> bool:
    """When every seat has kept a card: pass left (or draw anew in solo), or end the draft."""
    state = b.state
    if not all(p.picked for p in state.players):
        return False
    picks = DRAFT_PICKS if solo_setup(state) else state.draft_keeps  # the booklet keeps the packet's last card
    last = state.draft_step == picks - 1
    if solo_setup(state):
        _discard_packets(b)
        if last:
            b.deal_all("tavern", 1, "hand", rng)
        else:
            b.emit(ev.DraftStep(passed=False))
            b.deal_all("tavern", DRAFT_PACKET - b.state.draft_step, "packet", rng)
    elif last:
        _discard_packets(b)
    else:
        b.emit(ev.DraftStep(passed=True))
    if last:
        b.emit(ev.PhaseBegan(phase="mulligan"))
    return True


def settle_mulligan(b: Builder, rng: Rng) -> bool:
    """Once every seat has chosen, the mulligans are drawn in turn order; round 1 begins."""
    state = b.state
    if any(undecided(state, seat) for seat in range(state.seats)):
        return False
    for seat in turn_order(state):
        hand = b.state.players[seat].hand
        if b.state.players[seat].mulligan == "take":
            for c in hand:
                b.emit(ev.CardMoved(card=c, owner=seat, src="hand", dest_owner=seat, dest="discard"))
            b.draw(seat, "tavern", len(hand), "hand", rng)
    start_round(b, 1, state.server, rng)
    return True
