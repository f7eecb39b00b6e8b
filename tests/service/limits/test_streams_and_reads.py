"""Issue 38's streams and reads, under `tavern serve` and a worker on a real Redis with the limits as
shipped: a stream (SSE, WebSocket) whose client never reads is cut, while a reading one of the
same seat gets the whole match; the open streams of one seat token and of one address are capped
(429 ``rate_limited`` with Retry-After; a WebSocket closed 4429); reads past their buckets are
429 (the heavy ones, replay, export and a whole log's events, sooner); a connection that sends
half its headers, or nothing, is closed."""

from __future__ import annotations

import asyncio
import socket
import time

import httpx
import pytest
import redis
import websockets

from services.ops.limits import Limits
from tests.service.client import bearer, play_to_end, seat_token
from tests.service.conftest import serve_healthy, service_env

pytestmark = pytest.mark.anyio
SHIPPED = Limits()
ESTABLISHED = 1  # tcp_info's first byte: the connection's TCP state (include/net/tcp_states.h)


@pytest.fixture
def served(redis_url, processes):
    """A gateway and a worker, every limit as shipped: the gateway's base URL and port."""
    redis.Redis.from_url(redis_url).flushall()
    env = service_env(redis_url, TAVERN_QUEUE="streams-reads")
    base, _ = serve_healthy(processes, env)
    processes(["worker"], env)
    return base, int(base.rsplit(":", 1)[1])


def connect(port: int, request: bytes, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer is not None:  # before connecting: the window the client offers stays small
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.sendall(request)
    return sock


def established(sock: socket.socket) -> bool:
    """Whether the server has neither closed nor reset the connection (read without reading it)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] == ESTABLISHED


def closed_within(socks: list[socket.socket], timeout_s: float) -> list[bool]:
    deadline = time.monotonic() + timeout_s
    while any(established(sock) for sock in socks) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [not established(sock) for sock in socks]


def stream_request(match_id: str, token: str) -> bytes:
    return (f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: tavern\r\n"
            f"Authorization: Bearer {token}\r\n\r\n").encode()


def ws_request(match_id: str, token: str) -> bytes:
    return (f"GET /v1/matches/{match_id}/ws?access_token={token} HTTP/1.1\r\nHost: tavern\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n").encode()


def head(sock: socket.socket) -> bytes:
    """An answer's status line and headers, and what came of its body with them."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(4096)
        assert chunk, f"closed after {got!r}"
        got += chunk
    return got


async def test_a_stream_whose_client_never_reads_is_cut_and_a_reading_one_is_not(served):
    base, port = served
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        created = (await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3, "bots": [1, 2]})).json()
        match_id, token = created["match_id"], seat_token(created, 0)
        # two clients that never read a byte, an SSE one and a WebSocket one, each offering a small
        # window; and one that reads everything, counting the bytes of the match's views
        stalled = [connect(port, request(match_id, token), 4096) for request in (stream_request, ws_request)]
        sent = 0

        async def read_all() -> None:
            nonlocal sent
            async with api.stream("GET", f"/v1/matches/{match_id}/stream", headers=bearer(token),
                                  timeout=None) as answer:
                assert answer.status_code == 200
                async for chunk in answer.aiter_bytes():
                    sent += len(chunk)
                    if b'"status":"finished"' in chunk.replace(b" ", b""):
                        return

        reading = asyncio.create_task(read_all())
        await play_to_end(api, created, [0], seed=38)
        await asyncio.wait_for(reading, 60)  # the reading client was not cut: it saw the end
    # more than a stream may leave unsent was sent, and the stalled ones could not have taken it
    assert sent > 2 * SHIPPED.stream_unsent_bytes, sent
    # cut once a send found no room within the send timeout (a keepalive's, after the match)
    generous = 3 * (SHIPPED.stream_send_timeout_s + 15)
    assert await asyncio.to_thread(closed_within, stalled, generous) == [True, True]
    for sock in stalled:
        sock.close()


