"""Seats around the table: numbered 0..n-1 clockwise, so a seat's left neighbour is the next one."""

from __future__ import annotations

from domain.kernel.game import Seat


def left_of(seat: Seat, seats: int) -> Seat:
    return (seat + 1) % seats


def right_of(seat: Seat, seats: int) -> Seat:
    return (seat - 1) % seats


def clockwise_from(first: Seat, seats: int) -> list[Seat]:
    """Every seat once, starting with ``first`` and going left."""
    return [(first + i) % seats for i in range(seats)]
