"""What one client may send and how fast: each limit a setting with a sane default (0 turns a rate
or quota off). The gateway answers past them with 413/429/431/408 and a stable code (API.md);
docs/LIMITS.md says what each does; ``tavern --help`` lists them with their defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

JSON_DEPTH = 32
IDENTITIES = ("none", "player", "key")


@dataclass(frozen=True, slots=True)
class Limits:
    command_body_bytes: int = 4 * 1024  # a command is a few dozen bytes
    create_body_bytes: int = 16 * 1024  # a create, with options and bots
    other_body_bytes: int = 4 * 1024  # entropy, and anything else with a body
    header_bytes: int = 8 * 1024  # all of a request's header names and values
    json_depth: int = JSON_DEPTH  # how deep a JSON body may nest (no message of the API goes past 4)
    body_timeout_s: float = 10.0  # to send a whole body; a slower client is answered 408 and closed
    # an SSE stream whose client does not read for this long is closed (its buffers are full)
    stream_send_timeout_s: float = 30.0
    stream_retry_ms: int = 3000  # the reconnection delay each stream tells its client (SSE ``retry:``)
    # bytes a stream (SSE, WebSocket) may have written and its client not yet taken (the server's
    # buffer and the kernel's send queue): past it, nothing more is sent until it drains, and a
    # stream that does not drain within the send timeout is cut (services/gateway/backlog.py)
    stream_unsent_bytes: int = 128 * 1024
    # open streams (SSE and WebSocket together) on one gateway per seat token and per client address
    streams_per_token: int = 8  # a player's tabs and devices
    streams_per_address: int = 256  # players and spectators behind one NAT
    # a request's headers must all arrive this long after its connection opened (or after the
    # previous answer); an idle kept-alive connection is closed after keepalive_s
    header_timeout_s: float = 10.0
    keepalive_s: int = 5  # at least 1
    # token buckets kept in Redis (services/store/rate_limit.lua), shared by every gateway:
    # a sustained rate per second and a burst; 0 turns one off
    creates_per_s: float = 5.0  # per client address
    creates_burst: int = 50
    commands_per_s_token: float = 50.0  # per seat token (also in each gateway's memory: docs/LIMITS.md)
    commands_burst_token: int = 200
    commands_per_s_address: float = 1000.0  # per client address, in each gateway's memory (many seats behind one NAT)
    commands_burst_address: int = 2000
    # table chat (docs/chat.md): a message's most characters, and each sender's messages (and its
    # blocks and reports) per match, in a bucket of its own: a chat flood takes nothing from its moves
    chat_chars: int = 500
    chat_per_s: float = 1.0
    chat_burst: int = 5
    # reads (GET under /v1/: views, events, replay, export, content, the lobby...), per bearer
    # token and per client address; the heavy ones (replay, export, a whole log's events: the
    # whole log's work each) take from buckets of their own as well, slower
    reads_per_s_token: float = 100.0
    reads_burst_token: int = 500
    reads_per_s_address: float = 1000.0
    reads_burst_address: int = 5000
    heavy_reads_per_s_token: float = 2.0
    heavy_reads_burst_token: int = 20
    heavy_reads_per_s_address: float = 10.0
    heavy_reads_burst_address: int = 100
    # the quota of open (not finished, abandoned or archived) matches a creator may hold, shared by
    # every gateway (services/commands/open_matches.py): per client address and per player token,
    # and per API key (a trusted frontend creates for many people); 0 turns one off
    open_matches: int = 50
    open_matches_per_api_key: int = 10_000
    # a slot whose match has had no event (a lobby match: since its creation) this long lapses, so
    # idle matches lock their creators (and everyone behind their address) out no longer; 0: off
    # (a slot then lapses with TAVERN_IDLE_LIMIT_S only, when the match is ended as abandoned)
    open_matches_idle_s: float = 3600.0
    # the keys trusted frontends send in ``X-API-Key``; none by default
    api_keys: frozenset[str] = frozenset()
    # who may create a match: "none" anyone (known by address), "player" a registered player's
    # token or an API key, "key" an API key only; unset: "key" with API keys set, else "none"
    create_identity: str = ""

    def __post_init__(self) -> None:
        if self.create_identity not in ("", *IDENTITIES):
            raise ValueError(f"TAVERN_CREATE_IDENTITY is one of {', '.join(IDENTITIES)}")

    @property
    def identity_needed(self) -> str:
        return self.create_identity or ("key" if self.api_keys else "none")


_ENV = {f.name: f"TAVERN_{f.name.upper()}" for f in fields(Limits)}


def limits_from_env(env: Mapping[str, str]) -> Limits:
    """``TAVERN_<NAME>`` for each field (``TAVERN_API_KEYS``: comma-separated)."""
    given: dict[str, Any] = {}  # each field its own type
    for f in fields(Limits):
        text = env.get(_ENV[f.name])
        if text is None or text == "":
            continue
        if f.name == "api_keys":
            given[f.name] = frozenset(key.strip() for key in text.split(",") if key.strip())
        else:
            kind = type(getattr(Limits(), f.name))
            try:
                given[f.name] = kind(text)
            except ValueError:
                raise ValueError(f"{_ENV[f.name]}={text!r} is not a number") from None
    return Limits(**given)


def described() -> list[str]:
    """A line for ``tavern --help`` per limit: its variable and default."""
    unset = {"api_keys": "unset", "create_identity": "unset"}  # no key by default, so no identity needed
    shown = {f.name: getattr(Limits(), f.name) for f in fields(Limits)} | unset
    return [f"  {_ENV[name]:<36} ({default})" for name, default in shown.items()]
