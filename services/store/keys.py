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


def entropy(match_id: str) -> str:
    """Hash: seat -> its contribution, until the opening (services/commands/entropy.py)."""
    return f"match:{{{match_id}}}:entropy"


def hibernated(match_id: str) -> str:
    """String: the one key a hibernated match keeps, the token of its snapshot in the archive
    (services/store/hibernation.py); short, since it is what such a match costs Redis."""
    return f"match:{{{match_id}}}:z"


def idempotency(match_id: str, seat: int, key: str) -> str:
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return f"match:{{{match_id}}}:idem:{seat}:{digest}"


def partition(family: str, number: int) -> str:
    """One partition of a family of sets split by member (services/store/partitions.py): its own
    hash tag, so a cluster spreads a family's partitions over its slots."""
    return f"tavern:{family}:{{p{number:02d}}}"


def sweepers(role: str) -> str:
    """zset: process -> its last beat (unix s), the processes sharing the partitions in ``role``."""
    return f"tavern:sweepers:{role}"


def lease(role: str) -> str:
    """A family: per partition, the process that sweeps it in ``role`` (a string, SET NX PX)."""
    return f"lease:{role}"


# On the queue's Redis (not per match): which matches have events the views do not show yet.
# zset: match id -> when it turned dirty. Drained oldest first: a random pick (a set's SPOP) left
# some matches waiting step after step under load, the tail of the move-to-views latency.
DIRTY = "tavern:projector:pending"
CLAIMS = "tavern:projector:claims"  # hash: running drain job -> the match ids it holds, comma-separated
ACTIVE = "tavern:projector:active"  # zset: running drain job -> lease deadline (unix seconds), its claims'
WAKE = "tavern:projector:wakeup"  # zset of one member at most: wakes a drain job waiting for work
# zset of one member at most, per running drain job: wakes that job to take again a match it holds
# that another job found dirty (claim.lua builds it from this prefix and the job's token)
JOB_WAKE = f"{WAKE}:"


def job_wake(token: str) -> str:
    return f"{JOB_WAKE}{token}"


WORKERS = "tavern:workers"  # zset: worker -> its last heartbeat (unix seconds), read by /readyz
# On the events' Redis, with QUEUE_URL set: matches appended to while the queue's Redis was away,
# to be marked dirty once it is back (services/store/unmarked.py)
UNMARKED = "projector:unmarked"  # a family of partitions (services/store/partitions.py)


def unmarked(instance: int) -> str:
    """The family of partitions ``UNMARKED`` for one queue instance."""
    return UNMARKED if instance == 0 else f"{UNMARKED}:{instance}"


# The data lifecycle (services/store/lifecycle.py), families of partitions on the events' Redis.
def live(game_id: str) -> str:
    """zsets: match id -> the time of its newest event, for the game's matches still being played
    (the idle ones are ended as abandoned); one family per game, so that its size is the active count."""
    return f"lifecycle:live:{game_id}"


def asleep(game_id: str, bucket: int) -> str:
    """zsets: match id -> the time of its newest event (whole seconds, rounded up), for the game's
    matches being played that hibernate (out of ``live`` while they do; services/commands/hibernation.py).
    One family per bucket (``Partitions.bucket``): past 128 members a zset is no longer a listpack
    (about 30 bytes a member) but a skiplist (about 130), more than the rest of a sleeping match."""
    return f"lifecycle:asleep:{game_id}:{bucket}"


# zsets: match id -> when it finished (or was ended as abandoned): archived and evicted after a grace.
FINISHED = "lifecycle:finished"


def open_matches(holder: str) -> str:
    """On the events' Redis, zset: match id -> ms when it took its slot, the open matches of one
    creator (services/store/quota.py), hash-tagged by the holder."""
    return f"tavern:open:{{{holder}}}"


# The lobby (services/commands/lobby.py): open public matches, zset match id -> when created; one
# for all games and one per game. Not per match: kept apart from the matches' own transactions.
# Each a family of partitions (services/store/partitions.py: ``tavern:<family>:{pNN}``).
LOBBY = "lobby"


def lobby(game: str | None) -> str:
    return LOBBY if game is None else f"{LOBBY}:{game}"


def lobby_live(game: str | None) -> str:
    """The public matches being played (services/commands/lobby.py), match id -> minus when it started
    (the latest first): watched from the lobby; one family for all games and one per game, as ``lobby``."""
    return f"{LOBBY}-live" if game is None else f"{LOBBY}-live:{game}"


# zset: match id -> when created, every lobby match not yet started nor closed, private ones too:
# the archiver closes those that wait past the idle limit (nobody came), freeing their quota slots.
LOBBY_WAITING = f"{LOBBY}:waiting"


def player(player_id: str) -> str:
    """Hash: a registered player's ``name``, ``created`` and ``language`` (services/commands/players.py)."""
    return f"player:{{{player_id}}}"


