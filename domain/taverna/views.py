"""What each seat may see: its own spells, everything face up, counts of the face-down piles."""

from __future__ import annotations

import msgspec

from domain.kernel import Event
from domain.kernel.redaction import AllowList, to_everyone, to_nobody
from domain.taverna import events as ev
from domain.taverna.board import defs
from domain.taverna.commands import CastSpell
from domain.taverna.content import PEOPLES
from domain.taverna.state import Answer, State, Turn


class DeedView(msgspec.Struct, frozen=True):
    price: int
    points: int
    owner: int  # -1 when unowned


class TavernView(msgspec.Struct, frozen=True):
    id: str
    size: str
    tables: tuple[str, ...]  # the people (colour) of each table
    customers: tuple[str, ...]  # the people of the tile on each table, "" when free
    deeds: tuple[DeedView, ...]
    symbols: tuple[str, ...]  # printed, then guild tokens
    privilege: bool
    dignitaries: tuple[str, ...]


class PlayerView(msgspec.Struct, frozen=True):
    seat: int
    coins: int
    points: int
    levels: dict[str, int]
    hand: tuple[str, ...]  # only the viewer's own
    hand_count: int
    cast: tuple[str, ...]
    sold_count: int
    favours: tuple[str, ...]
    used_favours: tuple[str, ...]
    privileges: int
    customers: tuple[str, ...]
    scorings: tuple[str, ...]


class TavernaView(msgspec.Struct, frozen=True):
    seat: int | None
    phase: str
    king: str
    queen: str
    taverns: tuple[TavernView, ...]
    players: tuple[PlayerView, ...]
    row: tuple[str, ...]
    customer_deck: int
    spell_deck: int
    castle: tuple[str, ...]
    favour_reserve: int
    privilege_reserve: int
    guild_supply: dict[str, int]
    tiles: dict[str, int]
    turn: Turn | None
    waiting_for: tuple[int, ...]  # during a prompt: every seat asked (the viewer once it answered excepted)
    auto_pass: bool  # the viewer's own "always pass" setting
    answered: bool  # the viewer has sent its sealed answer to the open prompt
    answer: CastSpell | None  # that answer: its spell, or none for a pass
    deed_order: tuple[int, ...]
    royal_order: tuple[int, ...]
    royal_taken: tuple[str, ...]
    turns_played: int
    turns_total: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def waiting_for(state: State, seat: int | None = None) -> tuple[int, ...]:
    """Who the match waits for; during a prompt every seat asked, since who has answered is sealed."""
    if state.phase == "people":
        return (1,) if state.seats == 2 and state.king else (0,)
    if state.phase == "deeds":
        return state.deed_order[:1]
    if state.phase == "royal":
        return state.royal_order[:1]
    if state.turn is None:
        return ()
    if state.turn.responders:
        return tuple(s for s in state.turn.responders if s != seat or _answer(state, seat) is None)
    if state.turn.window_seats:
        return state.turn.window_seats
    return (state.turn.seat,)


def _answer(state: State, seat: int | None) -> Answer | None:
    return next((a for a in state.answers if a.seat == seat), None)


def view(state: State, seat: int | None) -> TavernaView:
    printed, own = defs(state), _answer(state, seat)
    taverns = tuple(
        TavernView(
            id=t,
            size=printed[t].size,
            tables=printed[t].tables,
            customers=tavern.tables,
            deeds=tuple(
                DeedView(d.price, d.points, owner) for d, owner in zip(printed[t].deeds, tavern.deeds, strict=True)
            ),
            symbols=(*printed[t].symbols, *tavern.guilds),
            privilege=tavern.privilege,
            dignitaries=tavern.dignitaries,
        )
        for t, tavern in state.taverns.items()
    )
    players = tuple(
        PlayerView(
            seat=s,
            coins=p.coins,
            points=p.points,
            levels=dict(zip(PEOPLES, p.levels, strict=True)),
            hand=p.hand if s == seat else (),
            hand_count=len(p.hand),
            cast=p.cast,
            sold_count=len(p.sold),
            favours=p.favours,
            used_favours=p.used_favours,
            privileges=p.privileges,
            customers=p.customers,
            scorings=p.scorings,
        )
        for s, p in enumerate(state.players)
    )
    return TavernaView(
        seat=seat,
        phase=state.phase,
        king=state.king,
        queen=state.queen,
        taverns=taverns,
        players=players,
        row=state.row,
        customer_deck=len(state.customer_deck),
        spell_deck=len(state.spell_deck),
        castle=state.castle,
        favour_reserve=len(state.favour_reserve),
        privilege_reserve=state.privilege_reserve,
        guild_supply=state.guild_supply,
        tiles=state.tiles,
        turn=state.turn,
        waiting_for=waiting_for(state, seat),
        auto_pass=seat is not None and state.players[seat].auto_pass,
        answered=own is not None,
        answer=own.cast if own is not None else None,
        deed_order=state.deed_order,
        royal_order=state.royal_order,
        royal_taken=state.royal_taken,
        turns_played=state.turns_played,
        turns_total=state.turns_each * state.seats,
        scores=state.scores,
        winners=state.winners,
    )


def hidden(state: State, seat: int | None) -> set[str]:
    """The face-down piles (spells, customers, favour reserve) and the other seats' hands and discards."""
    out = {*state.spell_deck, *state.customer_deck, *state.favour_reserve}
    for s, player in enumerate(state.players):
        if s != seat:
            out.update(player.hand, player.sold)
    return out


def _own_card_only(event: Event, seat: int | None) -> Event:
    """A spell drawn or sold: its owner sees which; the others see that one was."""
    assert isinstance(event, ev.SpellDrawn | ev.SpellSold)
    return event if event.seat == seat else msgspec.structs.replace(event, card="")


def _own_only(event: Event, seat: int | None) -> Event | None:
    """A sealed answer or the "always pass" setting: its seat sees it, nobody else learns it happened."""
    assert isinstance(event, ev.Answered | ev.AutoPassSet)
    return event if event.seat == seat else None


event_view = AllowList({
    ev.Shuffled: to_nobody,  # the piles' order is no seat's to see
    ev.SpellDrawn: _own_card_only,
    ev.SpellSold: _own_card_only,
    ev.Answered: _own_only,
    ev.AutoPassSet: _own_only,
    **dict.fromkeys(
        (ev.DignitariesPlaced, ev.FavoursRevealed, ev.CustomersRevealed, ev.CurseDrawn, ev.PeopleChosen,
         ev.DeedRoundsBegan, ev.DeedBought, ev.DeedPassed, ev.CustomerPicked, ev.CardChanged, ev.CustomerPlaced,
         ev.CustomerMoved, ev.LevelGained, ev.Gained, ev.PrivilegeClaimed, ev.GuildPlaced, ev.FavourTaken,
         ev.FavourUsed, ev.DignitaryActivated, ev.DignitaryMoved, ev.SpellCast, ev.ExtraSpell, ev.Responders,
         ev.FavourWindow, ev.WindowPassed, ev.TurnEnded, ev.Exchanged, ev.RoyalOrder, ev.ScoringChosen,
         ev.PeopleScored, ev.GameOver),
        to_everyone,
    ),
})
