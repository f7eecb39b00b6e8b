"""TournamentBook's contract, on each backend: the log is appended only at the length it was read
at (two processes advancing one tournament: one round is kept); results are kept per match; a
table's match names its tournament; the list is by start time; the sweepers' due set."""

from __future__ import annotations

import secrets

import pytest

from services.store.tournaments import TournamentBook
from tests.service.store.partitioned import PARTITIONS, shares

pytestmark = pytest.mark.anyio


async def test_the_log_is_appended_only_at_the_length_read(backend):
    book, tid = TournamentBook(backend.events, PARTITIONS, shares(backend)), secrets.token_hex(8)
    assert await book.log(tid) == []
    assert await book.append(tid, 0, [b'{"a":1}', b'{"b":2}'])
    assert not await book.append(tid, 0, [b'{"c":3}'])  # it moved: nothing appended
    assert not await book.append(tid, 1, [b'{"c":3}'])
    assert await book.append(tid, 2, [b'{"c":3}'])
    assert await book.log(tid) == [b'{"a":1}', b'{"b":2}', b'{"c":3}']


async def test_results_tables_the_list_and_the_due_set(backend):
    book, tid = TournamentBook(backend.events, PARTITIONS, shares(backend)), secrets.token_hex(8)
    other = secrets.token_hex(8)
    assert await book.results(tid) == {}
    await book.record(tid, "m1", b'{"p": 1}')
    await book.record(tid, "m1", b'{"p": 1}')  # recorded twice: the same
    await book.record(tid, "m2", b'{"q": 2}')
    assert await book.results(tid) == {"m1": b'{"p": 1}', "m2": b'{"q": 2}'}
    assert await book.of_match("m3") is None
    await book.table("m3", tid)
    assert await book.of_match("m3") == tid
    await book.add(tid, 200.0)
    await book.add(other, 100.0)
    assert await book.page(0, 10) == [other, tid]
    assert await book.page(1, 10) == [tid]
    await book.due.set(tid, 50.0)
    await book.due.set(other, 500.0)
    assert await book.due.due(100.0, 10) == [tid]
