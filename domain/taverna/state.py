"""Taverna's state and evolve (the fold), plus ``Ctx``: decide's running state while it emits events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.kernel import Event, Setup
from domain.taverna import events as ev
from domain.taverna.commands import CastSpell
from domain.taverna.content import CUSTOMERS, DIGNITARIES, FAVOURS, GUILDS, PEOPLE_INDEX, PEOPLES, taverns_for


class Tavern(msgspec.Struct, frozen=True):
    tables: tuple[str, ...]  # the people of the tile on each table, "" when free
    deeds: tuple[int, ...]  # the owner of each deed space, -1 when unowned
    guilds: tuple[str, ...] = ()  # guild tokens added
    privilege: bool = True
    dignitaries: tuple[str, ...] = ()


class Tally(msgspec.Struct, frozen=True):
    """Where a seat's points came from (breakdown.py's categories)."""

    deeds: int = 0  # property deeds bought
    guilds: int = 0  # guild tokens placed by the Gob'Trotter or a royal favour
    tracks: int = 0  # people tracks' bonuses
    spells: int = 0
    privileges: int = 0  # unused privilege tokens, at the end
    royal: int = 0  # the royal scoring
    people: tuple[int, ...] = (0, 0, 0, 0)  # the people scoring, per people in track order


# the account of points Gained for each reason that gives points (dignitaries.py, favours.py), past
# the people tracks' bonuses ("elf track") and the spells' ("spell Fireball"): an unknown one is a bug
GAINED = {"gobtrotter": "guilds", "royal favour": "guilds"}


def account(reason: str) -> str:
    if reason.endswith(" track"):
        return "tracks"
    return "spells" if reason.startswith("spell ") else GAINED[reason]


class Player(msgspec.Struct, frozen=True):
    coins: int = 15
    points: int = 0
    tally: Tally = Tally()
    levels: tuple[int, ...] = (0, 0, 0, 0)  # per people, in track order
    hand: tuple[str, ...] = ()
    cast: tuple[str, ...] = ()
    sold: tuple[str, ...] = ()  # face down: sold, or exchanged at the end
    favours: tuple[str, ...] = ()  # unused royal favours
    used_favours: tuple[str, ...] = ()
    privileges: int = 0
    customers: tuple[str, ...] = ()
    scorings: tuple[str, ...] = ()
    auto_pass: bool = False  # private: answer every instant-spell prompt with a pass


class Answer(msgspec.Struct, frozen=True):
    """A sealed answer to the open prompt: the spell to cast, or ``None`` for a pass."""

    seat: int
    cast: CastSpell | None = None


class Turn(msgspec.Struct, frozen=True):
    seat: int
    step: str = "pick"  # pick, place, act
    card: str = ""
    people: str = ""
    guilds: tuple[str, ...] = ()  # the played card's symbols, as changed by favours
    tavern: str = ""
    influence: bool = False
    tavern_right_used: bool = False
    privilege_right_used: bool = False
    dignitaries: tuple[str, ...] = ()  # activated this turn
    favours: tuple[str, ...] = ()  # the kinds of royal favour used this turn
    spells_allowed: int = 1
    spells_cast: int = 0
    responded: tuple[int, ...] = ()  # opponents who cast a spell during this turn
    moment: str = ""  # of the open prompt
    responders: tuple[int, ...] = ()  # the seats the open prompt asks, all at once
    window: str = ""  # the moment of the open royal-favour window (other seats' favours), "" when none
    window_seats: tuple[int, ...] = ()  # the other seats that window still waits for
    windows: tuple[str, ...] = ()  # the moments whose favour window has opened this turn
    off_turn_favours: tuple[tuple[int, str], ...] = ()  # (seat, kind) of favours used on this turn by others


class State(msgspec.Struct, frozen=True):
    seats: int
    curse: bool
    repeat_favour_kinds: bool = False  # option: several favour tiles of one kind in a turn
    repeat_privilege_right: bool = False  # option: the two-privilege activation more than once a turn
    off_turn_favours: bool = False  # option: royal favours during other seats' turns, in windows
    notary_second_deed: bool = False  # option: the Notary may buy in a tavern where the buyer holds a deed
    auto_pass_entries: bool = False  # "always pass" answers as entries of their own (rules version 4)
    phase: str = "people"  # people, deeds, turns, royal, over
    king: str = ""
    queen: str = ""
    taverns: dict[str, Tavern] = {}
    players: tuple[Player, ...] = ()
    row: tuple[str, ...] = ()
    customer_deck: tuple[str, ...] = ()
    spell_deck: tuple[str, ...] = ()
    castle: tuple[str, ...] = ()
    favour_reserve: tuple[str, ...] = ()
    privilege_reserve: int = 10
    guild_supply: dict[str, int] = {}
    tiles: dict[str, int] = {}
    deed_order: tuple[int, ...] = ()
    turn: Turn | None = None
    answers: tuple[Answer, ...] = ()  # sealed answers to the open prompt; outside Turn, which views show
    turns_played: int = 0
    royal_order: tuple[int, ...] = ()
    royal_taken: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def turns_each(self) -> int:
        return 8 if self.seats == 2 else 6

    @property
    def income(self) -> int:
        """Coins per owner, and the Feast bonus: 3 with 2-3 players, 2 with 4-5."""
        return 3 if self.seats <= 3 else 2


def initial(setup: Setup) -> State:
    taverns = {
        t.id: Tavern(tables=("",) * len(t.tables), deeds=(-1,) * len(t.deeds))
        for t in taverns_for(setup.seats).values()
    }
    return State(
        seats=setup.seats,
        curse=bool(setup.options.get("curse", True)),
        repeat_favour_kinds=bool(setup.options.get("repeat_favour_kinds", False)),
        repeat_privilege_right=bool(setup.options.get("repeat_privilege_right", False)),
        # absent from a match recorded before the option existed (rules version 2): those had no windows
        off_turn_favours=bool(setup.options.get("off_turn_favours", False)),
        notary_second_deed=bool(setup.options.get("notary_second_deed", False)),
        auto_pass_entries=bool(setup.options.get("auto_pass_entries", False)),
        taverns=taverns,
        players=tuple(Player() for _ in range(setup.seats)),
        privilege_reserve=15 - len(taverns),
        guild_supply=dict.fromkeys(GUILDS, 4),
        tiles=dict.fromkeys(PEOPLES, 9),
    )


# --- small updates --------------------------------------------------------------------------------


def scored(player: Player, account: str, points: int) -> Player:
    """The seat's points raised by ``points``, written in its tally under ``account``."""
    tally = replace(player.tally, **{account: getattr(player.tally, account) + points})
    return replace(player, points=player.points + points, tally=tally)


