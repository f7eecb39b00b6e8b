"""The event feed of a match (``GET /events``) as one seat may read it; pure.

While a match runs, an entry whose event is hidden from the caller says nothing but that an entry
was appended: type ``HIDDEN``, event null, no narration, and no command id nor seat. Neither may the
entries that share a command with such an entry name that command: its seat would say who sent it
(Taverna's sealed answers: the entries that close a prompt would name its last answerer, and so the
order the seats answered in). Once the match is finished every entry is shown whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.kernel import Event, Game, Seat
from projections.chain import Envelope
from projections.i18n import DEFAULT
from projections.narration import narrate

HIDDEN = "Hidden"  # the type every hidden entry shows, whatever it was
# How far before the first entry asked for the gateway reads, to see a command's first entries
# (a sealed answer's own entry comes first): a command cut there is read from the log's start.
LOOKBACK = 64


def sealed_commands(entries: Sequence[tuple[Envelope, Event]], game: Game, seat: Seat | None) -> set[str]:
    """The ids of the commands that appended an entry hidden from ``seat``."""
    return {
        envelope.command.id
        for envelope, event in entries
        if envelope.command.id is not None and game.event_view(event, seat) is None
    }


def starts_a_command(entries: Sequence[tuple[Envelope, Any]], after: int) -> bool:
    """Whether the window ``entries`` (read from before ``after``) holds the whole of every command
    that has an entry above ``after``: its first entry starts the log or a new command."""
    first = next((n for n, (envelope, _) in enumerate(entries) if envelope.version > after), None)
    if first is None:
        return True
    head = entries[0][0]
    return head.version == 1 or head.command.id != entries[first][0].command.id


def items(
    game: Game,
    entries: Sequence[tuple[Envelope, Event]],
    seat: Seat | None,
    after: int,
    finished: bool,
    hashes: Callable[[int], dict[str, Any]],
    language: str = DEFAULT,
    players: Sequence[str | None] = (),
) -> list[dict[str, Any]]:
    """The feed's items above ``after``; ``entries`` may start earlier (see ``LOOKBACK``).
    ``hashes(n)``: the ``prev`` and ``hash`` of entry n, shown once the match is finished.
    ``language``: the narration's (projections/i18n/); ``players``: the seats' names it uses."""
    sealed = set() if finished else sealed_commands(entries, game, seat)
    out = []
    for n, (envelope, event) in enumerate(entries):
        if envelope.version <= after:
            continue
        cause = envelope.command
        item: dict[str, Any] = {"version": envelope.version, "type": envelope.type, "time": envelope.time}
        item["narration"] = narrate(game, event, seat, players, whole=finished, language=language)
        item["language"] = language
        if finished:
            item |= {"event": envelope.event, "command": cause, **hashes(n)}
            out.append(item)
            continue
        shown = game.event_view(event, seat)
        own = cause.seat is not None and cause.seat == seat
        named = own or cause.id not in sealed
        item["event"] = shown
        item["command"] = {
            "id": cause.id if named else None,
            "seat": cause.seat if named else None,
            "idempotency_key": cause.idempotency_key if own else None,
        }
        if shown is None:
            item["type"] = HIDDEN
        out.append(item)
    return out
