"""Spells: data (seeds/taverna/spells.json) read by a small effect vocabulary; casting, responses, selling.

Each effect kind says which command fields it needs (``_effect_options``) and what it does (``_apply``).
"""

from __future__ import annotations

from domain.kernel import require
from domain.taverna import events as ev
from domain.taverna.board import can_host, destinations, owners
from domain.taverna.commands import CastSpell, Pass, SellSpell
from domain.taverna.content import DIGNITARIES, GUILDS, PEOPLES, SPELLS, Effect
from domain.taverna.deck import draw_spell
from domain.taverna.state import Ctx, State
from domain.taverna.tracks import can_rise, gain_level

# --- the effect vocabulary: the choices each kind offers ------------------------------------------------


def _effect_options(state: State, seat: int, card: str, effect: Effect) -> list[CastSpell]:
    kind, base = effect.kind, CastSpell(card=card)
    if kind in ("coins", "points", "income"):
        return [base]
    if kind == "privilege":
        return [base] if state.privilege_reserve > 0 else []
    if kind == "draw":
        return [base] if state.spell_deck else []
    if kind == "tax":
        return [base] if any(p.coins for s, p in enumerate(state.players) if s != seat) else []
    if kind == "owner_income":
        tavern = state.turn.tavern if state.turn else ""
        return [base] if tavern and seat in owners(state, tavern) else []
    if kind == "level":
        peoples = [effect.people] if effect.people else list(PEOPLES)
        fixed = bool(effect.people)
        return [CastSpell(card=card, people="" if fixed else p) for p in peoples if can_rise(state, seat, p)]
    if kind == "favour":
        return [CastSpell(card=card, favour=f) for f in state.castle]
    if kind == "guild":
        return [CastSpell(card=card, tavern=t, guild=g) for t in state.taverns for g in GUILDS if can_host(state, t, g)]
    if kind == "move_dignitary":
        return [CastSpell(card=card, dignitary=d, tavern=t) for d in DIGNITARIES for t in destinations(state, d)]
    raise ValueError(f"unknown spell effect {kind!r}")


def spell_options(state: State, seat: int, card: str) -> list[CastSpell]:
    """Every way to cast this card now (empty when its effect is not applicable)."""
    plain = [CastSpell(card=card)]
    options = plain
    for effect in SPELLS[card].effects:
        choices = _effect_options(state, seat, card, effect)
        if not choices:
            return []
        if choices != plain:  # a spell has at most one effect that asks for a choice
            options = choices
    return options


def _apply(ctx: Ctx, seat: int, effect: Effect, command: CastSpell) -> None:
    kind, amount, state = effect.kind, effect.amount, ctx.state
    reason = f"spell {SPELLS[command.card].name}"
    if kind == "coins":
        ctx.emit(ev.Gained(seat=seat, reason=reason, coins=amount))
    elif kind == "points":
        ctx.emit(ev.Gained(seat=seat, reason=reason, points=amount))
    elif kind in ("income", "owner_income"):
        ctx.emit(ev.Gained(seat=seat, reason=reason, coins=state.income))
    elif kind == "privilege":
        ctx.emit(ev.Gained(seat=seat, reason=reason, privileges=min(amount, state.privilege_reserve)))
    elif kind == "draw":
        for _ in range(amount):
            draw_spell(ctx, seat)
    elif kind == "tax":
        for other in range(state.seats):
            paid = min(amount, ctx.state.players[other].coins)
            if other != seat and paid:
                ctx.emit(ev.Gained(seat=other, reason=reason, coins=-paid))
                ctx.emit(ev.Gained(seat=seat, reason=reason, coins=paid))
    elif kind == "level":
        gain_level(ctx, seat, effect.people or command.people)
    elif kind == "favour":
        take_favours(ctx, seat, (command.favour,))
    elif kind == "guild":
        ctx.emit(ev.GuildPlaced(seat=seat, tavern=command.tavern, guild=command.guild))
    elif kind == "move_dignitary":
        ctx.emit(ev.DignitaryMoved(seat=seat, dignitary=command.dignitary, tavern=command.tavern))


def take_favours(ctx: Ctx, seat: int, favours: tuple[str, ...]) -> None:
    """Take face-up royal favours, then refill the castle from the reserve while it lasts."""
    for favour in favours:
        ctx.emit(ev.FavourTaken(seat=seat, favour=favour))
    refill = ctx.state.favour_reserve[: len(favours)]
    if refill:
        ctx.emit(ev.FavoursRevealed(favours=refill))


# --- who may cast what, and when --------------------------------------------------------------------


def asked(state: State, seat: int) -> bool:
    """Whether the open prompt waits for this seat's sealed answer."""
    turn = state.turn
    return (
        state.phase == "turns" and turn is not None and seat in turn.responders
        and all(a.seat != seat for a in state.answers)
    )


def castable(state: State, seat: int) -> list[str]:
    """The cards this seat may cast now: on its own turn one spell (two with the favour) after placing;
    during an opponent's turn an instant spell of the moment, when asked and not yet cast this turn."""
    turn = state.turn
    if state.phase != "turns" or turn is None:
        return []
    if turn.responders:
        if not asked(state, seat):
            return []
        cards = [c for c in state.players[seat].hand if SPELLS[c].instant == turn.moment]
    elif seat == turn.seat and turn.step == "act" and turn.spells_cast < turn.spells_allowed:
        cards = list(state.players[seat].hand)
    else:
        return []
    return [c for c in cards if SPELLS[c].cost <= state.players[seat].coins]