def set_player(state: State, seat: int, player: Player) -> State:
    return replace(state, players=(*state.players[:seat], player, *state.players[seat + 1:]))


def with_player(state: State, seat: int, **changes: Any) -> State:
    return set_player(state, seat, replace(state.players[seat], **changes))


def with_tavern(state: State, tavern: str, **changes: Any) -> State:
    return replace(state, taverns={**state.taverns, tavern: replace(state.taverns[tavern], **changes)})


def with_turn(state: State, **changes: Any) -> State:
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, **changes))


def set_at(items: tuple, index: int, value: Any) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def without(items: tuple, *values: Any) -> tuple:
    out = list(items)
    for value in values:
        out.remove(value)
    return tuple(out)


def where_is(state: State, dignitary: str) -> str:
    return next(t for t, tavern in state.taverns.items() if dignitary in tavern.dignitaries)


# --- evolve, one small function per event -----------------------------------------------------------


def _shuffled(s: State, e: ev.Shuffled) -> State:
    return replace(s, spell_deck=e.spells, customer_deck=e.customers, favour_reserve=e.favours)


def _dignitaries(s: State, e: ev.DignitariesPlaced) -> State:
    taverns = {
        t: replace(v, dignitaries=tuple(d for d in DIGNITARIES if e.places.get(d) == t)) for t, v in s.taverns.items()
    }
    return replace(s, taverns=taverns)


