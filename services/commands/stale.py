"""When a command's ``expected_version`` is stale, may it still be decided? (docs/API.md)

A client sends ``expected_version`` to say "I chose this from the view at that version". In a
simultaneous phase every seat chooses from the same version, so all but the first are stale by
the time they arrive, though nothing the others did changed what they could choose from. So a
stale command is decided anyway when, between that version and now, the seat's options did not
change: the same ``legal`` commands, and the same identifiers that only this seat can see (its
hand, its face-down pick). Anything else (its options changed, the version is not among those
this process keeps, the client asked for every stale version to be refused: ``Prefer:
handling=strict``, read by the gateway) is Stale (a ``409 stale_version``).
"""

from __future__ import annotations

from typing import Any

from domain.kernel import Game


def unchanged_for(game: Game, seat: int, then: Any, now: Any) -> bool:
    """Whether ``seat`` may do the same in state ``now`` as in state ``then``, and knows the same
    of what is hidden from everyone else."""
    # (a finished match leaves nothing legal: the online game's legal says so)
    return game.legal(then, seat) == game.legal(now, seat) and _own(game, then, seat) == _own(game, now, seat)


def _own(game: Game, state: Any, seat: int) -> set[str]:
    """The identifiers only ``seat`` may see: hidden from a spectator, not from the seat."""
    return game.hidden(state, None) - game.hidden(state, seat)