def player_events(player_id: str) -> str:
    """Stream: what happened to a player (a challenge received, accepted, ...), read by its event
    stream (services/commands/challenges.py); capped and lapsing, beside ``player`` on its shard."""
    return f"player:{{{player_id}}}:events"


def challenge(challenge_id: str) -> str:
    """Hash: a challenge of a bot account (services/store/challenges.py), lapsing when not answered."""
    return f"challenge:{{{challenge_id}}}"


def pool(game: str, part: str) -> str:
    """The matchmaker's pool of one game (services/store/matchmaking.py), its parts all under the
    hash tag of the pool, so one script sees them together: ``waiting`` (zset ticket -> when made),
    ``players`` (hash player -> its waiting ticket), ``tickets`` (hash ticket -> its ask, JSON),
    ``seen`` (hash ticket -> when its player was last heard), ``state`` (hash ticket -> waiting,
    matched <table>, cancelled, lapsed), ``found`` (hash ticket -> its match and seat, JSON) and
    ``ended`` (zset ticket -> when it stopped waiting, purged after a while); and the tables made,
    until their players are due to have joined: ``tables`` (hash match -> its tickets, JSON) and
    ``due`` (zset match -> when made)."""
    return f"matchmaking:{{{game}}}:{part}"


def seating(player_id: str) -> str:
    """String, lapsing: the matchmaker's table that holds the player while it is seated there
    (services/store/matchmaking.py ``Pools.hold``), on the player's shard, not a pool's."""
    return f"player:{{{player_id}}}:seating"


# zset per partition of player ids: bot account -> when registered (the lobby's list of bots)
BOTS = "bots"  # a family of partitions


def player_token(token_digest: str) -> str:
    """String: the id of the player whose token has this SHA-256."""
    return f"player-token:{token_digest}"


def legacy_ratings(game: str) -> str:
    """Hash, before ratings were kept per player: ``history`` the game's rated matches in order,
    ``player:{ID}`` each player's rating; read once into the keys below, then deleted
    (services/commands/ratings.py: ``migrate``)."""
    return f"ratings:{{{game}}}"


def rating(player_id: str) -> str:
    """Hash: game -> the player's rating in it (JSON), services/store/ratings.py."""
    return f"rating:{{{player_id}}}"


def rated_by(player_id: str) -> str:
    """Set: the rated matches already counted in the player's ratings (a redo counts none twice)."""
    return f"rating:{{{player_id}}}:rated"


# Partitioned families (services/store/partitions.py: ``tavern:<family>:{pNN}``), ratings':
def rated(game: str) -> str:
    """Hash per partition of match ids: match id -> its outcome (the rated match, each player's
    rating before and after, JSON), written once: the game's append-only history of rated matches."""
    return f"rated:{game}"


def leaderboard(game: str) -> str:
    """Zset per partition of player ids: player -> minus its ordinal (ascending: best first)."""
    return f"leaderboard:{game}"


def leaderboard_played(game: str) -> str:
    """Hash per partition of player ids, beside ``leaderboard``: how many matches each listed rating counts."""
    return f"leaderboard-played:{game}"


# zset: match id -> the earliest deadline of its seats' clocks (unix seconds); written by the
# projector, read by every process's sweeper (services/commands/timeouts.py). In Redis, so a
# restart of any process loses no deadline.
CLOCKS = "clocks"  # a family of partitions


def presence(match_id: str) -> str:
    """Hash: ``{seat}:{gateway}`` -> until when (unix s) that gateway holds an open stream of that
    seat (refreshed while it does; the key outlives its last refresh by the same time to live)."""
    return f"match:{{{match_id}}}:here"


def notices(match_id: str) -> str:
    """Shard channel (SPUBLISH, on the match's shard): its views were written (the projector: version
    and time) or one of its seats connected or disconnected (presence.py); services/store/notices.py."""
    return f"match:{{{match_id}}}:notices"


def notices_of(channel: bytes) -> str:
    """The match id of a ``notices`` channel."""
    return channel[channel.index(b"{") + 1 : channel.rindex(b"}")].decode()


# zset: match id -> when it is abandoned (unix seconds): every played seat has gone, bots wait
ABANDON = "abandon"  # a family of partitions


def rate(kind: str, who: str, match_id: str | None = None) -> str:
    """Hash: a token bucket (services/store/rate_limits.py), ``kind`` per ``who``, on the events'
    Redis: under the hash tag of ``who`` (a Cluster spreads the buckets by whom they count), or of
    ``match_id`` when it counts within one match (a seat token's: on that match's shard)."""
    if match_id is not None:  # not under match:{ID}:*, the match's own keys (evicted with it): it lapses by itself
        return f"rate:{kind}:{who}:{{{match_id}}}"
    return f"rate:{kind}:{{{who}}}"


