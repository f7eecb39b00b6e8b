"""Customers: picking a card and its tile, placing the tile (Trickery, levels, the privilege token,
income, Feast, Magic, Influence) and refilling the available customers track."""

from __future__ import annotations

from domain.kernel import require
from domain.taverna import events as ev
from domain.taverna.board import free_tables, owners, symbols, table_people, valid_table
from domain.taverna.commands import PickCustomer, PlaceCustomer
from domain.taverna.content import CUSTOMERS, PEOPLES
from domain.taverna.deck import draw_spell
from domain.taverna.spells import open_window
from domain.taverna.state import Ctx, State
from domain.taverna.tracks import gain_level

ROW_SIZE = 4


def pickable(state: State) -> list[PickCustomer]:
    """A card with a tile of (one of) its peoples left in the supply; should none have one (our
    ruling), any card with any tile left."""
    options = [
        PickCustomer(card=card, people=people)
        for card in state.row
        for people in CUSTOMERS[card].peoples
        if state.tiles[people] > 0
    ]
    if options:
        return options
    return [PickCustomer(card=c, people=p) for c in state.row for p in PEOPLES if state.tiles[p] > 0]


def pick(state: State, command: PickCustomer, seat: int) -> list:
    require(command.card in state.row, "card_not_available", "that card is not on the available customers track")
    require(command in pickable(state), "no_such_tile", "no tile of that people for that card")
    return [ev.CustomerPicked(seat=seat, card=command.card, people=command.people)]


def placements(state: State) -> list[PlaceCustomer]:
    """Free tables; with the Mask (Trickery) also the occupied ones, whose tile is replaced."""
    turn = state.turn
    assert turn is not None
    trickery = "mask" in turn.guilds
    return [
        PlaceCustomer(tavern=t, table=i)
        for t, tavern in state.taverns.items()
        for i, people in enumerate(tavern.tables)
        if trickery or not people
    ]


def place(state: State, command: PlaceCustomer, seat: int) -> list:
    turn = state.turn
    assert turn is not None
    require(valid_table(state, command.tavern, command.table), "no_such_table", "no such table")
    replaced = state.taverns[command.tavern].tables[command.table]
    require(not replaced or "mask" in turn.guilds, "table_taken", "that table is taken (only Trickery replaces)")
    here = symbols(state, command.tavern)
    both = set(turn.guilds) & here
    ctx = Ctx(state)
    ctx.emit(ev.CustomerPlaced(seat=seat, tavern=command.tavern, table=command.table, people=turn.people,
                               replaced=replaced, influence="lyre" in both))
    if replaced:  # Trickery: the table's colour is ignored; the removed tile's people counts
        gain_level(ctx, seat, replaced)
    else:
        if table_people(state, command.tavern, command.table) == turn.people:
            gain_level(ctx, seat, turn.people)
        claim_privilege(ctx, seat, command.tavern)
    for owner in owners(state, command.tavern):
        ctx.emit(ev.Gained(seat=owner, reason="income", coins=state.income))
    if "beer" in both:
        ctx.emit(ev.Gained(seat=seat, reason="feast", coins=state.income))
    if "book" in both:
        draw_spell(ctx, seat)
    open_window(ctx, "placement")
    return ctx.events


def claim_privilege(ctx: Ctx, seat: int, tavern: str) -> None:
    """Filling a tavern's last free table claims its privilege token; none comes back."""
    if ctx.state.taverns[tavern].privilege and not free_tables(ctx.state, tavern):
        ctx.emit(ev.PrivilegeClaimed(seat=seat, tavern=tavern))


def refill(ctx: Ctx) -> None:
    missing = ROW_SIZE - len(ctx.state.row)
    cards = ctx.state.customer_deck[:missing]
    if cards:
        ctx.emit(ev.CustomersRevealed(cards=cards))
