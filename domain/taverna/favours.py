"""Royal favours: one-shot tiles. On your own turn those that change the played card (change or add a
guild symbol, take a tile of another people) are used between picking and placing, the others at any
step; during other seats' turns (option ``off_turn_favours``, windows.py) those that
need no card of your own."""

from __future__ import annotations

from domain.kernel import require
from domain.taverna import events as ev
from domain.taverna.board import can_host, free_tables, owners, table_people
from domain.taverna.commands import UseFavour
from domain.taverna.content import CARD_GUILDS, CUSTOMERS, FAVOURS, GUILDS, PEOPLES
from domain.taverna.customers import claim_privilege
from domain.taverna.state import Ctx, State
from domain.taverna.tracks import can_rise, gain_level

CARD_KINDS = ("change_guild", "add_guild", "other_people")
# Usable during another seat's turn: the others act on "the customer card you play" or "this turn's" spells.
OFF_TURN_KINDS = ("guild_token", "level", "move_customer")
GUILD_TOKEN_POINTS = 3
MOVE_INCOME = 2


def _options(state: State, seat: int, favour: str) -> list[UseFavour]:
    turn, kind = state.turn, FAVOURS[favour].kind
    assert turn is not None
    if kind == "change_guild":
        return [
            UseFavour(favour=favour, from_guild=old, guild=new)
            for old in turn.guilds for new in CARD_GUILDS if new not in turn.guilds
        ]
    if kind == "add_guild":
        return [UseFavour(favour=favour)] if FAVOURS[favour].guild not in turn.guilds else []
    if kind == "other_people":
        shown = CUSTOMERS[turn.card].peoples
        return [UseFavour(favour=favour, people=p) for p in PEOPLES if p not in shown and state.tiles[p] > 0]
    if kind == "guild_token":
        return [
            UseFavour(favour=favour, tavern=t, guild=g) for t in state.taverns for g in GUILDS if can_host(state, t, g)
        ]
    if kind == "second_spell":
        return [UseFavour(favour=favour)] if state.players[seat].hand else []
    if kind == "level":
        return [UseFavour(favour=favour, people=p) for p in PEOPLES if can_rise(state, seat, p)]
    if kind == "move_customer":
        return _moves(state, favour)
    raise ValueError(f"unknown favour kind {kind!r}")


def _moves(state: State, favour: str) -> list[UseFavour]:
    """Any placed tile to a free table of another tavern (one table per colour: the others are alike)."""
    targets = []
    for tavern in state.taverns:
        seen: set[str] = set()
        for table in free_tables(state, tavern):
            colour = table_people(state, tavern, table)
            if colour not in seen:
                seen.add(colour)
                targets.append((tavern, table))
    return [
        UseFavour(favour=favour, tavern=t, table=i, to_tavern=dt, to_table=di)
        for t, tavern in state.taverns.items()
        for i, people in enumerate(tavern.tables)
        if people
        for dt, di in targets
        if dt != t
    ]


def usable(state: State, seat: int) -> list[str]:
    """The seat's unused favours that fit now, of a kind it has not used this turn (the rulebook allows
    "one or more different" tiles). On its own turn, at any step ("at any time") those that need no
    card, and between picking and placing those that change the played card (a guild token before
    placing can make a Feast).
    During another seat's turn, when a favour window asks it: those that need no card of its own."""
    turn = state.turn
    if state.phase != "turns" or turn is None or turn.responders:
        return []
    if turn.window_seats:
        if seat not in turn.window_seats:
            return []
        return [f for f in state.players[seat].favours
                if FAVOURS[f].kind in OFF_TURN_KINDS and not kind_used(state, f, seat)]
    if turn.seat != seat:
        return []
    card_in_play = turn.step == "place"  # picked, not yet placed
    return [
        f for f in state.players[seat].favours
        if (card_in_play or FAVOURS[f].kind not in CARD_KINDS) and not kind_used(state, f, seat)
    ]


def kind_used(state: State, favour: str, seat: int) -> bool:
    """The seat used a tile of this kind this turn already, and the match allows one of each kind."""
    turn = state.turn
    assert turn is not None
    if state.repeat_favour_kinds:
        return False
    kind = FAVOURS[favour].kind
    return kind in turn.favours if seat == turn.seat else (seat, kind) in turn.off_turn_favours


def legal_off_turn(state: State, seat: int) -> list[UseFavour]:
    """What the seat could use during another seat's turn now (with the option ``off_turn_favours``)."""
    turn = state.turn
    if not state.off_turn_favours or turn is None or seat == turn.seat:
        return []
    return [
        o for f in state.players[seat].favours
        if FAVOURS[f].kind in OFF_TURN_KINDS and not kind_used(state, f, seat)
        for o in _options(state, seat, f)
    ]