# Table chat (services/store/chat.py): beside the match's own keys, under its hash tag (its shard),
# never in its log: a message is no event, and no audit chain covers it.
def chat(match_id: str, channel: str) -> str:
    """Stream, capped: one channel's lines (``players`` or ``spectators``), messages and removals."""
    return f"match:{{{match_id}}}:chat:{channel}"


def chat_removed(match_id: str) -> str:
    """Hash: the id of a line a moderator removed -> the id of the removal's line (both channels')."""
    return f"match:{{{match_id}}}:chat:removed"


def chat_blocks(match_id: str) -> str:
    """Hash: ``{blocker}>{sender}`` -> 1, the senders each seat blocked in this match."""
    return f"match:{{{match_id}}}:chat:blocks"


def chat_reports(match_id: str) -> str:
    """Stream, capped: the reports of the match's lines, for the moderators."""
    return f"match:{{{match_id}}}:chat:reports"


def chat_closed(match_id: str) -> str:
    """String: set once the archiver reads the chat for the archive; no line is taken after."""
    return f"match:{{{match_id}}}:chat:closed"


def chat_keys(match_id: str, channels: tuple[str, ...]) -> list[str]:
    """Every chat key of a match (evicted with it)."""
    return [*(chat(match_id, channel) for channel in channels), chat_removed(match_id), chat_blocks(match_id),
            chat_reports(match_id), chat_closed(match_id)]


def inbox(player_id: str) -> str:
    """Hash: a registered player's running matches, match id -> "{version} {entry JSON}", kept by
    the projector (services/store/inbox.py); beside ``player`` on its shard."""
    return f"player:{{{player_id}}}:inbox"


def inbox_revision(player_id: str) -> str:
    """String: a counter moved by every change of the player's inbox (its stream's cheap look)."""
    return f"player:{{{player_id}}}:inbox:rev"


def played(player_id: str) -> str:
    """Zset: a registered player's recent finished matches, match id -> when it finished
    (services/store/played.py); beside ``player`` on its shard, capped."""
    return f"player:{{{player_id}}}:played"


def played_entries(player_id: str) -> str:
    """Hash, beside ``played``: match id -> the player's entry for it (JSON: game, rank, score...)."""
    return f"player:{{{player_id}}}:played:entries"


# Notifications (services/store/notifications.py): a player's under its hash tag, so they shard.
def notify_settings(player_id: str) -> str:
    """Hash: the player's choices (``turn``, ``ended``, ``time_low``, ``push``, ``webhook``: "1"/"0")."""
    return f"notify:{{{player_id}}}:settings"


def notify_hooks(player_id: str) -> str:
    """Hash: webhook id -> its URL and secret (JSON)."""
    return f"notify:{{{player_id}}}:hooks"


def notify_push(player_id: str) -> str:
    """Hash: push subscription id -> the browser's subscription (JSON: endpoint, keys)."""
    return f"notify:{{{player_id}}}:push"


def notify_delivery(player_id: str, delivery_id: str) -> str:
    """Hash: one delivery of one event to one target: its state, attempts, lease, body."""
    return f"notify:{{{player_id}}}:delivery:{delivery_id}"


def notify_deliveries(player_id: str) -> str:
    """Zset: the player's deliveries (id -> when made), the newest read by the API."""
    return f"notify:{{{player_id}}}:deliveries"


# zset per partition of deliveries ("{player}/{delivery}" -> when its next attempt is due): swept
# by every process, which queues the due ones' RQ jobs
NOTIFY_DUE = "notify:due"  # a family of partitions


def turns(match_id: str) -> str:
    """Hash: seat -> the version at which it last turned due (services/commands/notifications.py);
    lapses by itself (not among the match's keys evicted with it)."""
    return f"turns:{{{match_id}}}"


# Tournaments (services/store/tournaments.py): a tournament's keys share its hash tag ``{ID}``
def tournament_log(tournament_id: str) -> str:
    """List: the tournament's own log (JSON entries, projections/tournaments.py), appended by tournament.lua."""
    return f"tournament:{{{tournament_id}}}:log"


def tournament_results(tournament_id: str) -> str:
    """Hash: match id -> its players' ranks (JSON), as each table's match ended: the live standings' input."""
    return f"tournament:{{{tournament_id}}}:results"


def match_tournament(match_id: str) -> str:
    """String, beside the match's keys: the tournament whose table the match is."""
    return f"match:{{{match_id}}}:tournament"


# families of partitions: the moderators' open chat reports ("match_id report_id" -> the report's
# ms), and each one's JSON (services/store/moderation.py)
OPEN_REPORTS = "open_reports"
OPEN_REPORT_BODIES = "open_report_bodies"
TOURNAMENTS = "tournaments"  # a family of partitions: tournament id -> its start time (the list)
TOURNAMENTS_DUE = "tournaments_due"  # a family of partitions: tournament id -> when the sweepers look at it next
