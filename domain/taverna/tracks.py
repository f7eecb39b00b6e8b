"""The people tracks: gaining levels and their bonuses, the unique top level, the royal order."""

from __future__ import annotations

from domain.taverna import events as ev
from domain.taverna.content import BONUS, PEOPLE_INDEX, PEOPLES, TOP
from domain.taverna.deck import draw_spell
from domain.taverna.state import Ctx, State


def level(state: State, seat: int, people: str) -> int:
    return state.players[seat].levels[PEOPLE_INDEX[people]]


def top_taken(state: State, seat: int, people: str) -> bool:
    """The last level of a track is reachable by one player only, the first who gets there."""
    i = PEOPLE_INDEX[people]
    return any(p.levels[i] == TOP for s, p in enumerate(state.players) if s != seat)


def can_rise(state: State, seat: int, people: str, steps: int = 1) -> bool:
    target = level(state, seat, people) + steps
    return target < TOP or (target == TOP and not top_taken(state, seat, people))


def gain_level(ctx: Ctx, seat: int, people: str, bonus: bool = True) -> None:
    """One level up if it can be had (else nothing), then the level's bonus unless told otherwise."""
    if not can_rise(ctx.state, seat, people):
        return
    new = level(ctx.state, seat, people) + 1
    ctx.emit(ev.LevelGained(seat=seat, people=people, level=new))
    if bonus:
        grant(ctx, seat, BONUS[people].get(new, {}), f"{people} track")


def grant(ctx: Ctx, seat: int, bonus: dict[str, int], reason: str) -> None:
    """A track bonus: points, coins, spell cards or privilege tokens (while the reserve lasts)."""
    coins, points = bonus.get("coins", 0), bonus.get("points", 0)
    privileges = min(bonus.get("privilege", 0), ctx.state.privilege_reserve)
    if coins or points or privileges:
        ctx.emit(ev.Gained(seat=seat, reason=reason, coins=coins, points=points, privileges=privileges))
    for _ in range(bonus.get("spell", 0)):
        draw_spell(ctx, seat)


def order_by_track(state: State, people: str, seats: list[int]) -> list[int]:
    """Highest first on ``people``; ties go to the next track to the right, and so on round the circle.

    Seats tied on every track keep turn order (our ruling: the rulebook gives no further step).
    """
    start = PEOPLE_INDEX[people]
    circle = [(start + k) % len(PEOPLES) for k in range(len(PEOPLES))]
    return sorted(seats, key=lambda s: tuple(-state.players[s].levels[i] for i in circle))


def royal_order(state: State) -> tuple[int, ...]:
    """The King's track order; with two seats the Queen's round follows, ordered once the King's is over."""
    return tuple(order_by_track(state, state.king, list(range(state.seats))))

