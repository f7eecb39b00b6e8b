"""The clients: ``Tavern`` (sync) and ``AsyncTavern`` (asyncio), over httpx; the streams as
iterators that resume after a cut (SSE with Last-Event-ID, the WebSocket with last_event_id and
the unanswered commands sent again under their idempotency keys). What each request is, and how an
answer or a frame is read, is written once (``_Call``, ``_Sse``, ``_Socket``) for both."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
import msgspec
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tavern_games_client.models import (
    JSON,
    Accepted,
    ErrorBody,
    Joined,
    MatchCreated,
    PlayerCreated,
    PresenceFrame,
    Started,
    ViewEnvelope,
    WsAnswerFrame,
    WsServerFrame,
    WsViewFrame,
)

T = TypeVar("T")
StreamItem = ViewEnvelope | PresenceFrame
# sent again (a command under the same Idempotency-Key) after Retry-After, else after a second,
# doubling: a rate passed, or the service or the proxy in front of it unavailable (docs/API.md)
RETRYABLE = (429, 502, 503, 504)
RESENDS = 4  # a command's tries after its first: 1 + 2 + 4 + 8 s without Retry-After


class TavernError(Exception):
    """An answer other than a success: its status, the API's code and message, the error body."""

    def __init__(
        self, status: int, code: str, message: str, body: ErrorBody | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.body, self.retry_after = status, code, message, body, retry_after


class MatchLost(TavernError):
    """The service no longer holds the match (lost in a restart): do not reconnect."""


def _error(response: httpx.Response) -> TavernError:
    retry = response.headers.get("retry-after")
    try:
        body = msgspec.json.decode(response.content, type=ErrorBody)
    except (msgspec.DecodeError, msgspec.ValidationError):  # a proxy's page (502, 504)
        return TavernError(
            response.status_code, "http_error", response.text[:200], None, float(retry) if retry else None
        )
    kind = MatchLost if body.error.code == "match_lost" else TavernError
    return kind(response.status_code, body.error.code, body.error.message, body, float(retry) if retry else None)


class _Call(Generic[T]):
    """One request and the type its answer decodes to (None: the text as it is)."""

    def __init__(
        self, method: str, path: str, answer: Any, body: Any = None, headers: dict[str, str] | None = None
    ) -> None:
        self.method, self.path, self.answer, self.body, self.headers = method, path, answer, body, headers or {}

    def request(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"headers": self.headers}
        if self.body is not None:
            extra["content"] = msgspec.json.encode(self.body)
            extra["headers"] = {**self.headers, "Content-Type": "application/json"}
        return extra

    def read(self, response: httpx.Response) -> T:
        if response.status_code >= 400:
            raise _error(response)
        if self.answer is None:
            return response.text  # type: ignore[return-value]
        return msgspec.json.decode(response.content, type=self.answer)


def _match(match_id: str, leaf: str) -> str:
    return f"/v1/matches/{quote(match_id, safe='')}/{leaf}"


class _Calls:
    """The API's requests, each a ``_Call``: run by ``Tavern`` and ``AsyncTavern`` alike."""

    @staticmethod
    def games() -> _Call[list[JSON]]:
        return _Call("GET", "/v1/games", list[JSON])

    @staticmethod
    def create_match(
        game: str, seats: int, options: JSON | None, bots: list[int] | None, extra: JSON
    ) -> _Call[MatchCreated]:
        body = {"game": game, "seats": seats, "options": options or {}, "bots": bots or [], **extra}
        return _Call("POST", "/v1/matches", MatchCreated, body)

    @staticmethod
    def view(match_id: str) -> _Call[ViewEnvelope]:
        return _Call("GET", _match(match_id, "view"), ViewEnvelope)

    @staticmethod
    def send(match_id: str, command: JSON, idempotency_key: str | None, strict: bool) -> _Call[Accepted]:
        # a key of its own: sent again after a 502/503/504 or a cut (_Resend), it has one effect
        headers = {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}
        if strict:
            headers["Prefer"] = "handling=strict"
        return _Call("POST", _match(match_id, "commands"), Accepted, command, headers)

    @staticmethod
    def events(match_id: str, after: int) -> _Call[list[JSON]]:
        return _Call("GET", _match(match_id, f"events?after={after}"), list[JSON])

    @staticmethod
    def replay(match_id: str, seat: int | None) -> _Call[list[JSON]]:
        return _Call("GET", _match(match_id, "replay" if seat is None else f"replay?seat={seat}"), list[JSON])

    @staticmethod
    def export(match_id: str) -> _Call[str]:
        return _Call("GET", _match(match_id, "export"), None)

    @staticmethod
    def create_player(name: str) -> _Call[PlayerCreated]:
        return _Call("POST", "/v1/players", PlayerCreated, {"name": name})

    @staticmethod
    def join(match_id: str, body: JSON) -> _Call[Joined]:
        return _Call("POST", _match(match_id, "join"), Joined, body)

    @staticmethod
    def leave(match_id: str) -> _Call[JSON]:
        return _Call("POST", _match(match_id, "leave"), JSON)

    @staticmethod
    def start(match_id: str) -> _Call[Started]:
        return _Call("POST", _match(match_id, "start"), Started)

    @staticmethod
    def rematch(match_id: str) -> _Call[Joined]:
        return _Call("POST", _match(match_id, "rematch"), Joined)


class _Resend:
    """A command's tries: each refusal in RETRYABLE, or a connection cut before the answer, gives the
    wait before it is sent again, until RESENDS; any other refusal, or the last, is raised."""

    def __init__(self) -> None:
        self.left, self.backoff = RESENDS, 1.0

    def wait(self, problem: TavernError | httpx.TransportError) -> float:
        refused = problem if isinstance(problem, TavernError) else None
        if self.left == 0 or (refused is not None and refused.status not in RETRYABLE):
            raise problem
        self.left -= 1
        wait, self.backoff = self.backoff, self.backoff * 2
        return refused.retry_after if refused is not None and refused.retry_after is not None else wait


class _Sse:
    """A stream's state across its connections: the last view's version (sent back as Last-Event-ID)
    and the wait before reconnecting; ``line`` reads text/event-stream lines, giving each event's item."""

    def __init__(self, last_event_id: int | None, reconnect: bool) -> None:
        self.last, self.reconnect, self.wait = last_event_id, reconnect, 1.0
        self.fields: dict[str, str] = {}

    def headers(self) -> dict[str, str]:
        self.fields = {}  # a new connection: a cut event is dropped
        resume = {"Last-Event-ID": str(self.last)} if self.last is not None else {}
        return {"Accept": "text/event-stream", **resume}

    def refused(self, answer: httpx.Response) -> None:
        """An answer other than the stream: raised, unless it says to come back later."""
        refused = _error(answer)
        if not self.reconnect or refused.status not in RETRYABLE:
            raise refused
        self.wait = refused.retry_after or self.wait

    def line(self, line: str) -> StreamItem | None:
        if line.startswith(":"):
            return None  # a keep-alive comment
        if line:
            name, _, value = line.partition(":")
            self.fields[name] = value.removeprefix(" ")
            return None
        fields, self.fields = self.fields, {}
        if "retry" in fields:
            self.wait = int(fields["retry"]) / 1000
        data = fields.get("data")
        if fields.get("event") == "view" and data is not None:
            view = msgspec.json.decode(data, type=ViewEnvelope)
            self.last = view.version
            return view
        if fields.get("event") == "presence" and data is not None:
            return msgspec.json.decode(data, type=PresenceFrame)
        if fields.get("event") == "lost" and data is not None:
            body = msgspec.json.decode(data, type=ErrorBody)
            raise MatchLost(410, body.error.code, body.error.message, body)
        return None


class _Socket:
    """What both sockets share: the URL to (re)connect to, the frames read, the commands not answered."""

    def __init__(self, base_url: str, token: str | None, match_id: str, last_event_id: int | None) -> None:
        self.base, self.token, self.match_id, self.last = base_url, token, match_id, last_event_id
        self.unanswered: dict[str, bytes] = {}
        self.number = 0

    def url(self) -> str:
        query = [f"access_token={quote(self.token, safe='')}"] if self.token else []
        if self.last is not None:
            query.append(f"last_event_id={self.last}")
        base = self.base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        return base + _match(self.match_id, "ws") + ("?" + "&".join(query) if query else "")

    def message(self, command: JSON, idempotency_key: str | None, strict: bool) -> tuple[str, bytes]:
        self.number += 1
        sent = f"c{self.number}"
        key = idempotency_key or uuid.uuid4().hex  # a key of its own: sent again after a cut, it has one effect
        message = {"id": sent, "command": command, "idempotency_key": key}
        if strict:  # every stale expected_version a 409, as POST's Prefer: handling=strict
            message["handling"] = "strict"
        self.unanswered[sent] = msgspec.json.encode(message)
        return sent, self.unanswered[sent]

    def frame(self, raw: str | bytes) -> WsServerFrame:
        frame = msgspec.json.decode(raw, type=WsServerFrame)
        if isinstance(frame, WsViewFrame):
            self.last = frame.view.version
        elif isinstance(frame, WsAnswerFrame) and isinstance(frame.id, str):
            self.unanswered.pop(frame.id, None)
        return frame

    @staticmethod
    def refused(closed: ConnectionClosed) -> TavernError | None:
        """A close that ends the socket (4000 + an HTTP status); None: reconnect (a gateway stopping, a cut)."""
        code = closed.rcvd.code if closed.rcvd is not None else 1006
        reason = closed.rcvd.reason if closed.rcvd is not None else ""
        if code < 4000:
            return None
        return (MatchLost if reason == "match_lost" else TavernError)(
            code - 4000, reason, f"the socket was closed {code}"
        )


class Tavern:
    """The sync client. ``token``: a seat's or the spectator's (a match's endpoints), or a player's."""

    def __init__(
        self, base_url: str, token: str | None = None, api_key: str | None = None, timeout: float = 30.0
    ) -> None:
        self.base_url, self.token, self.api_key = base_url.rstrip("/"), token, api_key
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout, headers=_auth(token, api_key))

    def as_token(self, token: str) -> Tavern:
        return Tavern(self.base_url, token, self.api_key, self.http.timeout.read or 30.0)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Tavern:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def call(self, call: _Call[T]) -> T:
        return call.read(self.http.request(call.method, call.path, **call.request()))

    def games(self) -> list[JSON]:
        return self.call(_Calls.games())

    def create_match(
        self, game: str, seats: int, options: JSON | None = None, bots: list[int] | None = None, **extra: Any
    ) -> MatchCreated:
        return self.call(_Calls.create_match(game, seats, options, bots, extra))

    def view(self, match_id: str) -> ViewEnvelope:
        return self.call(_Calls.view(match_id))

    def send(self, match_id: str, command: JSON, idempotency_key: str | None = None, strict: bool = False) -> Accepted:
        """POST .../commands; sent again under its key after 429, 502, 503, 504 or a cut (_Resend)."""
        call, resend = _Calls.send(match_id, command, idempotency_key, strict), _Resend()
        while True:
            try:
                return self.call(call)
            except (TavernError, httpx.TransportError) as problem:
                time.sleep(resend.wait(problem))

    def events(self, match_id: str, after: int = 0) -> list[JSON]:
        return self.call(_Calls.events(match_id, after))

    def replay(self, match_id: str, seat: int | None = None) -> list[JSON]:
        return self.call(_Calls.replay(match_id, seat))

    def export(self, match_id: str) -> str:
        return self.call(_Calls.export(match_id))

    def create_player(self, name: str) -> PlayerCreated:
        return self.call(_Calls.create_player(name))

    def join(self, match_id: str, **body: Any) -> Joined:
        return self.call(_Calls.join(match_id, body))

    def leave(self, match_id: str) -> JSON:
        return self.call(_Calls.leave(match_id))

    def start(self, match_id: str) -> Started:
        return self.call(_Calls.start(match_id))

    def rematch(self, match_id: str) -> Joined:
        return self.call(_Calls.rematch(match_id))

    def stream(self, match_id: str, last_event_id: int | None = None, reconnect: bool = True) -> Iterator[StreamItem]:
        """The views (newest only, versions increasing) and presence frames of GET .../stream; after a
        cut it reconnects with Last-Event-ID; a lost match raises MatchLost."""
        sse = _Sse(last_event_id, reconnect)
        while True:
            try:
                with self.http.stream(
                    "GET", _match(match_id, "stream"), headers=sse.headers(), timeout=_STREAM
                ) as answer:
                    if answer.status_code != 200:
                        answer.read()
                        sse.refused(answer)
                    else:
                        for line in answer.iter_lines():
                            if (item := sse.line(line)) is not None:
                                yield item
            except httpx.TransportError:
                if not reconnect:
                    raise
            if not reconnect:
                return
            time.sleep(sse.wait)

    def socket(self, match_id: str, last_event_id: int | None = None) -> MatchSocket:
        return MatchSocket(self.base_url, self.token, match_id, last_event_id)


