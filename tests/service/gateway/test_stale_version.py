"""A stale ``expected_version`` (docs/API.md): decided only when the seat's options are the same
as at that version (its ``legal``, and what only it can see), else ``409 stale_version`` naming
the current version (with the seat's view at it); always a 409 with ``Prefer: handling=strict``.
In all four games, a seat tries a command of one of its older views at every step of a match
played through the API."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.games import game_ids, get_game
from domain.kernel import Rng
from domain.kernel.online import online
from services.commands.handling import BadCommand, decode_command
from services.gateway import command_endpoint
from tests.service.backends import BACKENDS
from tests.service.client import create, send, view, wait_for

pytestmark = pytest.mark.anyio
STEPS = 60
STRICT = {"prefer": command_endpoint.STRICT}


def own(game, state, seat: int) -> set[str]:
    """What only ``seat`` may see of ``state`` (the rule's second half, as docs/API.md words it)."""
    return game.hidden(state, None) - game.hidden(state, seat)


async def views_at(api, created: dict, seats: int, version: int) -> dict[int, dict]:
    return {seat: await wait_for(api, created, created["seats"][seat]["token"], version) for seat in range(seats)}


@pytest.mark.parametrize("settings", BACKENDS, indirect=True)
@pytest.mark.parametrize("game_id", game_ids())
async def test_a_stale_command_is_decided_only_if_the_seats_options_are_unchanged(app, api, game_id):
    game = get_game(game_id)  # its seats; the match's own (the online wrapper) judges its states
    runtime = app.state.runtime
    rng = random.Random(game_id)
    seats = min(max(4, game.min_seats), game.max_seats)
    created = await create(api, seats=seats, game=game_id)
    match = await runtime.matches.get(created["match_id"])
    seen: dict[int, list[dict]] = {seat: [] for seat in range(seats)}  # each seat's views, oldest first
    heard, outcomes = 0, {"decided": 0, "options_changed": 0, "strict": 0}
    for _ in range(STEPS):
        now = await views_at(api, created, seats, heard)
        for seat, current in now.items():
            if not seen[seat] or seen[seat][-1]["version"] != current["version"]:
                seen[seat].append(current)
        actors = [seat for seat, current in now.items() if current["legal"]]
        if not actors:
            break
        actor = rng.choice(actors)
        version = now[actor]["version"]
        older = [old for old in seen[actor][-6:-1] if old["legal"]]
        if older:
            old = rng.choice(older)
            command = {**rng.choice(old["legal"]), "expected_version": old["version"]}
            plain = await send(api, created, actor, command, **STRICT)
            assert plain.status_code == 409, plain.text
            assert (plain.json()["error"]["code"], plain.json()["version"]) == ("stale_version", version)
            assert plain.json()["view"] == now[actor]  # the seat's view at that version, as GET /view has it
            outcomes["strict"] += 1
            then, latest = runtime.folds.at(match, old["version"]), runtime.folds.cached(match)
            unchanged = old["legal"] == now[actor]["legal"] and (
                then is not None and own(match.game, then.state, actor) == own(match.game, latest.state, actor)
            )
            answer = await send(api, created, actor, command)
            if not unchanged:  # its options changed (or that version is not known here): refused
                assert answer.status_code == 409, answer.text
                assert (answer.json()["error"]["code"], answer.json()["version"]) == ("stale_version", version)
                assert (await view(api, created, created["seats"][actor]["token"]))["version"] == version
                outcomes["options_changed"] += old["legal"] != now[actor]["legal"]
            elif answer.status_code == 200:
                heard = answer.json()["version"]
                outcomes["decided"] += 1
                continue
            else:  # the same options, but decided on the newer state: refused by the rules at most
                assert answer.status_code == 422, answer.text
        answer = await send(api, created, actor, {**rng.choice(now[actor]["legal"]), "expected_version": version})
        assert answer.status_code == 200, answer.text
        heard = answer.json()["version"]
    # the test saw both: stale commands decided, and stale commands whose options had changed refused
    assert outcomes["strict"] > 0 and outcomes["options_changed"] > 0, outcomes
    if game_id == "heros-tavern":  # its simultaneous draft: stale, yet the same options, at most steps
        assert outcomes["decided"] > 0, outcomes


class _Match:
    def __init__(self, game) -> None:
        self.game = game


@pytest.mark.parametrize("game_id", game_ids())
def test_a_command_with_expected_version_decodes_as_the_same_command(game_id):
    """The version rides beside the command on the fast path: the command decoded is the one sent
    without it, and a bad version is still the 400's wording."""
    game = online(get_game(game_id), lambda kind, options: None)
    state = game.initial(game.setup(game.min_seats))
    for event in game.begin(state, Rng("seed", 0)):
        state = game.evolve(state, event)
    commands = [command for seat in range(game.min_seats) for command in game.legal(state, seat)]
    assert commands
    match = _Match(game)
    for command in commands:
        body = msgspec.json.encode(command)
        versioned = body[:-1] + b',"expected_version":7}'
        assert decode_command(match, versioned) == (command, 7)
        assert decode_command(match, b'{"expected_version":null,' + body[1:]) == (command, None)
        for bad in (b"-1", b"true", b"1.5", b'"7"'):
            with pytest.raises(BadCommand, match="expected_version is a non-negative integer"):
                decode_command(match, body[:-1] + b',"expected_version":' + bad + b"}")