def legal_casts(state: State, seat: int) -> list[CastSpell]:
    return [o for card in castable(state, seat) for o in spell_options(state, seat, card)]


# The cheapest instant spell of each moment in the content: whether a seat could pay for one at all is
# judged from its coins (public) and this, never from its hand.
_CHEAPEST = {
    moment: min(s.cost for s in SPELLS.values() if s.instant == moment)
    for moment in {s.instant for s in SPELLS.values() if s.instant}
}


def could_answer(state: State, seat: int, moment: str) -> bool:
    """Judged from what every seat knows: a hand, coins for the cheapest such spell, no cast yet this turn."""
    turn, player = state.turn, state.players[seat]
    assert turn is not None
    return seat not in turn.responded and bool(player.hand) and player.coins >= _CHEAPEST[moment]


def open_window(ctx: Ctx, moment: str) -> None:
    """At a moment some instant spells name, ask every opponent who could still answer, all at once and
    whatever they hold, so that being asked tells nothing; answers are sealed until the last one."""
    turn = ctx.state.turn
    assert turn is not None
    seats = ctx.state.seats
    others = [(turn.seat + k) % seats for k in range(1, seats)]
    prompted = tuple(s for s in others if could_answer(ctx.state, s, moment))
    if prompted:  # it stays open for an answer from every seat asked, "always pass" or not
        legacy = not ctx.state.auto_pass_entries  # recorded before rules version 4: sealed at once
        ctx.emit(ev.Responders(moment=moment, seats=prompted, auto_answered=legacy))
        if legacy:
            _close_when_answered(ctx)


def answer(state: State, seat: int, cast: CastSpell | None, always: bool = False) -> list:
    """A sealed answer: a spell of this moment the seat could cast now, or a pass."""
    require(asked(state, seat), "not_asked", "no spell answer is asked of you now")
    if cast is not None:
        require(cast.card in state.players[seat].hand, "card_not_in_hand", "you do not hold that spell")
        require(cast in legal_casts(state, seat), "not_instant", "only an instant spell of this moment you can pay")
    ctx = Ctx(state)
    if state.auto_pass_entries:
        ctx.emit(ev.Answered(seat=seat, cast=cast, always=always))
    else:  # as recorded before rules version 4
        ctx.emit(ev.Answered(seat=seat, cast=cast))
        if always:
            ctx.emit(ev.AutoPassSet(seat=seat, on=True))
    _close_when_answered(ctx)
    return ctx.events


def automatic(state: State, seat: int) -> Pass | None:
    """The answer a seat's "always pass" sends for it: the service sends it as the seat's own command
    once the prompt is open, so the prompt opens and closes in separate entries whatever is set."""
    return Pass() if asked(state, seat) and state.players[seat].auto_pass else None


def sealed(state: State) -> tuple[int, ...]:
    """The seats the open prompt asks: all shown as due until it closes (who answered is sealed)."""
    turn = state.turn
    return turn.responders if state.phase == "turns" and turn is not None else ()


def _close_when_answered(ctx: Ctx) -> None:
    """Once every asked seat has answered, the spells are cast in turn order from the active player's
    left; an answer that no longer applies (an earlier one took what it needed) is dropped unseen."""
    state, turn = ctx.state, ctx.state.turn
    assert turn is not None
    if len(state.answers) < len(turn.responders):
        return
    sealed = {a.seat: a.cast for a in state.answers}
    for seat in turn.responders:
        command = sealed[seat]
        if command is not None and _still_castable(ctx.state, seat, command):
            _resolve(ctx, seat, command)
    ctx.emit(ev.Responders(moment=turn.moment, seats=(), auto_answered=not state.auto_pass_entries))


def _still_castable(state: State, seat: int, command: CastSpell) -> bool:
    spell = SPELLS[command.card]
    return spell.cost <= state.players[seat].coins and command in spell_options(state, seat, command.card)


def _resolve(ctx: Ctx, seat: int, command: CastSpell) -> None:
    spell = SPELLS[command.card]
    ctx.emit(ev.SpellCast(seat=seat, card=command.card, cost=spell.cost))
    for effect in spell.effects:
        _apply(ctx, seat, effect, command)


def cast(state: State, command: CastSpell, seat: int) -> list:
    """A spell on one's own turn, after placing."""
    player = state.players[seat]
    require(command.card in player.hand, "card_not_in_hand", "you do not hold that spell")
    turn = state.turn
    assert turn is not None
    require(turn.step == "act", "wrong_step", "place your customer first")
    require(turn.spells_cast < turn.spells_allowed, "spell_limit", "one spell per turn")
    spell = SPELLS[command.card]
    require(spell.cost <= player.coins, "cannot_afford", "the spell costs {cost}", cost=spell.cost)
    options = spell_options(state, seat, command.card)
    require(options, "not_applicable", "the spell's effect cannot apply now")
    require(command in options, "bad_target", "not a choice this spell offers")
    ctx = Ctx(state)
    _resolve(ctx, seat, command)
    return ctx.events


def sell(state: State, command: SellSpell, seat: int) -> list:
    require(command.card in state.players[seat].hand, "card_not_in_hand", "you do not hold that spell")
    return [ev.SpellSold(seat=seat, card=command.card)]