def _favours_revealed(s: State, e: ev.FavoursRevealed) -> State:
    return replace(s, castle=s.castle + e.favours, favour_reserve=s.favour_reserve[len(e.favours) :])


def _customers_revealed(s: State, e: ev.CustomersRevealed) -> State:
    return replace(s, row=s.row + e.cards, customer_deck=s.customer_deck[len(e.cards) :])


def _spell_drawn(s: State, e: ev.SpellDrawn) -> State:
    card, s = s.spell_deck[0], replace(s, spell_deck=s.spell_deck[1:])
    return with_player(s, e.seat, hand=(*s.players[e.seat].hand, card))


def _curse(s: State, e: ev.CurseDrawn) -> State:
    s = replace(s, spell_deck=s.spell_deck[1:])
    return with_player(s, e.seat, coins=s.players[e.seat].coins - e.coins)


def _people(s: State, e: ev.PeopleChosen) -> State:
    return replace(s, **{e.role: e.people})


def _deed_rounds(s: State, e: ev.DeedRoundsBegan) -> State:
    return replace(s, phase="deeds", deed_order=e.order)


def _next_buyer(s: State) -> State:
    """At setup, each purchase (or pass) hands over to the next buyer; the last one starts the game."""
    if s.phase != "deeds":
        return s
    order = s.deed_order[1:]
    if order:
        return replace(s, deed_order=order)
    return replace(s, deed_order=(), phase="turns", turn=Turn(seat=0))


def _deed_bought(s: State, e: ev.DeedBought) -> State:
    tavern = s.taverns[e.tavern]
    s = with_tavern(s, e.tavern, deeds=set_at(tavern.deeds, e.space, e.seat))
    buyer = scored(s.players[e.seat], "deeds", e.points)
    s = set_player(s, e.seat, replace(buyer, coins=buyer.coins - e.price))
    if e.previous >= 0:
        s = with_player(s, e.previous, coins=s.players[e.previous].coins + e.refund)
    return _next_buyer(s)


def _deed_passed(s: State, e: ev.DeedPassed) -> State:
    return _next_buyer(s)


def _picked(s: State, e: ev.CustomerPicked) -> State:
    s = replace(s, row=without(s.row, e.card))
    s = with_player(s, e.seat, customers=(*s.players[e.seat].customers, e.card))
    return with_turn(s, step="place", card=e.card, people=e.people, guilds=CUSTOMERS[e.card].guilds)


def _card_changed(s: State, e: ev.CardChanged) -> State:
    s = _use_favour(s, e.seat, e.favour)
    return with_turn(s, guilds=e.guilds, people=e.people)


def _placed(s: State, e: ev.CustomerPlaced) -> State:
    tavern = s.taverns[e.tavern]
    s = with_tavern(s, e.tavern, tables=set_at(tavern.tables, e.table, e.people))
    tiles = {**s.tiles, e.people: s.tiles[e.people] - 1}
    if e.replaced:
        tiles[e.replaced] += 1
    s = replace(s, tiles=tiles)
    return with_turn(s, step="act", tavern=e.tavern, influence=e.influence)


def _moved(s: State, e: ev.CustomerMoved) -> State:
    people = s.taverns[e.tavern].tables[e.table]
    s = with_tavern(s, e.tavern, tables=set_at(s.taverns[e.tavern].tables, e.table, ""))
    return with_tavern(s, e.to_tavern, tables=set_at(s.taverns[e.to_tavern].tables, e.to_table, people))


def _level(s: State, e: ev.LevelGained) -> State:
    return with_player(s, e.seat, levels=set_at(s.players[e.seat].levels, PEOPLE_INDEX[e.people], e.level))


def _gained(s: State, e: ev.Gained) -> State:
    p = scored(s.players[e.seat], account(e.reason), e.points) if e.points else s.players[e.seat]
    s = set_player(s, e.seat, replace(p, coins=p.coins + e.coins, privileges=p.privileges + e.privileges))
    return replace(s, privilege_reserve=s.privilege_reserve - e.privileges)


