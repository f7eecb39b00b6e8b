"""Replay frames: one per version, each the view of one seat (or a spectator) at that version."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from domain.kernel import Event, Game, Seat, Setup
from projections.i18n import DEFAULT, texts
from projections.narration import narrate


class Frame(msgspec.Struct, frozen=True):
    version: int
    event: Event | None  # the event that made this frame, as the viewer may see it (None for frame 0)
    view: Any
    narration: str = ""  # the event in words, as the viewer may read it
    language: str = DEFAULT  # the narration's


def frames(
    game: Game,
    setup: Setup,
    events: Iterable[Event],
    seat: Seat | None,
    whole: bool,
    language: str = DEFAULT,
    players: Sequence[str | None] = (),
) -> Iterator[Frame]:
    """Frame 0 (before any event) and one frame after each event. ``whole``: events unredacted.
    ``language``: the narration's (projections/i18n/); ``players``: the seats' names it uses."""
    state = game.initial(setup)
    yield Frame(0, None, game.view(state, seat), texts(language)._("Before the first event."), language)
    for version, event in enumerate(events, start=1):
        state = game.evolve(state, event)
        shown = event if whole else game.event_view(event, seat)
        said = narrate(game, event, seat, players, whole=whole, language=language)
        yield Frame(version, shown, game.view(state, seat), said, language)
