"""Which move of the log a seat may take back (Undo): a fact of the log's entries, which the state
cannot tell (domain/kernel/undo.py). The service reads it from the entries it folds
(services/commands/folds.py), ``tavern audit`` from the export (projections/audit.py)."""

from __future__ import annotations

from domain.kernel import Seat
from domain.kernel.online import SERVICE_COMMANDS
from domain.kernel.undo import Undo
from projections.chain import Cause

# a command's type as the log records it: a seat's own move is none of these
_NOT_OWN = frozenset(kind.__struct_config__.tag for kind in (*SERVICE_COMMANDS, Undo))


def own_move(cause: Cause, events: int) -> tuple[Seat, int] | None:
    """The seat and event count of the log's last command, caused by ``cause`` in ``events`` entries,
    when it is a move its seat sent itself (None: the opening, the service's own, or an undo)."""
    command = cause.command
    kind = command.get("type") if isinstance(command, dict) else type(command).__name__
    if cause.id is None or cause.seat is None or command is None or kind in _NOT_OWN:
        return None
    return cause.seat, events