def _privilege_claimed(s: State, e: ev.PrivilegeClaimed) -> State:
    s = with_tavern(s, e.tavern, privilege=False)
    return with_player(s, e.seat, privileges=s.players[e.seat].privileges + 1)


def _guild_placed(s: State, e: ev.GuildPlaced) -> State:
    s = with_tavern(s, e.tavern, guilds=(*s.taverns[e.tavern].guilds, e.guild))
    return replace(s, guild_supply={**s.guild_supply, e.guild: s.guild_supply[e.guild] - 1})


def _favour_taken(s: State, e: ev.FavourTaken) -> State:
    s = replace(s, castle=without(s.castle, e.favour))
    return with_player(s, e.seat, favours=(*s.players[e.seat].favours, e.favour))


def _use_favour(s: State, seat: int, favour: str) -> State:
    p = s.players[seat]
    s = with_player(s, seat, favours=without(p.favours, favour), used_favours=(*p.used_favours, favour))
    assert s.turn is not None
    if seat != s.turn.seat:
        return with_turn(s, off_turn_favours=(*s.turn.off_turn_favours, (seat, FAVOURS[favour].kind)))
    return with_turn(s, favours=(*s.turn.favours, FAVOURS[favour].kind))


def _favour_used(s: State, e: ev.FavourUsed) -> State:
    return _use_favour(s, e.seat, e.favour)


def _move_dignitary(s: State, dignitary: str, tavern: str) -> State:
    source = where_is(s, dignitary)
    s = with_tavern(s, source, dignitaries=without(s.taverns[source].dignitaries, dignitary))
    return with_tavern(s, tavern, dignitaries=(*s.taverns[tavern].dignitaries, dignitary))


def _activated(s: State, e: ev.DignitaryActivated) -> State:
    s = _move_dignitary(s, e.dignitary, e.tavern)
    s = with_player(s, e.seat, coins=s.players[e.seat].coins - e.cost)
    assert s.turn is not None
    used = {"tavern_right_used": True} if e.via == "tavern" else {"privilege_right_used": True}
    return with_turn(s, dignitaries=(*s.turn.dignitaries, e.dignitary), **used)


def _dignitary_moved(s: State, e: ev.DignitaryMoved) -> State:
    return _move_dignitary(s, e.dignitary, e.tavern)


def _spell_cast(s: State, e: ev.SpellCast) -> State:
    p = s.players[e.seat]
    s = with_player(s, e.seat, coins=p.coins - e.cost, hand=without(p.hand, e.card), cast=(*p.cast, e.card))
    assert s.turn is not None
    if e.seat == s.turn.seat:
        return with_turn(s, spells_cast=s.turn.spells_cast + 1)
    return with_turn(s, responded=(*s.turn.responded, e.seat))


def _spell_sold(s: State, e: ev.SpellSold) -> State:
    p = s.players[e.seat]
    return with_player(s, e.seat, coins=p.coins + 1, hand=without(p.hand, e.card), sold=(*p.sold, e.card))


def _extra_spell(s: State, e: ev.ExtraSpell) -> State:
    assert s.turn is not None
    return with_turn(s, spells_allowed=s.turn.spells_allowed + 1)


def _responders(s: State, e: ev.Responders) -> State:
    """A prompt opens or closes (no seats); in logs of rules version 3 and earlier the seats that
    always pass had answered as it opened."""
    auto = e.auto_answered
    answers = tuple(Answer(seat=seat) for seat in e.seats if auto and s.players[seat].auto_pass)
    s = replace(s, answers=answers)
    return with_turn(s, moment=e.moment if e.seats else "", responders=e.seats)


def _favour_window(s: State, e: ev.FavourWindow) -> State:
    """A favour window opens (the seats it asks), narrows (seats with nothing left to use) or closes."""
    assert s.turn is not None
    windows = s.turn.windows if e.moment in s.turn.windows else (*s.turn.windows, e.moment)
    return with_turn(s, window=e.moment if e.seats else "", window_seats=e.seats, windows=windows)


