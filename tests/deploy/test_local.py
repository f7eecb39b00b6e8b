"""deploy/local.sh's topology (compose.yaml's, without containers), played through its nginx: a
6-node Redis Cluster, the queue's Redis with a replica and 3 Sentinels, 2 gateways, 2 workers.

Matches of all four games played to the end across both gateways, every export passing ``tavern
audit``; then, mid-play, a cluster primary SIGKILLed, the queue's primary SIGKILLed (Sentinel
promotes its replica) and a match's slot resharded: every command is answered 200 (or a refusal
of the rules) or 503 with Retry-After and a JSON error (durable_play.call checks each), every
match finishes (its views projected: play waits for them), and every 200 is in the exported log
(WAIT on, the cluster default). And online play (players, lobby, join, start, ratings, rematch)
on the cluster. One topology for the module (one xdist group: make test runs --dist loadgroup)."""

from __future__ import annotations

import asyncio
import socket
import subprocess

import httpx
import pytest

from services.store import keys
from tests.deploy.local_topology import SCRIPT, Local, until
from tests.service.client import bearer, seat_token
from tests.service.durable_play import GAMES, Tally, call, check_exports, create_all, play_all
from tests.service.online.lobby_client import Person
from tests.service.online.test_meet_in_the_lobby import play as play_people
from tests.service.online.test_rematch import finished_match

pytestmark = [pytest.mark.anyio, pytest.mark.xdist_group("local-topology")]


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    topology = Local(tmp_path_factory.mktemp("local"))
    try:
        first = topology.up()
        assert first.count("local.sh: started") == 16  # 6 nodes, 2 queue, 3 sentinels, 2+2 services, nginx
        assert "started" not in topology.up().replace("local.sh: up", "")  # again: nothing to start
        yield topology
    finally:
        topology.down()


async def played(local: Local, tally: Tally, copies: int = 1) -> tuple[list[dict], asyncio.Task]:
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30) as api:
        created = await create_all(api, tally, copies)
    # two clients, as two players' browsers would be; nginx picks each match's gateway
    return created, asyncio.create_task(play_all([local.nginx, local.nginx], created, tally))


async def acknowledged(tally: Tally, count: int, playing: asyncio.Task) -> None:
    while len(tally.acknowledged) < count and not playing.done():
        await asyncio.sleep(0.01)


async def spread(local: Local, tally: Tally) -> list[dict]:
    """Matches of every game, twice at least, and more until nginx has sent some to each gateway
    (its hash may put a few matches on one)."""
    created: list[dict] = []
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30) as api:
        for _ in range(8):
            created += await create_all(api, tally)
            for match in created[-len(GAMES) :]:  # a request under each id, routed by it
                url = f"/v1/matches/{match['match_id']}/view"
                await call(api, tally, "GET", url, headers=bearer(seat_token(match, 0)))
            routed = local.upstreams()
            reached = set().union(*(routed[match["match_id"]] for match in created))
            if len(created) >= 2 * len(GAMES) and reached == set(local.gateways):
                return created
    pytest.fail("nginx sent every match to one gateway")


async def test_every_game_played_through_nginx_across_both_gateways(local, tmp_path):
    tally = Tally()
    created = await spread(local, tally)
    await asyncio.wait_for(play_all([local.nginx, local.nginx], created, tally), 120)
    await check_exports(local.nginx, created, tally, tmp_path)
    assert tally.unavailable == 0 and tally.acknowledged
    routed = local.upstreams()
    # each match on one gateway (the consistent hash on its id), the matches on both
    assert all(len(routed[match["match_id"]]) == 1 for match in created)
    assert set().union(*(routed[match["match_id"]] for match in created)) == set(local.gateways)
    assert len({local.cluster.primary_of(keys.log(match["match_id"])) for match in created}) > 1


async def test_a_cluster_primary_killed_mid_play_loses_nothing_acknowledged(local, tmp_path):
    tally = Tally()
    created, playing = await played(local, tally, copies=2)
    await acknowledged(tally, 20, playing)
    key = keys.log(created[0]["match_id"])
    victim = local.cluster.primary_of(key)
    local.cluster.kill(victim)
    await asyncio.to_thread(local.cluster.wait_promoted, victim, key)
    # local.sh up brings it back, as a replica of its successor (WAIT needs one)
    await asyncio.to_thread(local.cluster.start_node, victim)
    await asyncio.wait_for(playing, 120)
    await check_exports(local.nginx, created, tally, tmp_path)
    assert tally.statuses <= {200, 201, 409, 422, 503} and tally.unavailable > 0
    await asyncio.to_thread(local.cluster.wait_healthy)


