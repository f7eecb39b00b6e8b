"""Starting: a bad setting or an unreachable Redis is one line on standard error and a non-zero
exit within seconds; a busy port too, and "serving" is printed only once the gateway listens."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from services.ops.settings import BadSetting, from_env
from tests.service.conftest import ROOT, free_port, service_env


def run(args: list[str], env: dict[str, str], timeout: float = 30) -> tuple[subprocess.CompletedProcess, float]:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done, time.monotonic() - began


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["worker"]])
def test_without_redis_a_process_exits_at_once_with_one_line(command):
    nobody = f"redis://:secret@127.0.0.1:{free_port()}/0"  # nothing listens there
    done, took = run(command, service_env(nobody, TAVERN_START_S="2"))
    print(f"{command[0]} without Redis: exit {done.returncode} after {took:.2f} s")
    assert done.returncode == 1
    # no wall-clock bound here (a loaded machine starts Python slowly): run()'s timeout catches a
    # hang, and the line below names the 2 s the process gave Redis
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "cannot reach Redis at redis://127.0.0.1:" in lines[0] and "(REDIS_URL) in 2 s" in lines[0]
    assert "secret" not in done.stderr and "serving" not in done.stdout


def test_without_the_queues_redis_a_gateway_names_it(redis_url):
    env = service_env(redis_url, QUEUE_URL=f"redis://127.0.0.1:{free_port()}/0", TAVERN_START_S="1")
    done, _ = run(["serve", "--port", "0"], env)
    assert done.returncode == 1 and "(QUEUE_URL)" in done.stderr, done.stderr


def test_a_bad_setting_is_named():
    done, _ = run(["worker"], service_env("redis://127.0.0.1:1/0", TAVERN_LEASE_S="soon"))
    assert done.returncode == 1
    assert done.stderr.strip() == "tavern worker: TAVERN_LEASE_S='soon' is not a number"


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("REDIS_URL", "localhost:6379", "a Redis URL"),
        ("LOG_LEVEL", "loud", "one of debug, info"),
        ("TAVERN_STOP_S", "0", "above 0"),
        ("TAVERN_DEQUEUE_S", "0.5", "a number"),
        ("TAVERN_TICK_MS", "-1", "0 or more"),
        ("TAVERN_PARTITIONS", "0", "from 1 to 1000"),
        ("TAVERN_ASLEEP_BUCKETS", "5000", "from 1 to 4096"),
        ("QUEUE_URL", "redis://q1:6379,q2:6379", "a Redis URL"),
        ("QUEUE_MASTER", "tavern,,tavern-2", "a non-empty name"),
    ],
)
def test_settings_are_checked(name, value, said):
    with pytest.raises(BadSetting, match=f"^{name}='{value}' is not ") as raised:
        from_env({name: value})
    assert said in str(raised.value)


def test_a_busy_port_is_an_error_not_serving(redis_url):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done, _ = run(["serve", "--port", str(taken.getsockname()[1])], service_env(redis_url))
    assert done.returncode != 0
    assert "serving" not in done.stdout
    assert "address already in use" in done.stderr.lower()


def test_several_queue_instances_are_listed_comma_separated():
    urls = from_env({"REDIS_URL": "redis://e:6379", "QUEUE_URL": "redis://q1:6379, redis://q2:6379"})
    assert urls.queue_urls == ("redis://q1:6379", "redis://q2:6379") and urls.queue_count == 2
    masters = from_env({"REDIS_URL": "redis://e:6379", "QUEUE_SENTINELS": "s:26379", "QUEUE_MASTER": "tavern,tavern-2"})
    assert masters.queue_masters == ("tavern", "tavern-2") and masters.queue_count == 2
    one = from_env({"REDIS_URL": "redis://e:6379", "QUEUE_URL": "redis://q1:6379"})
    assert (one.queue_url, one.queue_count) == ("redis://q1:6379", 1)  # the single-instance setting as it was
    assert from_env({"REDIS_URL": "redis://e:6379"}).queue_count == 1  # the queue beside the events
