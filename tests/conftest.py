"""What the whole suite relies on from its runner."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (make test), a module marked ``xdist_group`` runs on one worker:
    one local topology, one image build. pytest-xdist marks that by suffixing the node ids, which a
    pytest it does not know may ignore (9.2 did): then every group would spread over the workers,
    each starting its own, so refuse to run instead."""
    if not config.getoption("loadgroup", default=False):
        return
    lost = [item.nodeid for item in items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(f"--dist loadgroup did not group {lost[0]} (pytest {pytest.__version__})")