async def test_the_queue_primary_killed_mid_play(local, tmp_path):
    tally = Tally()
    created, playing = await played(local, tally, copies=2)
    await acknowledged(tally, 20, playing)
    dead = local.queue_master()
    assert dead in local.queue
    local.kill(f"queue-{dead}")
    await asyncio.to_thread(until, lambda: local.queue_master() not in (None, dead), "Sentinel promoted no replica")
    await asyncio.wait_for(playing, 120)  # every match finished: none left unprojected
    await check_exports(local.nginx, created, tally, tmp_path)
    assert tally.statuses <= {200, 201, 409, 422, 503}
    # back as a replica of its successor (Sentinel turns it round): the next failover has one
    await asyncio.to_thread(local.up)
    await asyncio.to_thread(until, local.queue_replicated, "the old queue primary did not come back as a replica")
    assert local.queue_master() != dead


async def test_a_slot_resharded_mid_match_costs_only_retries(local, tmp_path):
    tally = Tally()
    created, playing = await played(local, tally)
    moved = keys.log(created[0]["match_id"])
    target = next(port for port in local.cluster.primaries() if port != local.cluster.primary_of(moved))
    await acknowledged(tally, 10, playing)
    before = sum(match == created[0]["match_id"] for match, _, _ in tally.acknowledged)
    await asyncio.to_thread(local.cluster.move_slot, moved, target, 0.02)
    assert local.cluster.primary_of(moved) == target
    await asyncio.wait_for(playing, 120)
    assert sum(match == created[0]["match_id"] for match, _, _ in tally.acknowledged) > before  # played on
    await check_exports(local.nginx, created, tally, tmp_path)
    assert tally.statuses <= {200, 201, 409, 422} and tally.unavailable == 0


async def test_online_play_on_the_cluster(local):
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30) as api:
        ann, ben = await Person(api).register("Dee"), await Person(api).register("Eve")
        created = await ann.create(game="heros-tavern", seats=3, open=[1, 2])
        page = (await ben.call("GET", "/v1/lobby?game=heros-tavern", auth=False)).json()
        assert [entry["free"] for entry in page["matches"] if entry["match_id"] == created["match_id"]] == [[1, 2]]
        assert (await ben.join(created["match_id"]))["seat"] == 1
        started = await ann.call("POST", f"/v1/matches/{created['match_id']}/start")
        assert started.json()["bots"] == [2], started.text
        listed = (await ben.call("GET", "/v1/lobby", auth=False)).json()["matches"]
        assert created["match_id"] not in [entry["match_id"] for entry in listed]
        final = await play_people([ann, ben], created["match_id"], seed=3)
        assert [(p["name"], p["bot"]) for p in final["players"]] == [("Dee", False), ("Eve", False), (None, True)]
        # a rated match (three registered players, no bot), then its rematch
        first, second, third, old = await finished_match(api)
        board: list[dict] = []
        for _ in range(300):  # the ratings are projected by a worker
            board = (await api.get("/v1/games/taverna/leaderboard")).json()
            if len(board) == 3:
                break
            await asyncio.sleep(0.05)
        assert sorted(row["name"] for row in board) == ["Ann", "Ben", "Cat"], board
        again = await second.call("POST", f"/v1/matches/{old}/rematch")
        assert again.status_code == 200, again.text
        joined = [await person.call("POST", f"/v1/matches/{old}/rematch") for person in (third, first)]
        assert {answer.json()["match_id"] for answer in joined} == {again.json()["match_id"]}
        assert joined[-1].json()["started"] is True


async def test_a_join_again_and_a_hosts_leave_on_the_cluster(local):
    """A join sent again gets the seat with a new token (the meta's token rewritten on its slot);
    the host's leave closes the match (its meta given an expiry: a command of the cluster client)."""
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30) as api:
        host, guest = await Person(api).register("Fay"), await Person(api).register("Gus")
        waiting = (await host.create(game="heros-tavern", seats=3, open=[1, 2]))["match_id"]
        first_token = (await guest.join(waiting))["token"]
        assert (await guest.join(waiting))["token"] != first_token
        left = await host.call("POST", f"/v1/matches/{waiting}/leave")
        assert left.json()["cancelled"] is True, left.text
        answer = await guest.call("POST", f"/v1/matches/{waiting}/join", {})
        assert (answer.status_code, answer.json()["error"]["code"]) == (409, "match_closed")


def test_a_taken_port_stops_up_before_it_starts_anything(tmp_path):
    topology = Local(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", topology.gateways[1]))
        taken.listen()
        done = subprocess.run([str(SCRIPT), "up"], env=topology.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    port = topology.gateways[1]
    said = f"local.sh: port {port} (for gateway-{port}) is taken by another program: choose TAVERN_LOCAL_PORT\n"
    assert done.stderr == said
    assert topology.pids() == {}
    assert "stopped" not in topology.run("down")  # nothing to stop
