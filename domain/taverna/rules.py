"""decide and legal: setup (shuffles, chosen peoples, deed rounds), the turn's order, the end.

The topics live in their own modules: customers.py (pick and place), dignitaries.py, spells.py,
favours.py, scoring.py; this module says who may act when and hands each command to its rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Command, RulesError, Seat, require
from domain.kernel.rng import Rng
from domain.taverna import customers, deck, dignitaries, favours, scoring, spells, windows
from domain.taverna import events as ev
from domain.taverna.board import defs
from domain.taverna.commands import (
    ActivateDignitary,
    BuyDeed,
    CastSpell,
    ChoosePeople,
    ChooseScoring,
    EndTurn,
    Pass,
    PassDeed,
    PickCustomer,
    PlaceCustomer,
    SellSpell,
    SetAutoPass,
    TavernaCommand,
    UseFavour,
)
from domain.taverna.content import CUSTOMERS, DIGNITARIES, FAVOURS, PEOPLES, SPELLS
from domain.taverna.state import Ctx, State, Turn

HAND = 3
CASTLE = 5


# --- setup ---------------------------------------------------------------------------------------------


def begin(state: State, rng: Rng) -> list:
    """Shuffle, place the dignitaries and the favours, deal three spells each, reveal four customers."""
    ctx = Ctx(state)
    spell_ids = [s for s in SPELLS if state.curse or not SPELLS[s].curse]
    cards = [c for c, card in CUSTOMERS.items() if card.players <= state.seats]
    ctx.emit(ev.Shuffled(spells=tuple(rng.shuffle(spell_ids)), customers=tuple(rng.shuffle(cards)),
                         favours=tuple(rng.shuffle(list(FAVOURS)))))
    small = [t.id for t in defs(state).values() if t.size == "small"]
    ctx.emit(ev.DignitariesPlaced(places=dict(zip(rng.shuffle(DIGNITARIES), small, strict=True))))
    ctx.emit(ev.FavoursRevealed(favours=ctx.state.favour_reserve[:CASTLE]))
    for seat in range(state.seats):
        for _ in range(HAND):
            deck.draw_spell(ctx, seat)
    customers.refill(ctx)
    first = CUSTOMERS[ctx.state.row[0]].peoples
    if state.seats > 2 and len(first) == 1:  # the first card revealed names the King's people
        ctx.emit(ev.PeopleChosen(seat=-1, people=first[0], role="king"))
        _deed_rounds(ctx)
    return ctx.events


def _deed_rounds(ctx: Ctx) -> None:
    """One deed each in turn order, then a second each in reverse order."""
    order = list(range(ctx.state.seats))
    ctx.emit(ev.DeedRoundsBegan(order=tuple(order + order[::-1])))


def _people_choices(state: State, seat: Seat) -> list[ChoosePeople]:
    """Three or more seats: the first player picks between a dual first card's peoples. Two seats:
    the first player names the King's people, the second a different one for the Queen."""
    if state.phase != "people":
        return []
    if state.seats > 2:
        return [ChoosePeople(people=p) for p in CUSTOMERS[state.row[0]].peoples] if seat == 0 else []
    if not state.king:
        return [ChoosePeople(people=p) for p in PEOPLES] if seat == 0 else []
    return [ChoosePeople(people=p) for p in PEOPLES if p != state.king] if seat == 1 else []


def _choose_people(state: State, command: ChoosePeople, seat: Seat) -> list:
    require(state.phase == "people", "wrong_phase", "the chosen peoples are set")
    choices = _people_choices(state, seat)
    require(choices, "not_your_turn", "another seat chooses the people now")
    require(command in choices, "bad_people", "not a people you may choose now")
    ctx = Ctx(state)
    ctx.emit(ev.PeopleChosen(seat=seat, people=command.people, role="queen" if state.king else "king"))
    if state.seats > 2 or ctx.state.queen:
        _deed_rounds(ctx)
    return ctx.events


def _deed_choices(state: State, seat: Seat) -> list[TavernaCommand]:
    if state.phase != "deeds" or state.deed_order[0] != seat:
        return []
    coins = state.players[seat].coins
    buys: list[TavernaCommand] = [
        BuyDeed(tavern=t, space=i)
        for t, tavern in state.taverns.items()
        if seat not in tavern.deeds
        for i, owner in enumerate(tavern.deeds)
        if owner < 0 and defs(state)[t].deeds[i].price <= coins
    ]
    return buys or [PassDeed()]  # ours: a buyer who can afford no deed passes


def _buy_deed(state: State, command: BuyDeed, seat: Seat) -> list:
    _deed_turn(state, seat)
    tavern = state.taverns.get(command.tavern)
    require(tavern is not None and 0 <= command.space < len(tavern.deeds), "no_such_deed", "no such deed space")
    assert tavern is not None
    require(tavern.deeds[command.space] < 0, "deed_taken", "that deed is owned")
    require(seat not in tavern.deeds, "one_deed_per_tavern", "a player holds one deed per tavern")
    deed = defs(state)[command.tavern].deeds[command.space]
    require(deed.price <= state.players[seat].coins, "cannot_afford", "the deed costs {price}", price=deed.price)
    return [ev.DeedBought(seat=seat, tavern=command.tavern, space=command.space, price=deed.price, points=deed.points)]


def _pass_deed(state: State, command: PassDeed, seat: Seat) -> list:
    _deed_turn(state, seat)
    require(_deed_choices(state, seat) == [PassDeed()], "must_buy", "you can afford a deed: buy one")
    return [ev.DeedPassed(seat=seat)]


def _deed_turn(state: State, seat: Seat) -> None:
    require(state.phase == "deeds", "wrong_phase", "deeds are bought at setup")
    require(state.deed_order[0] == seat, "not_your_turn", "another seat buys now")


