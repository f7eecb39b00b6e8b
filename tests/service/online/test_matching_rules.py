"""How the matchmaker forms tables (services/commands/matching.py, docs/matchmaking.md), on a
clock handed in: windows widen with the wait and both sides must accept, kinds never mix, a
table forms full at once or smaller after the oldest's patience, and bots fill only when every
ticket at the table allows them and has waited its time."""

from __future__ import annotations

from services.commands.matching import PATIENCE_S, WIDEN_PER_S, Waiting, form, window


def ticket(name: str, rating: float, low: int = 2, high: int = 2, created: float = 0.0, **asked) -> Waiting:
    fields = {"kind": "rated|{}", "window": 2.0, "max_window": 8.0, "bots_after_s": None} | asked
    return Waiting(name, f"player-{name}", rating, low, high, created=created, **fields)


def seated(tables) -> list[list[str]]:
    return [sorted(t.ticket_id for t in table.tickets) for table in tables]


def test_a_window_widens_with_the_wait_up_to_its_most():
    waiting = ticket("a", 25.0)
    assert window(waiting, 0.0) == 2.0
    assert window(waiting, 10.0) == 2.0 + 10 * WIDEN_PER_S
    assert window(waiting, 1000.0) == 8.0
    assert window(ticket("b", 25.0, max_window=None), 1000.0) == 2.0 + 1000 * WIDEN_PER_S


def test_both_sides_must_accept_and_the_wait_widens_them():
    far = [ticket("a", 25.0), ticket("b", 29.0, window=10.0)]  # b accepts a, a does not accept b yet
    assert form(far, 1.0) == []
    assert seated(form(far, (4.0 - 2.0) / WIDEN_PER_S + 1)) == [["a", "b"]]


def test_the_oldest_takes_the_nearest_ratings_and_kinds_never_mix():
    pool = [ticket("old", 25.0), ticket("far", 26.9, created=1.0), ticket("near", 25.5, created=2.0),
            ticket("other", 25.1, kind="unrated|{}", created=3.0)]  # fmt: skip
    assert seated(form(pool, 3.0)) == [["near", "old"]]


def test_a_table_forms_full_at_once_or_at_its_fewest_after_the_patience():
    three = [ticket(name, 25.0, low=3, high=5) for name in "abc"]
    assert form(three, 1.0) == []  # it could hold five: it waits for them a while
    assert seated(form(three, PATIENCE_S)) == [["a", "b", "c"]]
    five = [ticket(name, 25.0, low=3, high=5) for name in "abcdef"]
    assert [table.seats for table in form(five, 1.0)] == [5]  # full at once; f waits
    narrow = [ticket("a", 25.0, low=3, high=4), ticket("b", 25.0, low=4, high=5), ticket("c", 25.0, low=3, high=5)]
    assert form(narrow, PATIENCE_S) == []  # b needs four
    assert seated(form([*narrow, ticket("d", 25.0, low=2, high=4)], 0.0)) == [["a", "b", "c", "d"]]


def test_bots_fill_only_when_every_ticket_allows_them_and_has_waited():
    alone = [ticket("a", 25.0, low=3, high=4, kind="unrated|{}", bots_after_s=20.0)]
    assert form(alone, 19.0) == []
    (table,) = form(alone, 20.0)
    assert (table.seats, table.bots) == (3, 2)
    pair = [*alone, ticket("b", 25.0, low=3, high=4, kind="unrated|{}", created=5.0)]  # b allows none
    assert form(pair, 100.0) == []
    patient = [*alone, ticket("b", 25.0, low=3, high=4, kind="unrated|{}", created=5.0, bots_after_s=20.0)]
    assert [(t.seats, t.bots) for t in form(patient, 24.0)] == []
    assert [(t.seats, t.bots) for t in form(patient, 25.0)] == [(3, 1)]