def _window_passed(s: State, e: ev.WindowPassed) -> State:
    assert s.turn is not None
    return with_turn(s, window_seats=without(s.turn.window_seats, e.seat))


def _answered(s: State, e: ev.Answered) -> State:
    s = with_player(s, e.seat, auto_pass=True) if e.always else s
    return replace(s, answers=(*s.answers, Answer(seat=e.seat, cast=e.cast)))


def _auto_pass(s: State, e: ev.AutoPassSet) -> State:
    return with_player(s, e.seat, auto_pass=e.on)


def _turn_ended(s: State, e: ev.TurnEnded) -> State:
    played = s.turns_played + 1
    if played == s.turns_each * s.seats:
        return replace(s, turns_played=played, turn=None, phase="end")
    return replace(s, turns_played=played, turn=Turn(seat=(e.seat + 1) % s.seats))


def _exchanged(s: State, e: ev.Exchanged) -> State:
    p = scored(s.players[e.seat], "privileges", e.privileges)
    return set_player(s, e.seat, replace(p, coins=p.coins + e.spells, hand=(), sold=p.sold + p.hand, privileges=0))


def _royal_order(s: State, e: ev.RoyalOrder) -> State:
    return replace(s, phase="royal", royal_order=e.order)


def _scoring_chosen(s: State, e: ev.ScoringChosen) -> State:
    p = scored(s.players[e.seat], "royal", e.points)
    s = set_player(s, e.seat, replace(p, scorings=(*p.scorings, e.option)))
    return replace(s, royal_order=s.royal_order[1:], royal_taken=(*s.royal_taken, e.option))


def _people_scored(s: State, e: ev.PeopleScored) -> State:
    p = s.players[e.seat]
    return with_player(s, e.seat, points=p.points + sum(e.points), tally=replace(p.tally, people=e.points))


def _game_over(s: State, e: ev.GameOver) -> State:
    return replace(s, phase="over", scores=e.scores, winners=e.winners)


_EVOLVE: dict[type, Callable[[State, Any], State]] = {
    ev.Shuffled: _shuffled,
    ev.DignitariesPlaced: _dignitaries,
    ev.FavoursRevealed: _favours_revealed,
    ev.CustomersRevealed: _customers_revealed,
    ev.SpellDrawn: _spell_drawn,
    ev.CurseDrawn: _curse,
    ev.PeopleChosen: _people,
    ev.DeedRoundsBegan: _deed_rounds,
    ev.DeedBought: _deed_bought,
    ev.DeedPassed: _deed_passed,
    ev.CustomerPicked: _picked,
    ev.CardChanged: _card_changed,
    ev.CustomerPlaced: _placed,
    ev.CustomerMoved: _moved,
    ev.LevelGained: _level,
    ev.Gained: _gained,
    ev.PrivilegeClaimed: _privilege_claimed,
    ev.GuildPlaced: _guild_placed,
    ev.FavourTaken: _favour_taken,
    ev.FavourUsed: _favour_used,
    ev.DignitaryActivated: _activated,
    ev.DignitaryMoved: _dignitary_moved,
    ev.SpellCast: _spell_cast,
    ev.SpellSold: _spell_sold,
    ev.ExtraSpell: _extra_spell,
    ev.Responders: _responders,
    ev.Answered: _answered,
    ev.FavourWindow: _favour_window,
    ev.WindowPassed: _window_passed,
    ev.AutoPassSet: _auto_pass,
    ev.TurnEnded: _turn_ended,
    ev.Exchanged: _exchanged,
    ev.RoyalOrder: _royal_order,
    ev.ScoringChosen: _scoring_chosen,
    ev.PeopleScored: _people_scored,
    ev.GameOver: _game_over,
}


def evolve(state: State, event: Event) -> State:
    return _EVOLVE[type(event)](state, event)


class Ctx:
    """Decide's scratch pad: each emitted event is folded at once, so later rules read its effect."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.state = evolve(self.state, event)
        self.events.append(event)
