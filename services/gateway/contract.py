"""The JSON Schemas of the API's answers, one source for /openapi.json and GET /v1/games.

Each game's schemas are named ``<game id>.<Name>`` (games share words such as ``PickCard``, and a
public name must not depend on where a class lives in our code): its own unions
``<game>.Command`` and ``<game>.Event`` (discriminated on ``type``), ``<game>.View``, and the
envelopes that carry them, ``<game>.ViewEnvelope``, ``<game>.Frame``, ``<game>.EventEnvelope``,
``<game>.Accepted``. Every schema refers to the others as ``#/components/schemas/<name>``, as
OpenAPI does; ``standalone`` rewrites a schema into a JSON Schema of its own (``$defs``).
"""

from __future__ import annotations

import copy
import functools
from collections import defaultdict
from typing import Any

import msgspec

from domain.games import game_ids, get_game
from domain.kernel import Game
from projections.views import ViewEnvelope

REF = "#/components/schemas/"
Schema = dict[str, Any]

EXPECTED_VERSION: Schema = {
    "type": ["integer", "null"],
    "minimum": 0,
    "description": "send only if the match is still at this version (else 409 stale_version); never in `legal`",
}


def ref(name: str) -> Schema:
    return {"$ref": REF + name}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def _union(schema: Schema) -> Schema:
    """msgspec's ``anyOf`` of a tagged union as a ``oneOf``: its ``type`` tags keep branches apart."""
    return {"oneOf": schema["anyOf"], "discriminator": schema["discriminator"]}