async def test_open_streams_are_capped_per_seat_token_and_per_address(served):
    base, port = served
    per_token, per_address = SHIPPED.streams_per_token, SHIPPED.streams_per_address
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        created = (await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3, "bots": [1, 2]})).json()
    match_id, token = created["match_id"], seat_token(created, 0)
    opened = [connect(port, stream_request(match_id, token)) for _ in range(per_token)]
    assert all(head(sock).startswith(b"HTTP/1.1 200") for sock in opened)

    refused = connect(port, stream_request(match_id, token))
    answer = head(refused).lower()
    assert answer.startswith(b"http/1.1 429"), answer[:200]  # (not a stream: its body would never end)
    while not answer.endswith(b"}"):  # the body, whole
        answer += refused.recv(4096)
    assert answer.startswith(b"http/1.1 429") and b"retry-after: " in answer
    assert b'"code":"rate_limited"' in answer.replace(b" ", b"")
    refused.close()
    url = f"{base.replace('http://', 'ws://')}/v1/matches/{match_id}/ws?access_token={token}"
    async with websockets.connect(url) as ws:  # the WebSocket counts with the SSE streams
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and (closed.value.rcvd.code, closed.value.rcvd.reason) == (
        4429, "rate_limited")

    # a stream that ends gives its place back
    opened.pop().close()
    again = None
    for _ in range(100):
        again = connect(port, stream_request(match_id, token))
        if head(again).startswith(b"HTTP/1.1 200"):
            break
        again.close()
        await asyncio.sleep(0.1)
    assert again is not None and established(again)
    opened.append(again)

    # the address: the spectator's token is not capped (its creator may give it to many), the address is
    spectator = created["spectator_token"]
    while len(opened) < per_address:
        sock = connect(port, stream_request(match_id, spectator))
        assert head(sock).startswith(b"HTTP/1.1 200"), len(opened)
        opened.append(sock)
    over = connect(port, stream_request(match_id, spectator))
    assert head(over).lower().startswith(b"http/1.1 429")
    over.close()
    for sock in opened:
        sock.close()


async def test_reads_past_their_buckets_are_refused(served):
    base, _ = served
    limits = SHIPPED
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:

        async def match() -> dict:
            created = await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3, "bots": [1, 2]})
            assert created.status_code == 201, created.text
            return created.json()

        def refused(answers: list[httpx.Response]) -> list[httpx.Response]:
            assert {answer.status_code for answer in answers} <= {200, 429}, {a.status_code for a in answers}
            out = [answer for answer in answers if answer.status_code == 429]
            for answer in out:
                assert answer.json()["error"]["code"] == "rate_limited" and int(answer.headers["retry-after"]) >= 1
            return out

        # a heavy read (replay) per token: past its burst, refused
        first = await match()
        url, token = f"/v1/matches/{first['match_id']}", seat_token(first, 0)
        burst = limits.heavy_reads_burst_token
        heavy = await asyncio.gather(*(api.get(f"{url}/replay", headers=bearer(token)) for _ in range(burst + 10)))
        assert len(refused(heavy)) >= 5
        # a whole log's events are heavy too; events after a version are not. Each a wave of its own
        # (one read after the replays was served once the 2/s refill had given a token back, when the
        # replays took over half a second): past the bucket's 20 unless a wave lasts 10 s
        whole = await asyncio.gather(*(api.get(f"{url}/events", headers=bearer(token)) for _ in range(burst + 20)))
        assert refused(whole)
        after = await asyncio.gather(*(api.get(f"{url}/events?after=1", headers=bearer(token))
                                       for _ in range(burst + 20)))
        assert not refused(after)

        # (the light reads' buckets, 100/s a token, are about what one gateway serves on a shared
        # test machine: a test cannot outrun their refill; they are taken in the same call)
        assert (await api.get(f"{url}/view", headers=bearer(token))).status_code == 200

        # heavy reads per address: tokens each well within their own bucket, together past the address's
        seats = [(created["match_id"], info["token"]) for created in [await match() for _ in range(8)]
                 for info in created["seats"]]
        per_token = 6  # below a token's burst
        assert per_token * len(seats) > limits.heavy_reads_burst_address + 20
        spread = await asyncio.gather(*(api.get(f"/v1/matches/{match_id}/replay", headers=bearer(seat))
                                        for match_id, seat in seats for _ in range(per_token)))
        assert refused(spread)


async def test_a_connection_with_half_its_headers_or_none_is_closed(served):
    _, port = served
    half = connect(port, b"GET /v1/games HTTP/1.1\r\nHost: tavern\r\nX-Slow: ")
    idle = connect(port, b"")
    kept = connect(port, b"GET /livez HTTP/1.1\r\nHost: tavern\r\n\r\n")  # answered, then kept alive idle
    assert head(kept).startswith(b"HTTP/1.1 200")
    generous = 3 * (SHIPPED.header_timeout_s + SHIPPED.keepalive_s)
    assert await asyncio.to_thread(closed_within, [half, idle, kept], generous) == [True, True, True]
    for sock in (half, idle, kept):
        sock.close()
