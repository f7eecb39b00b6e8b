"""The Dirty Deeds expansion's phase, between the Night and Counting the Till.

Each seat in turn, clockwise from the left of the Server, draws Dirty Deeds cards (3 in the first
round, 1 after), then plays deeds whose Agent is in its Tavern and uses each Patron's Dirty Deed
ability once a round. A deed aimed at another seat waits for that seat's answer: let it be, or
cancel it with a cancelling card (which needs no Agent).
"""

from __future__ import annotations

from domain.kernel import Rng, require
from domain.tavern_masters import events as ev
from domain.tavern_masters.builder import Builder, turn_order
from domain.tavern_masters.commands import AnswerDeed, Done, PlayDeed, TMCommand
from domain.tavern_masters.content import Effect, card
from domain.tavern_masters.effects import is_cancel, resolve, targets
from domain.tavern_masters.phases import count_till
from domain.tavern_masters.state import State
from domain.tavern_masters.terms import any_matches

FIRST_DRAW = 3
LATER_DRAW = 1


def begin_turn(b: Builder, seat: int, rng: Rng) -> None:
    b.emit(ev.TurnBegan(seat=seat))
    b.draw(seat, "deed", FIRST_DRAW if b.state.round == 1 else LATER_DRAW, "hand", rng)


def begin_phase(b: Builder, rng: Rng) -> None:
    b.emit(ev.PhaseBegan(phase="deeds"))
    begin_turn(b, turn_order(b.state)[0], rng)


def usable_deed(state: State, seat: int, card_id: str) -> Effect | None:
    """The deed a card gives this seat now: a Dirty Deeds card in hand whose Agent is in the Tavern,
    or an unused ability of a Patron in the Tavern; None otherwise."""
    player = state.players[seat]
    defn = card(card_id)
    if defn.deed is None or defn.deed.op == "cancel":
        return None
    if defn.kind == "deed" and card_id in player.hand and any_matches(player.tavern, defn.agent):
        return defn.deed
    if defn.kind == "patron" and card_id in player.tavern and card_id not in state.used:
        return defn.deed
    return None


def decide_deed(b: Builder, command: PlayDeed, seat: int, rng: Rng) -> None:
    state = b.state
    require(state.phase == "deeds", "not_deeds_phase", "deeds are done in the Dirty Deeds phase")
    require(state.turn == seat, "not_your_turn", "it is another seat's Dirty Deeds turn")
    require(state.pending is None, "deed_pending", "the last deed waits for its target's answer")
    require(usable_deed(state, seat, command.card) is not None, "deed_not_usable",
            "not a deed in your hand with its Agent in your Tavern, nor an unused Patron ability there")
    effect = usable_deed(state, seat, command.card)
    assert effect is not None
    aim = (command.target, command.target_card, command.own_card)
    require(aim in set(targets(state, seat, effect)), "bad_target", "that deed cannot be aimed there")
    declared = ev.DeedDeclared(seat=seat, card=command.card, ability=card(command.card).kind == "patron",
                               target=command.target, target_card=command.target_card, own_card=command.own_card)
    b.emit(declared)
    if b.state.pending is None:  # nobody else to answer: it happens at once
        resolve(b, seat, effect, declared.target, declared.target_card, declared.own_card, rng)


def decide_answer(b: Builder, command: AnswerDeed, seat: int, rng: Rng) -> None:
    state = b.state
    pending = state.pending
    require(pending is not None and pending.target == seat, "no_deed_to_answer", "no deed is aimed at you")
    if command.cancel:
        require(command.cancel in state.players[seat].hand and is_cancel(command.cancel), "not_a_cancel",
                "cancel with a cancelling Dirty Deeds card from your hand")
    assert pending is not None
    b.emit(ev.DeedAnswered(seat=seat, cancel=command.cancel))
    if not command.cancel:
        effect = card(pending.card).deed
        assert effect is not None
        resolve(b, pending.seat, effect, pending.target, pending.target_card, pending.own_card, rng)


def decide_done(state: State, seat: int) -> list:
    require(state.turn == seat, "not_your_turn", "it is another seat's Dirty Deeds turn")
    require(state.pending is None, "deed_pending", "the last deed waits for its target's answer")
    return [ev.SeatDone(seat=seat)]


def legal_deeds(state: State, seat: int) -> list[TMCommand]:
    pending = state.pending
    if pending is not None:
        if pending.target != seat:
            return []
        cancels = sorted({c for c in state.players[seat].hand if is_cancel(c)})
        return [AnswerDeed(), *(AnswerDeed(cancel=c) for c in cancels)]
    if state.turn != seat:
        return []
    player = state.players[seat]
    out: list[TMCommand] = []
    for c in (*player.hand, *player.tavern):
        effect = usable_deed(state, seat, c)
        if effect is not None:
            aims = targets(state, seat, effect)
            out += [PlayDeed(card=c, target=t, target_card=tc, own_card=oc) for t, tc, oc in aims]
    return [*out, Done()]


def settle_deeds(b: Builder, rng: Rng) -> bool:
    """After a seat's turn: the next seat's turn, or Counting the Till."""
    state = b.state
    if state.turn < 0 or not state.players[state.turn].done or state.pending is not None:
        return False
    order = turn_order(state)
    position = order.index(state.turn)
    if position + 1 < len(order):
        begin_turn(b, order[position + 1], rng)
    else:
        count_till(b)
    return True