def legal_favours(state: State, seat: int) -> list[UseFavour]:
    return [o for f in usable(state, seat) for o in _options(state, seat, f)]


def _valid_move(state: State, command: UseFavour) -> bool:
    return (
        command.tavern in state.taverns and command.to_tavern in state.taverns and command.tavern != command.to_tavern
        and 0 <= command.table < len(state.taverns[command.tavern].tables)
        and bool(state.taverns[command.tavern].tables[command.table])
        and command.to_table in free_tables(state, command.to_tavern)
        and not (command.people or command.guild or command.from_guild)
    )


def use(state: State, command: UseFavour, seat: int) -> list:
    player = state.players[seat]
    require(command.favour in player.favours, "favour_not_held", "you hold no such unused favour")
    assert state.turn is not None
    require(not kind_used(state, command.favour, seat), "favour_kind_used", "one favour of a kind a turn")
    require(command.favour in usable(state, seat), "wrong_step", "that favour is used at another step of the turn")
    kind = FAVOURS[command.favour].kind
    if kind == "move_customer":  # any free table is fine: the listed ones stand for their colour
        require(_valid_move(state, command), "bad_target", "not a move this favour allows")
    else:
        options = _options(state, seat, command.favour)
        require(options, "not_applicable", "the favour cannot apply now")
        require(command in options, "bad_target", "not a choice this favour offers")
    ctx = Ctx(state)
    APPLY[kind](ctx, seat, command)
    return ctx.events


def _change_guild(ctx: Ctx, seat: int, command: UseFavour) -> None:
    turn = ctx.state.turn
    assert turn is not None
    guilds = tuple(command.guild if g == command.from_guild else g for g in turn.guilds)
    ctx.emit(ev.CardChanged(seat=seat, favour=command.favour, guilds=guilds, people=turn.people))


def _add_guild(ctx: Ctx, seat: int, command: UseFavour) -> None:
    turn = ctx.state.turn
    assert turn is not None
    guilds = (*turn.guilds, FAVOURS[command.favour].guild)
    ctx.emit(ev.CardChanged(seat=seat, favour=command.favour, guilds=guilds, people=turn.people))


def _other_people(ctx: Ctx, seat: int, command: UseFavour) -> None:
    turn = ctx.state.turn
    assert turn is not None
    ctx.emit(ev.CardChanged(seat=seat, favour=command.favour, guilds=turn.guilds, people=command.people))


def _guild_token(ctx: Ctx, seat: int, command: UseFavour) -> None:
    ctx.emit(ev.FavourUsed(seat=seat, favour=command.favour))
    ctx.emit(ev.GuildPlaced(seat=seat, tavern=command.tavern, guild=command.guild))
    ctx.emit(ev.Gained(seat=seat, reason="royal favour", points=GUILD_TOKEN_POINTS))


def _second_spell(ctx: Ctx, seat: int, command: UseFavour) -> None:
    ctx.emit(ev.FavourUsed(seat=seat, favour=command.favour))
    ctx.emit(ev.ExtraSpell(seat=seat))


def _level(ctx: Ctx, seat: int, command: UseFavour) -> None:
    ctx.emit(ev.FavourUsed(seat=seat, favour=command.favour))
    gain_level(ctx, seat, command.people)


def _move_customer(ctx: Ctx, seat: int, command: UseFavour) -> None:
    """Each owner of the tavern of arrival gets 2 coins; the mover gains a level on a matching table,
    and the privilege token if the tile fills that tavern's last table."""
    people = ctx.state.taverns[command.tavern].tables[command.table]
    ctx.emit(ev.FavourUsed(seat=seat, favour=command.favour))
    ctx.emit(ev.CustomerMoved(seat=seat, tavern=command.tavern, table=command.table,
                              to_tavern=command.to_tavern, to_table=command.to_table))
    for owner in owners(ctx.state, command.to_tavern):
        ctx.emit(ev.Gained(seat=owner, reason="customer moved in", coins=MOVE_INCOME))
    if table_people(ctx.state, command.to_tavern, command.to_table) == people:
        gain_level(ctx, seat, people)
    claim_privilege(ctx, seat, command.to_tavern)


APPLY = {
    "change_guild": _change_guild, "add_guild": _add_guild, "other_people": _other_people,
    "guild_token": _guild_token, "second_spell": _second_spell, "level": _level, "move_customer": _move_customer,
}
