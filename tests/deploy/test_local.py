"""deploy/local.sh's topology (compose.yaml's, without containers), played through its nginx: a
6-node Redis Cluster, 2 queue instances each with a replica under 3 Sentinels, 2 gateways, 2 workers.

Matches of all four games played to the end across both gateways, every export passing ``tavern
audit``; then, mid-play, a cluster primary SIGKILLed, a queue instance's primary SIGKILLed (Sentinel
promotes its replica: no command answered 503) and a match's slot resharded: every command is
answered 200 (or a refusal of the rules) or 503 with Retry-After and a JSON error (durable_play.call checks each), every
match finishes (its views projected: play waits for them), and every 200 is in the exported log
(WAIT on, the cluster default). And online play (players, lobby, join, start, ratings, rematch)
on the cluster. Through its nginx, a WebSocket stream carries views and commands, a forged
X-Forwarded-For does not change the address the limits see, and connections that send half their
headers, or nothing, are closed. The kit's settings (deploy/tavern.env:
the shipped limits on, creation by a player's token or an API key, here the frontends' key of
local_topology.KEY). One topology for the module (one xdist group: make test runs --dist loadgroup)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import threading
import time

import httpx
import pytest
import websockets

from services.store import keys
from tests.deploy.local_topology import KEY, SCRIPT, Local, until
from tests.service.client import bearer, seat_token
from tests.service.durable_play import GAMES, Tally, call, check_exports, create_all, play_all
from tests.service.limits.test_streams_and_reads import closed_within, connect, head
from tests.service.online.lobby_client import Person
from tests.service.online.test_meet_in_the_lobby import play as play_people
from tests.service.online.test_rematch import finished_match

pytestmark = [pytest.mark.anyio, pytest.mark.xdist_group("local-topology")]
FRONTEND = {"X-API-Key": KEY}  # the matches are created as a trusted frontend would (TAVERN_CREATE_IDENTITY=player)


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    topology = Local(tmp_path_factory.mktemp("local"))
    try:
        first = topology.up()
        assert first.count("local.sh: started") == 18  # 6 nodes, 2+2 queue, 3 sentinels, 2+2 services, nginx
        assert "started" not in topology.up().replace("local.sh: up", "")  # again: nothing to start
        yield topology
    finally:
        topology.down()


async def played(local: Local, tally: Tally, copies: int = 1) -> tuple[list[dict], asyncio.Task]:
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30, headers=FRONTEND) as api:
        created = await create_all(api, tally, copies)
    # two clients, as two players' browsers would be; nginx picks each match's gateway
    return created, asyncio.create_task(play_all([local.nginx, local.nginx], created, tally))


async def acknowledged(tally: Tally, count: int, playing: asyncio.Task) -> None:
    while len(tally.acknowledged) < count and not playing.done():
        await asyncio.sleep(0.01)


async def spread(local: Local, tally: Tally) -> list[dict]:
    """Matches of every game, twice at least, and more until nginx has sent some to each gateway
    and the cluster holds them on more than one shard (either hash may put a few matches on one)."""
    created: list[dict] = []
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30, headers=FRONTEND) as api:
        for _ in range(8):
            created += await create_all(api, tally)
            for match in created[-len(GAMES) :]:  # a request under each id, routed by it
                url = f"/v1/matches/{match['match_id']}/view"
                await call(api, tally, "GET", url, headers=bearer(seat_token(match, 0)))
            # nginx logs a request after answering it: wait for the lines
            ids = {match["match_id"] for match in created}
            await asyncio.to_thread(until, lambda ids=ids: ids <= local.upstreams().keys(), "nginx logged no route")
            routed = local.upstreams()
            reached = set().union(*(routed[match_id] for match_id in ids))
            shards = {local.cluster.primary_of(keys.log(match_id)) for match_id in ids}
            if len(created) >= 2 * len(GAMES) and reached == set(local.gateways) and len(shards) > 1:
                return created
    pytest.fail("nginx sent every match to one gateway, or the cluster's slots put them on one shard")


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
    await asyncio.wait_for(playing, 120)  # every match finished: none left unprojected (views caught up)
    await check_exports(local.nginx, created, tally, tmp_path)  # every acknowledged command in its log
    # the command path touches no queue Redis but for the dirty marks, deferred beside the events
    # while it is away: its failover only delays projection (the shipped limits on: their buckets
    # are on the shards and in the gateways)
    assert tally.statuses <= {200, 201, 409, 422} and tally.unavailable == 0
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


async def test_a_websocket_stream_through_nginx(local):
    """nginx upgrades /ws (the match's gateway by its id, as its other routes): the seat's view
    comes on the socket, a command sent on it is answered 200, and the view it made follows."""
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30, headers=FRONTEND) as api:
        created = (await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3, "bots": [1, 2]})).json()
    match_id, token = created["match_id"], seat_token(created, 0)
    url = f"{local.nginx.replace('http', 'ws', 1)}/v1/matches/{match_id}/ws?access_token={token}"
    async with websockets.connect(url) as ws:
        first = json.loads(await ws.recv())
        assert first["kind"] == "view" and first["view"]["seat"] == 0 and first["view"]["legal"], first
        await ws.send(json.dumps({"id": "c1", "command": first["view"]["legal"][0]}))
        answered, seen = None, first["view"]["version"]
        while answered is None or seen < answered:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if frame["kind"] == "answer":
                assert (frame["id"], frame["status"]) == ("c1", 200), frame
                answered = frame["body"]["version"]
            elif frame["kind"] == "view":
                seen = frame["view"]["version"]
        async with httpx.AsyncClient(base_url=local.nginx, timeout=30) as api:
            seen_view = await api.get(f"/v1/matches/{match_id}/view", headers=bearer(token))
            assert seen_view.status_code == 200
    # nginx logs the socket once it is closed: then both requests are in its log, on one gateway
    log = local.directory / "logs" / "nginx-access.log"
    await asyncio.to_thread(until, lambda: f" 101 GET /v1/matches/{match_id}/ws" in log.read_text(), "no /ws logged")
    assert len(local.upstreams()[match_id]) == 1


async def test_a_forged_x_forwarded_for_does_not_change_the_address_the_limits_see(local):
    """The issue's forgery: registrations (a bucket per client address: TAVERN_CREATES_BURST, 50
    shipped, then TAVERN_CREATES_PER_S, 5/s) each with another X-Forwarded-For. nginx replaces
    the header with the address it saw, so they all count against this client's one address
    and are refused past the burst; had nginx passed them on, each would be a new address (150 of
    150 taken). The bucket is left to refill, so a test after this one registers as usual."""
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30) as api:

        async def register(index: int) -> httpx.Response:
            forged = {"X-Forwarded-For": f"203.0.113.{index}"}
            return await api.post("/v1/players", json={"name": f"F{index}"}, headers=forged)

        answers = await asyncio.gather(*(register(index) for index in range(150)))
        refused = [answer for answer in answers if answer.status_code == 429]
        assert refused and {answer.json()["error"]["code"] for answer in refused} == {"rate_limited"}
        assert {answer.status_code for answer in answers} == {201, 429}
        retry = int(refused[0].headers["retry-after"])
        for _ in range(60):  # the bucket refills at TAVERN_CREATES_PER_S
            await asyncio.sleep(retry)
            if (await api.post("/v1/players", json={"name": "After"})).status_code == 201:
                return
    pytest.fail("registrations were still refused a minute after the burst")


def test_nginx_closes_a_connection_with_half_its_headers_or_none(local):
    """deploy/nginx.conf's client_header_timeout and keepalive_timeout (issue 38: such connections
    were held for good): a request's headers cut off, a connection that sends nothing, and one
    kept alive after its answer are each closed (checked without reading, by their TCP state)."""
    port = int(local.nginx.rsplit(":", 1)[1])
    half = connect(port, b"GET /v1/games HTTP/1.1\r\nHost: tavern\r\nX-Slow: ")
    idle = connect(port, b"")
    kept = connect(port, b"GET /healthz HTTP/1.1\r\nHost: tavern\r\n\r\n")
    assert head(kept).startswith(b"HTTP/1.1 200")
    # nginx.conf's 10 s for headers and 15 s kept alive, three times over on a loaded machine;
    # nginx's defaults (60 s, 75 s) would not close them within it
    assert closed_within([half, idle, kept], 45) == [True, True, True]
    for sock in (half, idle, kept):
        sock.close()


def test_nginx_caps_an_address_connections(local):
    """deploy/nginx.conf's limit_conn: past 1024 connections at once from one address, a request
    is answered the API's 429 rate_limited with Retry-After (before, nothing capped them)."""
    port = int(local.nginx.rsplit(":", 1)[1])
    # requests in progress count (a connection that has sent nothing does not): bodies half sent,
    # which nginx waits for (client_body_timeout, 10 s between two reads)
    slow = b"POST /v1/players HTTP/1.1\r\nHost: tavern\r\nContent-Length: 100\r\n\r\n{"
    held: list[socket.socket] = []
    done = threading.Event()

    def feed() -> None:
        # each held body fed a byte every 2 s from the moment it is open, so that none reaches
        # client_body_timeout and stops counting while the others are still being opened on a
        # loaded machine (at most 40 bytes of its 100 in the 80 s this test can take)
        while not done.wait(2):
            for sock in list(held):
                with contextlib.suppress(OSError):
                    sock.sendall(b" ")

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        for _ in range(1024):
            held.append(connect(port, slow))
        # a held connection counts once a worker has read its headers, which on a loaded machine may
        # come after a later connection's request: asked again until all count
        began = time.monotonic()
        while True:
            over = connect(port, b"GET /v1/games HTTP/1.1\r\nHost: tavern\r\nConnection: close\r\n\r\n")
            over.settimeout(30)
            answer = b""
            while chunk := over.recv(65536):  # until nginx closes it
                answer += chunk
            over.close()
            if answer.startswith(b"HTTP/1.1 429") or time.monotonic() - began > 30:
                break
            time.sleep(0.2)
        still_held = sum(not gone for gone in closed_within(held, 0))
    finally:
        done.set()
        feeder.join()
        for sock in held:
            sock.close()
    assert answer.startswith(b"HTTP/1.1 429") and b"\r\nRetry-After: 5\r\n" in answer, (still_held, answer[:200])
    assert b'"code": "rate_limited"' in answer


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


def test_up_without_the_frontends_keys_starts_nothing(tmp_path):
    topology = Local(tmp_path)
    unkeyed = {name: value for name, value in topology.env.items() if name != "TAVERN_API_KEYS"}
    done = subprocess.run([str(SCRIPT), "up"], env=unkeyed, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == "local.sh: set TAVERN_API_KEYS to the frontends' keys, comma-separated (as compose.yaml)\n"
    assert topology.pids() == {}
