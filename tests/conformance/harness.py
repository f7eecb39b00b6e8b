"""The conformance harness every game must pass (in the spirit of OpenSpiel's generic game tests).

``check_match`` plays one random match and, at every version, checks what holds for any game:

- every element of ``legal`` is accepted by ``decide`` (and gives at least one event);
- a sample of commands outside ``legal`` (other seats' commands, commands with a field changed,
  and every command once the match is over) is refused with a ``RulesError``;
- ``decide`` never changes the state it was given;
- every command, event, view and redacted event survives a JSON round trip;
- no view, legal list or redacted event of a seat holds what ``hidden`` says that seat may not
  know, nor the match seed;
- a finished match has a result naming every seat and no legal commands, and a breakdown whose
  categories add up, seat by seat, to the result's scores (none before the end);
- folding the events again gives the same state, and the same seed and bots give the same events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from domain.bots.random_bot import RandomBot
from domain.kernel import Command, Game, Result, RulesError, Seat, Setup, Table, bot_turn, fold, play, viewers

MUTANT_TEXT = "zz-no-such-thing"
MAX_LEGAL_CHECKED = 40  # per seat and version; a larger legal list is sampled


def strings_in(value: Any) -> Iterator[str]:
    """Every string (values and keys) in a JSON-like value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def assert_hides(what: str, value: Any, hidden: set[str], seed: str) -> None:
    plain = msgspec.to_builtins(value)
    leaked = hidden.intersection(strings_in(plain))
    assert not leaked, f"{what} shows hidden items {sorted(leaked)[:5]}"
    assert seed not in msgspec.json.encode(plain).decode(), f"{what} shows the match seed"


def round_trip(value: Any, type_: Any, what: str) -> None:
    again = msgspec.json.decode(msgspec.json.encode(value), type=type_)
    assert again == value, f"{what} changes in a JSON round trip: {value!r} -> {again!r}"


def mutants(command: Command) -> Iterator[Command]:
    """Copies of a command with one field changed to something no rulebook offers."""
    for name in command.__struct_fields__:
        value = getattr(command, name)
        if isinstance(value, bool):
            continue
        if isinstance(value, str):
            yield msgspec.structs.replace(command, **{name: MUTANT_TEXT})
        elif isinstance(value, int):
            yield msgspec.structs.replace(command, **{name: value + 1000})
            yield msgspec.structs.replace(command, **{name: -1 - value})
        elif isinstance(value, tuple) and value and isinstance(value[0], str):
            yield msgspec.structs.replace(command, **{name: (MUTANT_TEXT, *value[1:])})


def sample(items: list[Command], table: Table, seat: Seat) -> list[Command]:
    if len(items) <= MAX_LEGAL_CHECKED:
        return items
    rng = table.rng(f"harness:{seat}")
    return [items[rng.below(len(items))] for _ in range(MAX_LEGAL_CHECKED)]


def assert_refused(game: Game, state: Any, command: Command, seat: Seat, table: Table) -> None:
    try:
        events = game.decide(state, command, seat, table.rng())
    except RulesError as error:
        assert error.code and error.code.replace("_", "").isalnum(), f"unstable error code {error.code!r}"
        return
    raise AssertionError(f"seat {seat} sent {command!r} outside legal at v{table.version}; got {events!r}")


def check_version(game: Game, table: Table) -> dict[Seat, list[Command]]:
    """Every check that holds at one version; returns each seat's legal commands."""
    state, seed, seats = table.state, table.seed, table.setup.seats
    before = msgspec.json.encode(state)
    legal = {seat: game.legal(state, seat) for seat in range(seats)}
    together = game.all_views(state, seats)
    for seat, view_of_all in zip(viewers(seats), together, strict=True):
        hidden = game.hidden(state, seat)
        view = game.view(state, seat)
        assert view_of_all == view, f"views() differs from view() for seat {seat} at v{table.version}"
        round_trip(view, game.view_type, f"view of seat {seat}")
        assert_hides(f"view of seat {seat} at v{table.version}", view, hidden, seed)
        if seat is None:
            continue
        assert_hides(f"legal of seat {seat} at v{table.version}", legal[seat], hidden, seed)
        for command in sample(legal[seat], table, seat):
            round_trip(command, game.command_type, "command")
            events = game.decide(state, command, seat, table.rng())
            assert events, f"{command!r} was accepted but gave no event"
        own = set(legal[seat])
        others = {c for s, cs in legal.items() if s != seat for c in cs}
        outside = [c for c in others if c not in own]
        outside += [m for c in legal[seat][:8] for m in mutants(c) if m not in own]
        for command in outside[:16]:
            assert_refused(game, state, command, seat, table)
    assert msgspec.json.encode(state) == before, f"decide changed the state at v{table.version}"
    return legal


def check_match(game: Game, setup: Setup, seed: str) -> Table:
    bots = [RandomBot() for _ in range(setup.seats)]
    table = Table(game, setup, seed)
    check_events_since(game, table, game.initial(setup), 0)  # the opening events
    played: list[tuple[Seat, Command]] = []
    while not table.finished:
        check_version(game, table)
        seat, command = bot_turn(table, bots)
        assert game.breakdown(table.state) is None, "a breakdown before the end"
        state_before, start = table.state, table.version
        table.submit(seat, command)
        assert table.version > start, f"{command!r} appended nothing"
        check_events_since(game, table, state_before, start)
        played.append((seat, command))
        assert len(played) < 100_000, "match never ends"
    result = game.result(table.state)
    assert result is not None
    assert sorted(s.seat for s in result.standings) == list(range(setup.seats)), "standings must name every seat"
    assert set(result.winners) <= set(range(setup.seats))
    check_breakdown(game, table.state, result)
    for seat in range(setup.seats):
        assert game.legal(table.state, seat) == [], f"seat {seat} has legal commands after the end"
    check_version(game, table)  # views at the end, and every earlier legal command now refused
    for seat, command in played[-10:]:
        assert_refused(game, table.state, command, seat, table)
    assert fold(game, setup, table.events) == table.state, "folding the events again gives another state"
    again = play(game, setup, seed, [RandomBot() for _ in range(setup.seats)])
    assert msgspec.json.encode(again.events) == msgspec.json.encode(table.events), "same seed, other events"
    return table


def check_breakdown(game: Game, state: Any, result: Result) -> None:
    """The finished match's categories, each naming every seat, add up to each seat's score."""
    lines = game.breakdown(state)
    assert lines, "a finished match has no breakdown"
    assert len({line.category for line in lines}) == len(lines), "a category twice in the breakdown"
    assert all(len(line.points) == len(result.standings) for line in lines), "a breakdown line misses seats"
    scores = {standing.seat: standing.score for standing in result.standings}
    sums = {seat: sum(line.points[seat] for line in lines) for seat in scores}
    assert sums == scores, f"the breakdown adds up to {sums}, the result's scores are {scores}"


def check_events_since(game: Game, table: Table, state: Any, start: int) -> None:
    """Round trip and redaction of the events one command appended, each against its own state."""
    for event in table.events[start:]:
        round_trip(event, game.event_type, "event")
        state = game.evolve(state, event)
        for seat in [*range(table.setup.seats), None]:
            shown = game.event_view(event, seat)
            if shown is not None:
                round_trip(shown, game.event_type, "redacted event")
                assert_hides(f"{type(event).__name__} to seat {seat}", shown, game.hidden(state, seat), table.seed)

