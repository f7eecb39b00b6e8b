"""Each registered player's notifications (docs/notifications.md), on the player's shard (keys under
``notify:{PLAYER}``): its choices, its webhooks and push subscriptions, and its deliveries, one per
event and target, each a hash whose attempts are claimed atomically (notify_claim.lua) under a
lease before anything is sent, and whose outcome only the attempt holding it writes
(notify_done.lua). When each delivery's next attempt is due sits in a partitioned family
(``keys.NOTIFY_DUE``) that every process's sweeper reads for its share; a sender that dies leaves
its delivery due again at its lease's end. Beside them, per match, the version at which each seat
last turned due (``keys.turns``), from which the projector tells a new turn from an old one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.clients import Events
from services.store.connections import link_to
from services.store.deadlines import DeadlineSet
from services.store.event_store import Call, reply, run_scripts, script
from services.store.partitions import Partitions, Shares

DELIVERY_KEPT_S = 7 * 86400  # a delivery's record (and status) is readable this long after it was made
TURNS_KEPT_S = 30 * 86400  # a match's turn marks outlive its last turn by this (an idle match ends within a week)
LISTED = 100  # the newest deliveries of a player kept in its list


@dataclass(frozen=True, slots=True)
class Delivery:
    id: str
    target: str  # "webhook:{id}" or "push:{id}"
    event_id: str  # the event's idempotency key, the same for every target
    kind: str  # turn, ended, time_low
    state: str  # pending, sending, retry, delivered, failed
    attempts: int
    status: int  # the receiver's last HTTP status (0: none yet, or no answer)
    error: str
    created: float
    updated: float
    body: bytes  # the event (JSON) as sent


class NotificationBook:
    def __init__(self, redis: Events, partitions: Partitions, shares: Shares, link: resp.Link | None = None) -> None:
        self.redis = redis
        self.link = link or link_to(redis)
        self.due = DeadlineSet(redis, partitions, shares, keys.NOTIFY_DUE, self.link)
        here = Path(__file__).parent
        self._claim = redis.register_script(script(here / "notify_claim.lua"))
        self._done = redis.register_script(script(here / "notify_done.lua"))

    # the player's choices
    async def choices(self, player_id: str) -> dict[str, bool]:
        """The choices the player made (those it never made are absent)."""
        found = await self.redis.hgetall(keys.notify_settings(player_id))
        return {name.decode(): value == b"1" for name, value in found.items()}

    async def choose(self, player_id: str, choices: dict[str, bool]) -> None:
        if choices:
            await self.redis.hset(keys.notify_settings(player_id), mapping={k: int(v) for k, v in choices.items()})

    # its targets: webhooks and push subscriptions, each a JSON record under an id
    async def targets(self, player_id: str, kind: str) -> dict[str, bytes]:
        """``kind`` "webhook" or "push": id -> record."""
        found = await self.redis.hgetall(_targets(kind, player_id))
        return {name.decode(): value for name, value in found.items()}

    async def add_target(self, player_id: str, kind: str, target_id: str, record: bytes) -> None:
        await self.redis.hset(_targets(kind, player_id), mapping={target_id: record})

    async def drop_target(self, player_id: str, kind: str, target_id: str) -> bool:
        (dropped,) = await self.link.exchange([["HDEL", _targets(kind, player_id), target_id]])
        return bool(reply(dropped))

    # deliveries
    async def make(
        self, player_id: str, delivery_id: str, target: str, event_id: str, kind: str, body: bytes, at: float,
        due: float,
    ) -> bool:
        """A new delivery, first due at ``due``; False (nothing written) if it exists: one event is
        delivered to one target once, however often the projector sees it."""
        key = keys.notify_delivery(player_id, delivery_id)
        if not await self.redis.hsetnx(key, "state", "pending"):
            return False
        record = {"target": target, "event": event_id, "kind": kind, "body": body, "attempts": 0, "created": at,
                  "updated": at, "status": 0, "error": "", "lease_until": 0}
        listed = keys.notify_deliveries(player_id)
        await self.link.exchange([
            ["HSET", key, *(word for pair in record.items() for word in pair)],
            ["EXPIRE", key, DELIVERY_KEPT_S],
            ["ZADD", listed, at, delivery_id],
            ["ZREMRANGEBYRANK", listed, 0, -LISTED - 1],
            ["EXPIRE", listed, DELIVERY_KEPT_S],
        ])
        await self.due.set(due_member(player_id, delivery_id), due)
        return True

    async def claim(self, player_id: str, delivery_id: str, now: float, lease_s: float) -> tuple[str, float]:
        """One attempt at the delivery: ("claimed", its number), ("leased", until when another
        sender holds it), or (its final state or "gone", 0)."""
        call = Call(self._claim, [keys.notify_delivery(player_id, delivery_id)], [repr(now), repr(lease_s)])
        (answer,) = await run_scripts(self.link, [call])
        state, *rest = reply(answer)
        return state.decode(), float(rest[0]) if rest else 0.0

    async def done(
        self, player_id: str, delivery_id: str, attempt: int, state: str, status: int, error: str, now: float
    ) -> bool:
        """The attempt's outcome (``state``: delivered, retry or failed), if it still holds the delivery."""
        args = [attempt, state, status, error[:300], repr(now)]
        call = Call(self._done, [keys.notify_delivery(player_id, delivery_id)], args)
        (answer,) = await run_scripts(self.link, [call])
        return bool(reply(answer))

    async def delivery(self, player_id: str, delivery_id: str) -> Delivery | None:
        found = await self.redis.hgetall(keys.notify_delivery(player_id, delivery_id))
        return _delivery(delivery_id, found) if b"target" in found else None

    async def deliveries(self, player_id: str, count: int) -> list[Delivery]:
        """The player's newest deliveries, the newest first, at most ``count``."""
        (ids,) = await self.link.exchange([["ZREVRANGE", keys.notify_deliveries(player_id), 0, count - 1]], True)
        named = [delivery_id.decode() for delivery_id in reply(ids)]
        commands: list[list[Any]] = [["HGETALL", keys.notify_delivery(player_id, name)] for name in named]
        records = await self.link.exchange(commands, True) if commands else []
        found = [(name, _fields(reply(record))) for name, record in zip(named, records, strict=True)]
        return [_delivery(name, fields) for name, fields in found if b"target" in fields]  # lapsed ones left out

    # a match's turns
    async def turns(self, match_id: str) -> dict[int, int]:
        """Seat -> the version at which it turned due, for the seats due when last seen."""
        found = await self.redis.hgetall(keys.turns(match_id))
        return {int(seat): int(version) for seat, version in found.items()}

    async def mark_turns(self, match_id: str, due: dict[int, int], gone: list[int]) -> None:
        key = keys.turns(match_id)
        commands: list[list[Any]] = []
        if gone:
            commands.append(["HDEL", key, *gone])
        if due:
            commands += [["HSET", key, *(word for pair in due.items() for word in pair)], ["EXPIRE", key, TURNS_KEPT_S]]
        if commands:
            for answer in await self.link.exchange(commands):
                reply(answer)


def due_member(player_id: str, delivery_id: str) -> str:
    return f"{player_id}/{delivery_id}"


def of_member(member: str) -> tuple[str, str]:
    """The player and delivery of a ``NOTIFY_DUE`` member."""
    player_id, _, delivery_id = member.partition("/")
    return player_id, delivery_id


def _fields(record: Any) -> dict[bytes, bytes]:
    """An HGETALL's reply: a dict from redis-py's own parsing (fakeredis), a flat list from a Wire."""
    return record if isinstance(record, dict) else dict(zip(record[::2], record[1::2], strict=True))


def _targets(kind: str, player_id: str) -> str:
    return keys.notify_hooks(player_id) if kind == "webhook" else keys.notify_push(player_id)


def _delivery(delivery_id: str, found: dict[bytes, bytes]) -> Delivery:
    text = {name.decode(): value.decode() for name, value in found.items() if name != b"body"}
    return Delivery(
        delivery_id, text["target"], text["event"], text["kind"], text["state"], int(text["attempts"]),
        int(text["status"]), text["error"], float(text["created"]), float(text["updated"]), found[b"body"],
    )
