"""The view a ``409 stale_version`` carries (docs/API.md): the seat's envelope at the version the
refusal names, from the fold this gateway refused on (no Redis read), as the seat's stream will
send it. Without it a client waits for that view on its stream before it can choose again, and
every version of a simultaneous phase is projected and streamed on its own; with it the client
chooses again at once, and the versions that follow share projections and frames as they do
without a version check."""

from __future__ import annotations

import msgspec

from domain.kernel import undo
from projections.views import envelope
from services.commands.matches import Match
from services.gateway import presence
from services.gateway.hub import Hub
from services.runtime import Runtime


async def at(runtime: Runtime, hub: Hub, match: Match, seat: int, version: int) -> bytes | None:
    """The seat's envelope at ``version``, if this process keeps that fold (services/commands/folds.py)."""
    folded = runtime.folds.at(match, version)
    if folded is None:
        return None
    # who is connected, as this gateway's streams know it (what Hub.overlay sets on a stored envelope)
    players = presence.shown(await runtime.seating.of(match, folded), hub.present.get(match.id, frozenset()))
    # as the projector writes it; the others' refusals (every seat but the one accepted, in a
    # simultaneous phase) skip the rules' check
    undoer = undo.undoer(match.game, folded.state, folded.last_move, asking=seat)
    return msgspec.json.encode(envelope(match.game, match.id, folded.state, version, seat, players=players,
                                        undoer=undoer))
