"""The JSON Schemas of the API's answers, one source for /openapi.json and GET /v1/games.

Each game's schemas are named ``<game id>.<Name>`` (games share words such as ``PickCard``, and a
public name must not depend on where a class lives in our code): its own unions
``<game>.Command`` and ``<game>.Event`` (discriminated on ``type``), ``<game>.View``, and the
envelopes that carry them, ``<game>.ViewEnvelope``, ``<game>.Frame``, ``<game>.EventEnvelope``,
``<game>.Accepted``. They are built from the game as the service plays it (``online_game``): online
play's commands and events (domain/kernel/online.py: ``Concede``, ``Conceded``, ``Abandoned``...) are
every game's, named without a prefix; ``<game>.Command`` is what a seat may send, and
``<game>.LoggedCommand`` adds the service's own (``TimedOut``, ``Abandon``) that a log's causes show.
Every schema refers to the others as ``#/components/schemas/<name>``, as OpenAPI does;
``standalone`` rewrites a schema into a JSON Schema of its own (``$defs``).
"""

from __future__ import annotations

import copy
import functools
import json
from collections import defaultdict
from typing import Any

import msgspec

from domain.games import game_ids, get_game, online_game
from domain.kernel import Game, OptionSpec
from domain.kernel.online import SERVICE_COMMANDS, SYSTEM_EVENTS, Concede, Leave, Reclaim
from domain.kernel.undo import Undo
from projections.i18n import LANGUAGES
from projections.views import ViewEnvelope
from services.commands.clocks import ClockOption, ClockView

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
            "command": nullable(ref(prefix + "LoggedCommand")),
            "entropy": {
                "anyOf": [{"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}],
                "description": "on the opening entries of a match created with seat_entropy: each seat's entropy",
            },
        },
        "required": ["id", "seat", "idempotency_key"],
        "additionalProperties": False,
    }


NARRATION = {"type": "string", "description": "the event in words, as the caller's seat may read it"}
LANGUAGE = {"type": "string", "enum": list(LANGUAGES), "description": "the narration's language (docs/i18n.md)"}


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
            "language": LANGUAGE,
            "prev": {"type": "string", "description": "the previous entry's hash"},
            "hash": {"type": "string", "description": "SHA-256 of this entry's stored body"},
        },
        "required": ["version", "type", "time", "event", "command", "narration", "language"],
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


# online play's commands and events (domain/kernel/online.py): every game's, under their own names
ONLINE = {kind.__name__ for kind in (Concede, Leave, Reclaim, Undo, *SERVICE_COMMANDS, *SYSTEM_EVENTS)}
SENT_ONLINE = (Concede, Leave, Reclaim, Undo)  # of those, the commands a seat sends (the others are the service's)


def _only(union: Schema, tags: set[str]) -> Schema:
    """A tagged union (msgspec's ``anyOf``) narrowed to the given tags."""
    mapping = {tag: target for tag, target in union["discriminator"]["mapping"].items() if tag in tags}
    return {
        "anyOf": [branch for branch in union["anyOf"] if branch["$ref"] in mapping.values()],
        "discriminator": {**union["discriminator"], "mapping": mapping},
    }


# Result.details as each game fills it in (its rules' ``result``); online play's keys come on top
DETAILS: dict[str, Schema] = {
    "heros-tavern": {"tiebreak": {"type": "string", "description": "what broke ties"}},
    "tavern-masters": {
        "reason": {
            "enum": ["round_cap", "most_gold", "shared_after_ties", "tie", "all_win", "all_lose", "challenge"],
            "description": "why the match ended as it did (RULINGS.md)",
        },
        "round": {"type": "integer", "minimum": 1, "description": "the round it ended in"},
    },
    "taverna": {},
    "mercenaries": {
        "games": {
            "type": "array",
            "description": "each game of the match: its number, winner and why it ended",
            "items": ref("mercenaries.GameResult"),
        }
    },
}
# the named parts of those (a generator names an inline object after its place, which differs by branch)
DETAIL_PARTS: dict[str, Schema] = {
    "mercenaries.GameResult": {
        "type": "object",
        "properties": {"game": {"type": "integer"}, "winner": {"type": "integer"}, "reason": {"type": "string"}},
        "required": ["game", "winner", "reason"],
        "additionalProperties": False,
    }
}
CONCEDED = {"type": "array", "items": {"type": "integer"}, "description": "the seats that conceded, in order"}


def _details(game_id: str) -> Schema:
    own = DETAILS[game_id]
    return {
        "description": "the game's own details (with `conceded` if any seat conceded), or how online play ended "
        "the match: `ended` abandoned (no winner) or conceded (one seat left standing)",
        "anyOf": [
            {
                "type": "object",
                "properties": {**own, "conceded": CONCEDED},
                "required": list(own),
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"ended": {"enum": ["abandoned", "conceded"]}, "conceded": CONCEDED},
                "required": ["ended"],
                "additionalProperties": False,
            },
        ],
    }


def _choices(choices: tuple[Any, ...]) -> Schema:
    """An option's values. Booleans as the type: generators read no enum or constant of booleans
    (openapi-python-client drops the first and writes broken code for the second), so an option that
    takes one value only says so in words (and ``bad_option`` refuses the other)."""
    if all(isinstance(choice, bool) for choice in choices):
        return {"type": "boolean"}
    return {"enum": list(choices)}


def _said(spec: OptionSpec) -> str:
    return spec.description + (f" (takes {json.dumps(spec.choices[0])} only)" if len(spec.choices) == 1 else "")


