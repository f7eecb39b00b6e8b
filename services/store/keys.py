"""Every Redis key in one place. A match's keys share the hash tag ``{ID}`` (one Cluster slot)."""

from __future__ import annotations

import hashlib


# claim.lua builds the log and views keys of the matches it claims the same way
def log(match_id: str) -> str:
    """The match's event stream: entry id ``{version}-0``, fields ``b`` (envelope JSON) and ``h``."""
    return f"match:{{{match_id}}}:log"


def meta(match_id: str) -> str:
    """Hash: game, seats, options, bots, seed (server-side only), its commitment, token hashes."""
    return f"match:{{{match_id}}}:meta"


def views(match_id: str) -> str:
    """Hash: ``v`` the projection checkpoint, ``s:{seat}`` and ``spectator`` the view envelopes."""
    return f"match:{{{match_id}}}:views"


def staged_views(match_id: str, token: str) -> str:
    """Hash: views on their way in (promote.lua), under a token of the write that staged them."""
    return f"match:{{{match_id}}}:views:{token}"


def idempotency(match_id: str, seat: int, key: str) -> str:
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return f"match:{{{match_id}}}:idem:{seat}:{digest}"


# On the queue's Redis (not per match): which matches have events the views do not show yet.
# zset: match id -> when it turned dirty. Drained oldest first: a random pick (a set's SPOP) left
# some matches waiting step after step under load, the tail of the move-to-views latency.
DIRTY = "tavern:projector:pending"
CLAIMED = "tavern:projector:claimed"  # zset: match id -> lease deadline (unix seconds)
ACTIVE = "tavern:projector:active"  # zset: running drain job -> lease deadline (unix seconds)
WAKE = "tavern:projector:wake"  # list: a token that wakes a drain job waiting for work
WORKERS = "tavern:workers"  # zset: worker -> its last heartbeat (unix seconds), read by /readyz
# On the events' Redis, with QUEUE_URL set: matches appended to while the queue's Redis was away,
# to be marked dirty once it is back (services/runtime.py)
UNMARKED = "tavern:projector:unmarked"
# Published on the events' Redis by the projector: "{match_id} {version} {time of newest event}".
NOTICES = "tavern:views"


# On the queue's Redis, the data lifecycle (services/projector/archiver.py).
def live(game_id: str) -> str:
    """zset: match id -> the time of its newest event, for the game's matches still being played
    (the idle ones are ended as abandoned); one per game, so that its size is the active count."""
    return f"tavern:lifecycle:live:{game_id}"


# zset: match id -> when it finished (or was ended as abandoned): archived and evicted after a grace.
FINISHED = "tavern:lifecycle:finished"


def open_matches(holder: str) -> str:
    """On the queue's Redis, zset: match id -> ms when it took its slot, the open matches of one
    creator (services/commands/open_matches.py)."""
    return f"tavern:open:{holder}"


# The lobby (services/commands/lobby.py): open public matches, zset match id -> when created; one
# for all games and one per game. Not per match: kept apart from the matches' own transactions.
LOBBY = "tavern:lobby"


def lobby(game: str | None) -> str:
    return LOBBY if game is None else f"{LOBBY}:{game}"


# zset: match id -> when created, every lobby match not yet started nor closed, private ones too:
# the archiver closes those that wait past the idle limit (nobody came), freeing their quota slots.
LOBBY_WAITING = f"{LOBBY}:waiting"

# zset: match id -> the earliest deadline of its seats' clocks (unix seconds); written by the
# projector, read by every process's sweeper (services/commands/timeouts.py). In Redis, so a
# restart of any process loses no deadline.
CLOCKS = "tavern:clocks"


def presence(match_id: str) -> str:
    """Hash: ``{seat}:{gateway}`` -> until when (unix s) that gateway holds an open stream of that
    seat (refreshed while it does; the key outlives its last refresh by the same time to live)."""
    return f"match:{{{match_id}}}:here"


# Published (on the notices' Redis) with a match id when one of its seats connects or disconnects.
PRESENCE = "tavern:presence"
# zset: match id -> when it is abandoned (unix seconds): every played seat has gone, bots wait
ABANDON = "tavern:abandon"
