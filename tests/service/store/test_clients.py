"""The cluster client carries exactly the commands the repositories send to the events' Redis
(services/store/clients.py): a command the store starts using without it fails here, not with a
500 in cluster mode, and one nobody sends any more is not kept. (Each repository's conformance
suite then runs it on a real cluster.)"""

from __future__ import annotations

from services.store import clients
from services.store.cluster_client import ClusterClient, Commands, Pipeline


def members(protocol: type) -> set[str]:
    return {
        name
        for name, value in vars(protocol).items()
        if callable(value) and (not name.startswith("_") or name in ("__aenter__", "__aexit__"))
    }


def test_the_cluster_client_carries_each_command_of_the_events_handle():
    missing = sorted(name for name in members(clients.Events) if not callable(getattr(ClusterClient, name, None)))
    assert missing == []


def test_the_cluster_pipeline_carries_each_command_of_a_pipeline():
    missing = sorted(name for name in members(clients.Pipeline) if not callable(getattr(Pipeline, name, None)))
    assert missing == []


def test_the_handles_name_the_commands_the_repositories_send():
    assert {"hgetall", "hsetnx", "expire", "zscore", "pipeline"} <= members(clients.Events)
    assert {"watch", "multi", "execute", "hset", "hdel"} <= members(clients.Pipeline)


def test_the_cluster_client_carries_nothing_the_store_does_not_send():
    carried = members(Commands) | members(ClusterClient) | members(Pipeline)
    assert sorted(carried - members(clients.Events) - members(clients.Pipeline)) == []
