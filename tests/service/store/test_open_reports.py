"""OpenReports' contract (services/store/moderation.py) on each backend: the moderators' open list
of chat reports across matches, the oldest first over every partition, paged; a report handled
leaves it once; each partition keeps its newest reports only."""

from __future__ import annotations

import pytest

from services.store.moderation import OpenReports
from services.store.partitions import Partitions

pytestmark = pytest.mark.anyio


async def test_reports_of_many_matches_are_listed_oldest_first_and_leave_once_handled(backend):
    listed = OpenReports(backend.events, Partitions(8))
    made = [(f"match{n}", f"{1000 + n}-0") for n in range(12)]  # over several partitions
    for match_id, report_id in reversed(made):
        await listed.add(match_id, report_id, f'{{"of":"{match_id}"}}'.encode())
    assert len({listed.partitions.of(match_id) for match_id, _ in made}) > 1
    page = await listed.page(0, 5) + await listed.page(5, 100)
    assert [(match_id, report_id) for match_id, report_id, _, _ in page] == made
    assert page[3][2:] == (1003, b'{"of":"match3"}')
    assert await listed.count() == 12
    assert await listed.handled("match3", "1003-0")
    assert not await listed.handled("match3", "1003-0")
    assert not await listed.handled("match4", "1003-0")  # another match's id
    assert [report_id for _, report_id, _, _ in await listed.page(2, 2)] == ["1002-0", "1004-0"]
    assert await listed.count() == 11


async def test_a_partition_keeps_its_newest_open_reports(backend):
    listed = OpenReports(backend.events, Partitions(1), kept=3)
    for n in range(5):
        await listed.add("m", f"{n + 1}-0", b"{}")
    assert [report_id for _, report_id, _, _ in await listed.page(0, 10)] == ["3-0", "4-0", "5-0"]
    assert not await listed.handled("m", "1-0")  # dropped, its body with it
    assert await listed.count() == 3