# --- the turn --------------------------------------------------------------------------------------------


def _turn(state: State, seat: Seat, step: str, *or_steps: str) -> Turn:
    """The seat's own turn at (one of) the step(s) the command belongs to, with no response pending."""
    require(state.phase == "turns" and state.turn is not None, "wrong_phase", "not during the turns")
    turn = state.turn
    assert turn is not None
    require(turn.seat == seat, "not_your_turn", "another seat plays now")
    require(not turn.responders, "awaiting_responses", "opponents may answer with a spell first")
    require(not turn.window_seats, "awaiting_favours", "other seats may use royal favours first")
    require(turn.step in (step, *or_steps), "wrong_step", "this comes at the {step} step of the turn", step=step)
    return turn


def _pick(state: State, command: PickCustomer, seat: Seat) -> list:
    _turn(state, seat, "pick")
    return customers.pick(state, command, seat)


def _place(state: State, command: PlaceCustomer, seat: Seat) -> list:
    _turn(state, seat, "place")
    return customers.place(state, command, seat)


def _activate(state: State, command: ActivateDignitary, seat: Seat) -> list:
    _turn(state, seat, "pick", "place", "act")  # two privileges: "at any time during your turn"
    return dignitaries.activate(state, command, seat)


def _sell(state: State, command: SellSpell, seat: Seat) -> list:
    _turn(state, seat, "pick", "place", "act")  # "at any time during your turn"
    return spells.sell(state, command, seat)


def _favour(state: State, command: UseFavour, seat: Seat) -> list:
    require(state.phase == "turns" and state.turn is not None, "wrong_phase", "not during the turns")
    turn = state.turn
    assert turn is not None
    require(turn.seat == seat or seat in turn.window_seats, "not_your_turn",
            "royal favours are used on your own turn, or in another's when a favour window asks you")
    require(not turn.responders, "awaiting_responses", "opponents may answer with a spell first")
    require(seat in turn.window_seats or not turn.window_seats, "awaiting_favours",
            "other seats may use royal favours first")
    return favours.use(state, command, seat)


def _cast(state: State, command: CastSpell, seat: Seat) -> list:
    if spells.asked(state, seat):
        return spells.answer(state, seat, command)
    _turn(state, seat, "act")
    return spells.cast(state, command, seat)


def _pass(state: State, command: Pass, seat: Seat) -> list:
    if state.turn is not None and seat in state.turn.window_seats:
        return windows.pass_window(state, seat, command.always)
    return spells.answer(state, seat, None, always=command.always)


def _set_auto_pass(state: State, command: SetAutoPass, seat: Seat) -> list:
    _turn(state, seat, "act")
    require(command.on != state.players[seat].auto_pass, "unchanged", "always pass is set so already")
    return [ev.AutoPassSet(seat=seat, on=command.on)]


def _end_turn(state: State, command: EndTurn, seat: Seat) -> list:
    _turn(state, seat, "act")
    return windows.end_turn(state, seat)


def _scoring(state: State, command: ChooseScoring, seat: Seat) -> list:
    require(state.phase == "royal", "wrong_phase", "the royal scoring comes at the end")
    require(state.royal_order[0] == seat, "not_your_turn", "another seat chooses now")
    return scoring.choose(state, command, seat)


_RULES: dict[type, Callable[[State, Any, Seat], list]] = {
    ChoosePeople: _choose_people, BuyDeed: _buy_deed, PassDeed: _pass_deed, PickCustomer: _pick,
    PlaceCustomer: _place, ActivateDignitary: _activate, CastSpell: _cast, SellSpell: _sell, UseFavour: _favour,
    Pass: _pass, SetAutoPass: _set_auto_pass, EndTurn: _end_turn, ChooseScoring: _scoring,
}


def decide(state: State, command: Command, seat: Seat, rng: Rng) -> list:
    require(state.phase != "over", "match_over", "the match is over")
    require(0 <= seat < state.seats, "no_such_seat", "no seat {seat}", seat=seat)
    rule = _RULES.get(type(command))
    if rule is None:
        raise RulesError("unknown_command", "Taverna has no {command}", command=type(command).__name__)
    events = rule(state, command, seat)
    if state.off_turn_favours and state.phase == "turns":
        return windows.settle(state, events)
    return events


def legal(state: State, seat: Seat) -> list[TavernaCommand]:
    phase = state.phase
    if phase == "people":
        return list(_people_choices(state, seat))
    if phase == "deeds":
        return _deed_choices(state, seat)
    if phase == "royal":
        return list(scoring.legal_scorings(state, seat))
    if phase != "turns" or state.turn is None:
        return []
    turn = state.turn
    if turn.responders:
        return [Pass(), Pass(always=True), *spells.legal_casts(state, seat)] if spells.asked(state, seat) else []
    if turn.window_seats:
        return [Pass(), *favours.legal_favours(state, seat)] if seat in turn.window_seats else []
    if turn.seat != seat:
        return []
    sales = [SellSpell(card=c) for c in state.players[seat].hand]
    if turn.step == "pick":
        return [
            *customers.pickable(state), *favours.legal_favours(state, seat),
            *dignitaries.legal_activations(state, seat), *sales,
        ]
    if turn.step == "place":
        return [
            *customers.placements(state), *favours.legal_favours(state, seat),
            *dignitaries.legal_activations(state, seat), *sales,
        ]
    return [
        EndTurn(),
        *dignitaries.legal_activations(state, seat),
        *spells.legal_casts(state, seat),
        *sales,
        *favours.legal_favours(state, seat),
        SetAutoPass(on=not state.players[seat].auto_pass),
    ]

