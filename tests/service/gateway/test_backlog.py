"""A stream's backlog (services/gateway/backlog.py): a client that takes nothing is stalled once its
unsent bytes have not gone down for the send timeout, however few they are; one that takes some,
or has nothing waiting, is not."""

from __future__ import annotations

from services.gateway.backlog import Backlog


class Counted(Backlog):
    """A backlog whose unsent bytes the test sets (no transport)."""

    def __init__(self) -> None:
        super().__init__(receive=None, cap=128 * 1024)
        self.held = 0

    def unsent(self) -> int:
        return self.held


def test_a_client_that_takes_nothing_is_stalled_after_the_timeout_though_under_the_cap():
    backlog = Counted()
    backlog.held = 3_000  # a short match's views, far under the cap
    assert not backlog.stalled(30, now=100.0)
    backlog.held = 3_100  # a ping more: nothing taken
    assert not backlog.stalled(30, now=115.0)
    assert backlog.stalled(30, now=130.0)


def test_a_client_that_takes_some_or_has_nothing_waiting_is_not_stalled():
    backlog = Counted()
    backlog.held = 50_000
    assert not backlog.stalled(30, now=100.0)
    backlog.held = 40_000  # it read some: the wait starts again
    assert not backlog.stalled(30, now=129.0)
    assert not backlog.stalled(30, now=158.0)
    assert backlog.stalled(30, now=159.0)
    backlog.held = 0  # drained
    assert not backlog.stalled(30, now=500.0)
    assert not backlog.stalled(30, now=600.0)