def options(game: Game) -> Schema:
    """The game's match options (GET /v1/games lists the same): each its choices, default and text."""
    return {
        "type": "object",
        "description": f"{game.name}'s match options: each left out takes its default",
        "properties": {
            spec.name: {**_choices(spec.choices), "default": spec.default, "description": _said(spec)}
            for spec in game.options
        },
        "additionalProperties": False,
    }


def _game_components(game: Game, envelope: Schema, result: Schema) -> tuple[dict[str, Schema], dict[str, Schema]]:
    """The game's components, and online play's (the same for every game)."""
    prefix = f"{game.id}."
    played = online_game(game.id)
    (command, event, view), own = _portable(
        msgspec.json.schema_components(
            [played.command_type, played.event_type, game.view_type], ref_template=f"{REF}{prefix}{{name}}"
        )
    )
    renamed = {REF + prefix + name: REF + name for name in ONLINE}
    shared = {name: own.pop(name) for name in sorted(ONLINE)}
    command, event = _rewrite(command, REF, renamed), _rewrite(event, REF, renamed)
    components = {prefix + name: schema for name, schema in own.items()}
    sent = set(command["discriminator"]["mapping"]) - {kind.__name__ for kind in SERVICE_COMMANDS}
    for tag in sent - {kind.__name__ for kind in SENT_ONLINE}:
        components[prefix + tag]["properties"]["expected_version"] = EXPECTED_VERSION
    for kind in SENT_ONLINE:
        shared[kind.__name__]["properties"]["expected_version"] = EXPECTED_VERSION
    components[prefix + "Command"] = _union(_only(command, sent))
    components[prefix + "LoggedCommand"] = {
        **_union(command),
        "description": "a command as the log records it: a seat's, or the service's own (TimedOut, Abandon)",
    }
    components[prefix + "Event"] = _union(event)
    # the view's Struct under the game's name for it (the class name is ours, and games share words)
    components[prefix + "View"] = components.pop(view["$ref"].removeprefix(REF))
    components = _rewrite(components, REF, {view["$ref"]: REF + prefix + "View", **renamed})
    components[prefix + "Options"] = options(game)
    components[prefix + "ResultDetails"] = _details(game.id)
    components[prefix + "Result"] = {**copy.deepcopy(result), "title": prefix + "Result"}
    components[prefix + "Result"]["properties"]["details"] = ref(prefix + "ResultDetails")
    shown = copy.deepcopy(envelope)
    shown["title"] = prefix + "ViewEnvelope"
    properties = shown["properties"]
    properties["game"] = {"enum": [game.id]}
    properties["view"] = ref(prefix + "View")
    properties["result"] = nullable(ref(prefix + "Result"))
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
            "language": LANGUAGE,
        },
        "required": ["version", "event", "view", "narration", "language"],
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
            "receipt": {
                "type": "string",
                "pattern": "^[0-9a-f]{64}$",
                "description": "tavern-receipt/1: binds the chain hash of entry `version` (docs/AUDIT.md); keep "
                "it, `tavern audit --receipt VERSION:RECEIPT` refuses an export cut short or rewritten past it. "
                "Absent only on the replay of an answer kept by a gateway from before receipts",
            },
        },
        "required": ["version", "events"],
        "additionalProperties": False,
    }
    return components, shared


def _any_command(per_game: list[Game], components: dict[str, Schema]) -> Schema:
    """A command body of any game: one branch per ``type`` value (so no two branches overlap), the
    branch of a type several games have an ``anyOf`` of theirs (the match's game decides which)."""
    games_of: dict[str, list[str]] = defaultdict(list)
    for game in per_game:
        for tag, target in components[f"{game.id}.Command"]["discriminator"]["mapping"].items():
            if target not in games_of[tag]:  # online play's, the same for every game
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
    (envelope_ref, *_), shared = msgspec.json.schema_components(
        [ViewEnvelope, ClockOption, ClockView], ref_template=REF + "{name}"
    )
    envelope = shared.pop(envelope_ref["$ref"].removeprefix(REF))
    shared.pop("Command")  # the base class: each game's envelope refers to its own union
    result = shared.pop("Result")  # each game's: its own details
    envelope["properties"]["status"] = {
        "enum": ["waiting", "active", "finished"],
        "description": "waiting: nothing dealt yet (seat entropy); active; finished: `result` is set",
    }
    # a seat's clock in a match with one (services/commands/clocks.py; the fold's type knows no services)
    shared["TablePlayer"]["properties"]["clock"] = {
        **nullable(ref("ClockView")),
        "default": None,
        "description": "the seat's clock in a match with one and while no bot plays the seat, else null",
    }
    games = [get_game(game_id) for game_id in game_ids()]
    out: dict[str, Schema] = dict(shared) | copy.deepcopy(DETAIL_PARTS)
    for game in games:
        own, online_part = _game_components(game, envelope, result)
        out.update(own)
        out.update(online_part)
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
        out: dict[str, Any] = {}
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


def reachable(names: list[str], every: dict[str, Schema]) -> dict[str, Schema]:
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
        defs = reachable([name], every)
        return {"$ref": f"#/$defs/{name}", "$defs": _rewrite(defs, "#/$defs/")}

    return {
        "rules_version": get_game(game_id).rules_version,
        "commands": standalone(f"{game_id}.Command"),
        "events": standalone(f"{game_id}.Event"),
        "view": standalone(f"{game_id}.View"),
        "envelope": standalone(f"{game_id}.ViewEnvelope"),
    }