def _cause(prefix: str) -> Schema:
    return {
        "type": "object",
        "description": "the command behind the event: while the match runs only its id, seat and (to its own "
        "seat) idempotency key; once finished the whole cause as recorded (None for the opening events)",
        "properties": {
            "id": {"type": ["string", "null"]},
            "seat": {"type": ["integer", "null"]},
            "idempotency_key": {"type": ["string", "null"]},
            "command": nullable(ref(prefix + "Command")),
            "entropy": {
                "anyOf": [{"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}],
                "description": "on the opening entries of a match created with seat_entropy: each seat's entropy",
            },
        },
        "required": ["id", "seat", "idempotency_key"],
        "additionalProperties": False,
    }


NARRATION = {"type": "string", "description": "the event in words, as the caller's seat may read it"}


def _event_envelope(prefix: str) -> Schema:
    return {
        "type": "object",
        "description": "one entry of the match log; `prev` and `hash` (the SHA-256 chain of docs/AUDIT.md) "
        "only once the match is finished",
        "properties": {
            "version": {"type": "integer", "minimum": 1},
            "type": {"type": "string", "description": "the event's type"},
            "time": {"type": "number", "description": "when it was appended, seconds since the epoch"},
            "event": {
                **nullable(ref(prefix + "Event")),
                "description": "the event as the caller's seat may see it (null: hidden from it); whole once finished",
            },
            "command": ref(prefix + "EventCause"),
            "narration": NARRATION,
            "prev": {"type": "string", "description": "the previous entry's hash"},
            "hash": {"type": "string", "description": "SHA-256 of this entry's stored body"},
        },
        "required": ["version", "type", "time", "event", "command", "narration"],
        "additionalProperties": False,
    }


def _portable(node: Any) -> Any:
    """msgspec's schema of a fixed-length tuple closes it with ``items: false`` beside ``maxItems``,
    which says the same: code generators that want a schema object there (openapi-python-client)
    stop at a boolean, so it is left out."""
    if isinstance(node, dict):
        return {
            key: _portable(value)
            for key, value in node.items()
            if not (key == "items" and value is False and "maxItems" in node)
        }
    if isinstance(node, list | tuple):
        return [_portable(item) for item in node]
    return node


def _game_components(game: Game, envelope: Schema) -> dict[str, Schema]:
    prefix = f"{game.id}."
    (command, event, view), own = _portable(
        msgspec.json.schema_components(
            [game.command_type, game.event_type, game.view_type], ref_template=f"{REF}{prefix}{{name}}"
        )
    )
    components = {prefix + name: schema for name, schema in own.items()}
    for target in command["discriminator"]["mapping"].values():
        variant = components[target.removeprefix(REF)]
        variant["properties"]["expected_version"] = EXPECTED_VERSION
    components[prefix + "Command"] = _union(command)
    components[prefix + "Event"] = _union(event)
    # the view's Struct under the game's name for it (the class name is ours, and games share words)
    components[prefix + "View"] = components.pop(view["$ref"].removeprefix(REF))
    components = _rewrite(components, REF, {view["$ref"]: REF + prefix + "View"})
    shown = copy.deepcopy(envelope)
    shown["title"] = prefix + "ViewEnvelope"
    properties = shown["properties"]
    properties["game"] = {"enum": [game.id]}
    properties["view"] = ref(prefix + "View")
    properties["legal"] = {
        "type": "array",
        "items": ref(prefix + "Command"),
        "description": "every command the seat may send now (empty for a spectator and once finished)",
    }
    components[prefix + "ViewEnvelope"] = shown
    components[prefix + "Frame"] = {
        "type": "object",
        "title": prefix + "Frame",
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "event": {**nullable(ref(prefix + "Event")), "description": "the event that made this frame (null: 0)"},
            "view": ref(prefix + "View"),
            "narration": NARRATION,
        },
        "required": ["version", "event", "view", "narration"],
        "additionalProperties": False,
    }
    components[prefix + "EventCause"] = _cause(prefix)
    components[prefix + "EventEnvelope"] = _event_envelope(prefix)
    components[prefix + "Accepted"] = {
        "type": "object",
        "properties": {
            "version": {"type": "integer", "minimum": 1, "description": "the match's version after the command"},
            "events": {
                "type": "array",
                "items": ref(prefix + "Event"),
                "description": "the appended events as this seat may see them",
            },
        },
        "required": ["version", "events"],
        "additionalProperties": False,
    }
    return components


def _any_command(per_game: list[Game], components: dict[str, Schema]) -> Schema:
    """A command body of any game: one branch per ``type`` value (so no two branches overlap), the
    branch of a type several games have an ``anyOf`` of theirs (the match's game decides which)."""
    games_of: dict[str, list[str]] = defaultdict(list)
    for game in per_game:
        for tag, target in components[f"{game.id}.Command"]["discriminator"]["mapping"].items():
            games_of[tag].append(target)
    mapping = {}
    for tag, targets in games_of.items():
        if len(targets) == 1:
            mapping[tag] = targets[0]
        else:
            components[f"commands.{tag}"] = {
                "type": "object",
                "properties": {"type": {"enum": [tag]}},
                "required": ["type"],
                "anyOf": [{"$ref": target} for target in targets],
                "description": f"{tag} of any of the games that have it: the match's game says which applies",
            }
            mapping[tag] = REF + f"commands.{tag}"
    return {
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": "a command of the match's game (`<game>.Command`), optionally with expected_version",
    }


@functools.cache
def components() -> dict[str, Schema]:
    """Every component schema of the API's game-typed answers (the API's own messages aside)."""
    (envelope_ref,), shared = msgspec.json.schema_components([ViewEnvelope], ref_template=REF + "{name}")
    envelope = shared.pop(envelope_ref["$ref"].removeprefix(REF))
    shared.pop("Command")  # the base class: each game's envelope refers to its own union
    envelope["properties"]["status"] = {
        "enum": ["waiting", "active", "finished"],
        "description": "waiting: nothing dealt yet (seat entropy); active; finished: `result` is set",
    }
    games = [get_game(game_id) for game_id in game_ids()]
    out: dict[str, Schema] = dict(shared)
    for game in games:
        out.update(_game_components(game, envelope))
    out["Command"] = _any_command(games, out)
    out["ViewEnvelope"] = {
        "oneOf": [ref(f"{game.id}.ViewEnvelope") for game in games],
        "discriminator": {"propertyName": "game", "mapping": {g.id: REF + f"{g.id}.ViewEnvelope" for g in games}},
    }
    for name, schema in out.items():
        schema["title"] = name  # code generators name their types by title: msgspec's is the class name
    return out


def any_of_games(suffix: str, array: bool = False) -> Schema:
    """A game-typed answer on a path that does not name the game: one branch per game."""
    branches = [ref(f"{game_id}.{suffix}") for game_id in game_ids()]
    if array:
        branches = [{"type": "array", "items": branch} for branch in branches]
    return {"anyOf": branches, "description": f"`<game>.{suffix}` of the match's game"}


def _rewrite(node: Any, into: str, renamed: dict[str, str] | None = None) -> Any:
    """``node`` with each ``$ref`` (and discriminator mapping) into components pointed ``into``
    instead, and the refs in ``renamed`` replaced."""
    renamed = renamed or {}

    def point(target: str) -> str:
        return into + renamed.get(target, target).removeprefix(REF)

    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref":
                out[key] = point(value)
            elif key == "mapping":
                out[key] = {tag: point(target) for tag, target in value.items()}
            else:
                out[key] = _rewrite(value, into, renamed)
        return out
    if isinstance(node, list):
        return [_rewrite(item, into, renamed) for item in node]
    return node


def _reachable(names: list[str], every: dict[str, Schema]) -> dict[str, Schema]:
    seen: dict[str, Schema] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen[name] = every[name]
            todo.extend(_refs(every[name]))
    return seen


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"].removeprefix(REF)] if isinstance(node.get("$ref"), str) else []
        return found + [name for value in node.values() for name in _refs(value)]
    if isinstance(node, list):
        return [name for item in node for name in _refs(item)]
    return []


@functools.cache
def game_schemas(game_id: str) -> dict[str, Any]:
    """GET /v1/games' ``schemas`` of a game: the components above, each a JSON Schema of its own
    (2020-12, refs into its ``$defs``), for the game's rules version."""
    every = components()

    def standalone(name: str) -> Schema:
        defs = _reachable([name], every)
        return {"$ref": f"#/$defs/{name}", "$defs": _rewrite(defs, "#/$defs/")}

    return {
        "rules_version": get_game(game_id).rules_version,
        "commands": standalone(f"{game_id}.Command"),
        "events": standalone(f"{game_id}.Event"),
        "view": standalone(f"{game_id}.View"),
        "envelope": standalone(f"{game_id}.ViewEnvelope"),
    }
