"""How the matchmaker forms tables from a pool's waiting tickets (docs/matchmaking.md): pure, the
time handed in, so a test or the bench runs it on a simulated clock.

Tickets share a table only if they ask the same options and the same ``rated``, their seat ranges
overlap at the table's size, and every ticket finds every other's rating within its own window,
which widens with its wait: ``window + WIDEN_PER_S * waited``, up to its ``max_window``.
The oldest ticket is served first: it takes the nearest compatible ratings, up to the largest
size all of them accept; the table is formed when full, or once the oldest has waited
``PATIENCE_S`` with enough players for every ticket's smallest size; or, if every ticket there
allows bots and has waited its ``bots_after_s``, with bots in the seats still missing."""

from __future__ import annotations

from dataclasses import dataclass

WIDEN_PER_S = 0.2  # rating points (openskill's mu) a window widens by per second waited
PATIENCE_S = 10.0  # how long the oldest waits for a fuller table before one of its smallest size


@dataclass(frozen=True, slots=True)
class Waiting:
    """A waiting ticket as the forming needs it."""

    ticket_id: str
    player: str
    rating: float
    low: int  # the fewest and most seats it accepts
    high: int
    kind: str  # options and rated, canonical: tickets of different kinds never share a table
    window: float  # rating points either side, at first
    max_window: float | None  # None: it widens without end
    bots_after_s: float | None  # None: never with bots
    created: float


@dataclass(frozen=True, slots=True)
class Table:
    tickets: tuple[Waiting, ...]  # the oldest first
    bots: int  # seats played by bots, beyond the tickets'

    @property
    def seats(self) -> int:
        return len(self.tickets) + self.bots


def window(ticket: Waiting, now: float) -> float:
    widened = ticket.window + WIDEN_PER_S * max(0.0, now - ticket.created)
    return widened if ticket.max_window is None else min(widened, max(ticket.window, ticket.max_window))


def _accepted(table: list[Waiting], now: float) -> bool:
    """Whether every ticket finds every other's rating within its window."""
    low, high = min(t.rating for t in table), max(t.rating for t in table)
    return all(max(high - t.rating, t.rating - low) <= window(t, now) for t in table)


def _with_bots(table: list[Waiting], now: float) -> bool:
    return all(t.bots_after_s is not None and now - t.created >= t.bots_after_s for t in table)


def form(tickets: list[Waiting], now: float) -> list[Table]:
    """The tables these waiting tickets make now, no ticket in two; the rest keep waiting."""
    kinds: dict[str, list[Waiting]] = {}
    for ticket in sorted(tickets, key=lambda t: (t.created, t.ticket_id)):
        kinds.setdefault(ticket.kind, []).append(ticket)
    tables: list[Table] = []
    for waiting in kinds.values():
        taken: set[str] = set()
        for anchor in waiting:
            if anchor.ticket_id in taken:
                continue
            table = _around(anchor, [t for t in waiting if t.ticket_id not in taken], now)
            if table is not None:
                tables.append(table)
                taken.update(t.ticket_id for t in table.tickets)
    return tables


def _around(anchor: Waiting, free: list[Waiting], now: float) -> Table | None:
    """The table the anchor (the oldest free ticket of its kind) makes now, if any."""
    table, low, high = [anchor], anchor.low, anchor.high
    nearest = sorted((t for t in free if t is not anchor), key=lambda t: (abs(t.rating - anchor.rating), t.created))
    for other in nearest:
        if len(table) >= high:
            break
        joined_low, joined_high = max(low, other.low), min(high, other.high)
        if len(table) + 1 > joined_high or not _accepted([*table, other], now):
            continue
        table.append(other)
        low, high = joined_low, joined_high
    people = len(table)
    if people == high or (people >= low and now - anchor.created >= PATIENCE_S):
        return Table(tuple(table), 0)
    if _with_bots(table, now) and low <= high:
        return Table(tuple(table), max(low, people) - people)
    return None


def spread(table: Table) -> float:
    """The rating spread of a table's people (the bench's measure)."""
    ratings = [t.rating for t in table.tickets]
    return max(ratings) - min(ratings)
