"""The four dignitaries: who may be activated, what each costs, where it may go, what it does.

A dignitary is activated through the tavern right (one in the tavern where you placed your
customer, or any one with Influence), or once a turn by discarding two privilege tokens. Either
way: pay, move it to another tavern holding fewer than two, apply its skill (the Notary and the
Gob'Trotter act in the tavern of arrival). Never the same dignitary twice in a turn.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from domain.kernel import require
from domain.taverna import events as ev
from domain.taverna.board import DEED_TOKENS, can_host, deeds_held, defs, destinations
from domain.taverna.commands import ActivateDignitary
from domain.taverna.content import DIGNITARIES, GUILDS, PEOPLES
from domain.taverna.spells import open_window, take_favours
from domain.taverna.state import Ctx, State, where_is
from domain.taverna.tracks import can_rise, gain_level

PRIVILEGES_FOR_EXTRA = 2
TAKEOVER_SURCHARGE = 3
GOBTROTTER = {1: (3, 3), 2: (5, 6)}  # tokens: (cost, points)
PRINCESS = {1: 3, 2: 5, 3: 7}  # favours: cost
AMBASSADOR = {1: 3, 2: 6, 3: 9}  # levels: cost


def via(state: State, seat: int, dignitary: str) -> str:
    """The right an activation uses: the tavern right when it covers this dignitary, else privileges;
    "" when neither does. Using the narrower right first never loses an option."""
    turn = state.turn
    if turn is None or turn.seat != seat or turn.responders or dignitary in turn.dignitaries:
        return ""
    # the tavern right follows the placement; two privileges work "at any time during your turn"
    placed = turn.step == "act"
    here = placed and dignitary in state.taverns[turn.tavern].dignitaries
    if placed and not turn.tavern_right_used and (here or turn.influence):
        return "tavern"
    once = not state.repeat_privilege_right
    if not (once and turn.privilege_right_used) and state.players[seat].privileges >= PRIVILEGES_FOR_EXTRA:
        return "privileges"
    return ""


# --- each dignitary's choices at a destination: (command, cost) --------------------------------------


def notary_cost(state: State, seat: int, tavern: str, space: int) -> int | None:
    """The price of an unowned deed, or price + 3 for an opponent's (never their last one on the
    board); None when the space cannot be bought: yours, or you hold a deed in that tavern already
    (unless the option ``notary_second_deed`` reads "one property deed in each tavern" as setup's),
    or all 5 of your deed tokens are on the board (RULINGS.md 16)."""
    deeds = state.taverns[tavern].deeds
    owner, price = deeds[space], defs(state)[tavern].deeds[space].price
    if owner == seat or (seat in deeds and not state.notary_second_deed):
        return None
    if deeds_held(state, seat) >= DEED_TOKENS:
        return None
    if owner < 0:
        return price
    if deeds_held(state, owner) <= 1:
        return None
    return price + TAKEOVER_SURCHARGE


def _notary(state: State, seat: int, tavern: str) -> list[tuple[ActivateDignitary, int]]:
    out = []
    for space in range(len(state.taverns[tavern].deeds)):
        cost = notary_cost(state, seat, tavern, space)
        if cost is not None:
            out.append((ActivateDignitary(dignitary="notary", tavern=tavern, space=space), cost))
    return out


def _gobtrotter(state: State, seat: int, tavern: str) -> list[tuple[ActivateDignitary, int]]:
    kinds = [g for g in GUILDS if can_host(state, tavern, g)]
    return [
        (ActivateDignitary(dignitary="gobtrotter", tavern=tavern, guilds=combo), GOBTROTTER[n][0])
        for n in GOBTROTTER
        for combo in combinations(kinds, n)
    ]


def _princess(state: State, seat: int, tavern: str) -> list[tuple[ActivateDignitary, int]]:
    return [
        (ActivateDignitary(dignitary="princess", tavern=tavern, favours=combo), PRINCESS[n])
        for n in PRINCESS
        for combo in combinations(state.castle, n)
    ]


def _ambassador(state: State, seat: int, tavern: str) -> list[tuple[ActivateDignitary, int]]:
    return [
        (ActivateDignitary(dignitary="ambassador", tavern=tavern, peoples=combo), AMBASSADOR[n])
        for n in AMBASSADOR
        for combo in combinations_with_replacement(PEOPLES, n)
        if all(can_rise(state, seat, p, combo.count(p)) for p in set(combo))
    ]


SKILLS = {"notary": _notary, "gobtrotter": _gobtrotter, "princess": _princess, "ambassador": _ambassador}


def legal_activations(state: State, seat: int) -> list[ActivateDignitary]:
    coins = state.players[seat].coins
    return [
        command
        for dignitary in DIGNITARIES
        if via(state, seat, dignitary)
        for tavern in destinations(state, dignitary)
        for command, cost in SKILLS[dignitary](state, seat, tavern)
        if cost <= coins
    ]


def activate(state: State, command: ActivateDignitary, seat: int) -> list:
    turn = state.turn
    require(command.dignitary in DIGNITARIES, "no_such_dignitary", "no dignitary {dignitary!r}",
            dignitary=command.dignitary)
    assert turn is not None
    require(command.dignitary not in turn.dignitaries, "dignitary_used", "not the same dignitary twice a turn")
    right = via(state, seat, command.dignitary)
    require(right, "no_activation_right", "the dignitary is not in your tavern and you cannot spend two privileges")
    require(command.tavern in state.taverns, "no_such_tavern", "no tavern {tavern!r}", tavern=command.tavern)
    require(command.tavern != where_is(state, command.dignitary), "same_tavern", "the dignitary must move")
    require(command.tavern in destinations(state, command.dignitary), "tavern_full", "two dignitaries already there")
    choices = dict(SKILLS[command.dignitary](state, seat, command.tavern))
    require(command in choices, "bad_target", "not a choice this dignitary offers there")
    cost = choices[command]
    require(cost <= state.players[seat].coins, "cannot_afford", "that costs {cost}", cost=cost)
    ctx = Ctx(state)
    if right == "privileges":
        ctx.emit(ev.Gained(seat=seat, reason="extra dignitary", privileges=-PRIVILEGES_FOR_EXTRA))
    notary = command.dignitary == "notary"
    ctx.emit(ev.DignitaryActivated(seat=seat, dignitary=command.dignitary, tavern=command.tavern,
                                   cost=0 if notary else cost, via=right))
    EFFECTS[command.dignitary](ctx, seat, command, cost)
    open_window(ctx, "dignitary")
    return ctx.events


def _notary_effect(ctx: Ctx, seat: int, command: ActivateDignitary, cost: int) -> None:
    """Buy the deed: an opponent whose deed is taken gets half the money spent, rounded down, and keeps
    the points the deed gave; the buyer scores the deed's points."""
    previous = ctx.state.taverns[command.tavern].deeds[command.space]
    deed = defs(ctx.state)[command.tavern].deeds[command.space]
    ctx.emit(ev.DeedBought(seat=seat, tavern=command.tavern, space=command.space, price=cost, points=deed.points,
                           previous=previous, refund=cost // 2 if previous >= 0 else 0))


def _gobtrotter_effect(ctx: Ctx, seat: int, command: ActivateDignitary, cost: int) -> None:
    for guild in command.guilds:
        ctx.emit(ev.GuildPlaced(seat=seat, tavern=command.tavern, guild=guild))
    ctx.emit(ev.Gained(seat=seat, reason="gobtrotter", points=GOBTROTTER[len(command.guilds)][1]))


def _princess_effect(ctx: Ctx, seat: int, command: ActivateDignitary, cost: int) -> None:
    take_favours(ctx, seat, command.favours)


def _ambassador_effect(ctx: Ctx, seat: int, command: ActivateDignitary, cost: int) -> None:
    for people in command.peoples:
        gain_level(ctx, seat, people)


EFFECTS = {
    "notary": _notary_effect, "gobtrotter": _gobtrotter_effect,
    "princess": _princess_effect, "ambassador": _ambassador_effect,
}