class MatchSocket(_Socket):
    """GET .../ws, sync: iterate its frames (views, presence and answers); ``send`` a command."""

    def __init__(self, base_url: str, token: str | None, match_id: str, last_event_id: int | None = None) -> None:
        super().__init__(base_url, token, match_id, last_event_id)
        self.connection = connect(self.url())

    def send(self, command: JSON, idempotency_key: str | None = None, strict: bool = False) -> str:
        """Sends a command; its answer comes among the frames with the id returned."""
        sent, message = self.message(command, idempotency_key, strict)
        self.connection.send(message.decode())
        return sent

    def __iter__(self) -> Iterator[WsServerFrame]:
        while True:
            try:
                yield self.frame(self.connection.recv())
            except ConnectionClosed as closed:
                refused = self.refused(closed)
                if refused is not None:
                    raise refused from closed
                time.sleep(1)
                self.connection = connect(self.url())
                for message in self.unanswered.values():
                    self.connection.send(message.decode())

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> MatchSocket:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncTavern:
    """The asyncio client: ``Tavern``'s methods, awaited."""

    def __init__(
        self, base_url: str, token: str | None = None, api_key: str | None = None, timeout: float = 30.0
    ) -> None:
        self.base_url, self.token, self.api_key = base_url.rstrip("/"), token, api_key
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, headers=_auth(token, api_key))

    def as_token(self, token: str) -> AsyncTavern:
        return AsyncTavern(self.base_url, token, self.api_key, self.http.timeout.read or 30.0)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> AsyncTavern:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def call(self, call: _Call[T]) -> T:
        return call.read(await self.http.request(call.method, call.path, **call.request()))

    async def games(self) -> list[JSON]:
        return await self.call(_Calls.games())

    async def create_match(
        self, game: str, seats: int, options: JSON | None = None, bots: list[int] | None = None, **extra: Any
    ) -> MatchCreated:
        return await self.call(_Calls.create_match(game, seats, options, bots, extra))

    async def view(self, match_id: str) -> ViewEnvelope:
        return await self.call(_Calls.view(match_id))

    async def send(
        self, match_id: str, command: JSON, idempotency_key: str | None = None, strict: bool = False
    ) -> Accepted:
        """POST .../commands; sent again under its key after 429, 502, 503, 504 or a cut (_Resend)."""
        call, resend = _Calls.send(match_id, command, idempotency_key, strict), _Resend()
        while True:
            try:
                return await self.call(call)
            except (TavernError, httpx.TransportError) as problem:
                await asyncio.sleep(resend.wait(problem))

    async def events(self, match_id: str, after: int = 0) -> list[JSON]:
        return await self.call(_Calls.events(match_id, after))

    async def replay(self, match_id: str, seat: int | None = None) -> list[JSON]:
        return await self.call(_Calls.replay(match_id, seat))

    async def export(self, match_id: str) -> str:
        return await self.call(_Calls.export(match_id))

    async def create_player(self, name: str) -> PlayerCreated:
        return await self.call(_Calls.create_player(name))

    async def join(self, match_id: str, **body: Any) -> Joined:
        return await self.call(_Calls.join(match_id, body))

    async def leave(self, match_id: str) -> JSON:
        return await self.call(_Calls.leave(match_id))

    async def start(self, match_id: str) -> Started:
        return await self.call(_Calls.start(match_id))

    async def rematch(self, match_id: str) -> Joined:
        return await self.call(_Calls.rematch(match_id))

    async def stream(
        self, match_id: str, last_event_id: int | None = None, reconnect: bool = True
    ) -> AsyncIterator[StreamItem]:
        """``Tavern.stream``, asynchronously."""
        sse = _Sse(last_event_id, reconnect)
        while True:
            try:
                async with self.http.stream(
                    "GET", _match(match_id, "stream"), headers=sse.headers(), timeout=_STREAM
                ) as answer:
                    if answer.status_code != 200:
                        await answer.aread()
                        sse.refused(answer)
                    else:
                        async for line in answer.aiter_lines():
                            if (item := sse.line(line)) is not None:
                                yield item
            except httpx.TransportError:
                if not reconnect:
                    raise
            if not reconnect:
                return
            await asyncio.sleep(sse.wait)

    async def socket(self, match_id: str, last_event_id: int | None = None) -> AsyncMatchSocket:
        socket = AsyncMatchSocket(self.base_url, self.token, match_id, last_event_id)
        await socket.connect()
        return socket


class AsyncMatchSocket(_Socket):
    """GET .../ws, asyncio: ``async for`` its frames; ``await send(command)``."""

    async def connect(self) -> None:
        self.connection = await aconnect(self.url())
        for message in self.unanswered.values():
            await self.connection.send(message.decode())

    async def send(self, command: JSON, idempotency_key: str | None = None, strict: bool = False) -> str:
        sent, message = self.message(command, idempotency_key, strict)
        await self.connection.send(message.decode())
        return sent

    async def __aiter__(self) -> AsyncIterator[WsServerFrame]:
        while True:
            try:
                yield self.frame(await self.connection.recv())
            except ConnectionClosed as closed:
                refused = self.refused(closed)
                if refused is not None:
                    raise refused from closed
                await asyncio.sleep(1)
                await self.connect()

    async def close(self) -> None:
        await self.connection.close()


_STREAM = httpx.Timeout(30.0, read=60.0)  # a stream is quiet up to its 15 s keep-alive


def _auth(token: str | None, api_key: str | None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return {**headers, **({"X-API-Key": api_key} if api_key else {})}
