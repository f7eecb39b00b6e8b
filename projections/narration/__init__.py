"""The narrator: each event, as a seat may see it, as one sentence with names, in one of
projections.i18n.LANGUAGES.

One module per game holds ``SENTENCES``, a function per event type ``(event, Names) -> str``; each
reads only the event it is given, so narrating the redacted event (``game.event_view``) can name
nothing the seat may not see. The events endpoint, the replay's frames and the web client's log
use it."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from domain.kernel import Event, Game, Seat
from projections.i18n import DEFAULT
from projections.narration import online
from projections.narration.names import Names

_MODULES = {
    "heros-tavern": "projections.narration.heros_tavern",
    "tavern-masters": "projections.narration.tavern_masters",
    "taverna": "projections.narration.taverna",
    "mercenaries": "projections.narration.mercenaries",
}


@cache
def sentences(game_id: str) -> dict[type, Callable[[Any, Names], str]]:
    """The game's sentence for each of its event types."""
    return importlib.import_module(_MODULES[game_id]).SENTENCES


def sentence(game_id: str, event: Event, names: Names) -> str:
    """The event (already as the seat sees it) in words."""
    say = sentences(game_id).get(type(event)) or online.SENTENCES.get(type(event))
    # an event type the game does not list (a test's variant game) is named, none of its fields read (and
    # not translated: no game of the service has one)
    text = say(event, names) if say else re.sub(r"(?<!^)(?=[A-Z])", " ", type(event).__name__).lower() + "."
    return text[:1].upper() + text[1:]


def narrate(
    game: Game,
    event: Event,
    seat: Seat | None,
    players: Sequence[str | None] = (),
    whole: bool = False,
    language: str = DEFAULT,
) -> str:
    """What ``seat`` (None: a spectator) may read about ``event``; "" when the event is hidden from it.
    ``whole``: the match is over and every event is shown as it was. ``players``: the seats' names
    as the table shows them (``Names``)."""
    shown = event if whole else game.event_view(event, seat)
    return "" if shown is None else sentence(game.id, shown, Names(game.id, players, language))
