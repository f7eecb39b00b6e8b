"""The view a ``409 stale_version`` carries (docs/API.md): the seat's envelope at the version the
refusal names, from the fold this gateway refused on (no Redis read), as the seat's stream will
send it. Without it a client waits for that view on its stream before it can choose again, and
every version of a simultaneous phase is projected and streamed on its own; with it the client
chooses again at once, and the versions that follow share projections and frames as they do
without a version check."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.kernel import undo
from projections.views import Envelopes, TablePlayer
from services.commands.folds import Folded
from services.commands.matches import Match
from services.gateway import presence
from services.gateway.hub import Hub
from services.runtime import Runtime


@dataclass(slots=True)
class _Kept:
    folded: Folded  # the fold its views are of (one version of one match)
    players: list[TablePlayer]  # the table they show, connected seats included
    envelopes: Envelopes
    encoded: dict[int, bytes] = field(default_factory=dict)  # seat -> its envelope


class StaleViews:
    """The envelopes of each match's latest refused version, kept: the seats refused at one
    version (in a round of simultaneous picks) share what the envelopes share (the rules' result,
    the table of players encoded once), and a seat refused there again (the same stale command
    sent again) gets the bytes it got, not a view built and encoded again."""

    KEPT = 1024  # matches; past it the oldest kept is forgotten

    def __init__(self) -> None:
        self._kept: dict[str, _Kept] = {}  # match id -> its latest refused version's

    async def at(self, runtime: Runtime, hub: Hub, match: Match, seat: int, version: int) -> bytes | None:
        """The seat's envelope at ``version``, if this process keeps that fold (services/commands/folds.py)."""
        folded = runtime.folds.at(match, version)
        if folded is None:
            return None
        # who is connected, as this gateway's streams know it (what Hub.overlay sets on a stored envelope)
        players = presence.shown(await runtime.seating.of(match, folded), hub.present.get(match.id, frozenset()))
        kept = self._kept.get(match.id)
        if kept is None or kept.folded is not folded or kept.players != players:
            kept = self._keep(match, folded, players)
        encoded = kept.encoded.get(seat)
        if encoded is None:
            # as the projector writes it; the others' refusals (every seat but the one accepted, in
            # a simultaneous phase) skip the rules' check
            undoer = undo.undoer(match.game, folded.state, folded.last_move, asking=seat)
            encoded = kept.encoded[seat] = kept.envelopes.encoded(seat, undoer)
        return encoded

    def _keep(self, match: Match, folded: Folded, players: list[TablePlayer]) -> _Kept:
        self._kept.pop(match.id, None)  # (in again last: the oldest kept is the first)
        if len(self._kept) >= self.KEPT:
            del self._kept[next(iter(self._kept))]
        envelopes = Envelopes(match.game, match.id, folded.state, folded.version, players)
        kept = self._kept[match.id] = _Kept(folded, players, envelopes)
        return kept
