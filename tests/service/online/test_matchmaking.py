"""The matchmaker through the API (docs/matchmaking.md): tickets asked, read and cancelled; two
tickets made a match whose seats are kept for their players, told on their event streams, started
by their joins; bots fill a table after the wait a ticket allows; a ticket whose player is not
heard lapses; and the refusals, each with its code."""

from __future__ import annotations

import time

import msgspec
import pytest

from services.commands import matchmaker
from tests.service.backends import BACKENDS
from tests.service.online.lobby_client import Person

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]
TICKETS = "/v1/matchmaking/tickets"


def code(answer) -> str:
    return answer.json()["error"]["code"]


async def ask(person: Person, status: int = 201, **asked) -> dict:
    answer = await person.call("POST", TICKETS, {"game": "mercenaries", **asked})
    assert answer.status_code == status, answer.text
    return answer.json()


async def told(app, person: Person) -> list[dict]:
    """What the person's event stream holds (services/store/player_events.py)."""
    found = await app.state.runtime.challenges.events(person.id, "0-0", 50)
    return [msgspec.json.decode(raw) for _, raw in found]


async def test_two_tickets_make_a_match_whose_seats_their_players_join(app, api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    first = await ask(ann)
    assert first["status"] == "waiting" and first["seats"] == [2, 2] and first["rated"] and first["rating"] == 25.0
    second = await ask(ben)
    await app.state.runtime.matchmaker.sweep(time.time())  # as the upkeep does each second
    mine = (await ann.call("GET", f"{TICKETS}/{first['ticket_id']}")).json()
    theirs = (await ben.call("GET", f"{TICKETS}/{second['ticket_id']}")).json()
    assert mine["status"] == theirs["status"] == "matched", (mine, theirs)
    assert mine["match_id"] == theirs["match_id"] and {mine["seat"], theirs["seat"]} == {0, 1}
    match_id = mine["match_id"]
    found = [event for event in await told(app, ann) if event["type"] == "match_found"]
    assert found == [{"type": "match_found", "ticket_id": first["ticket_id"], "match_id": match_id,
                      "game": "mercenaries", "seat": mine["seat"]}]  # fmt: skip
    # a third player may not take a kept seat; each player joins its own and hears its token
    cat = await Person(api).register("Cat")
    assert code(await cat.call("POST", f"/v1/matches/{match_id}/join", {})) == "seat_reserved"
    joined = (await ann.call("POST", f"/v1/matches/{match_id}/join", {})).json()
    assert joined["seat"] == mine["seat"] and not joined["started"]
    started = (await ben.call("POST", f"/v1/matches/{match_id}/join", {})).json()
    assert started["seat"] == theirs["seat"] and started["started"]
    assert any(event["type"] == "match_started" for event in await told(app, ann))
    # matched, a player may seek again; its old ticket cannot be cancelled
    assert code(await ann.call("DELETE", f"{TICKETS}/{first['ticket_id']}")) == "ticket_ended"
    await ask(ann)


async def test_a_player_seated_at_one_table_has_its_tickets_for_other_games_withdrawn(app, api):
    """Seeking two games at once, a player plays the first found: its other tickets are cancelled
    and it is told so, with the match it was seated at; a ticket of someone else stays."""
    ann, ben, cat = [await Person(api).register(name) for name in ("Ann", "Ben", "Cat")]
    drafted = await ask(ann, game="heros-tavern", seats=[3])
    merc = await ask(ann)
    waits = await ask(cat, game="heros-tavern", seats=[3])
    await ask(ben)
    await app.state.runtime.matchmaker.sweep(time.time())
    mine = (await ann.call("GET", f"{TICKETS}/{merc['ticket_id']}")).json()
    assert mine["status"] == "matched"
    other = (await ann.call("GET", f"{TICKETS}/{drafted['ticket_id']}")).json()
    assert other["status"] == "cancelled" and other["match_id"] is None
    withdrawn = [event for event in await told(app, ann) if event["type"] == "ticket_withdrawn"]
    assert withdrawn == [{"type": "ticket_withdrawn", "ticket_id": drafted["ticket_id"], "match_id": mine["match_id"]}]
    assert (await cat.call("GET", f"{TICKETS}/{waits['ticket_id']}")).json()["status"] == "waiting"
    assert not [event for event in await told(app, ben) if event["type"] == "ticket_withdrawn"]
    await ask(ann, game="heros-tavern", seats=[3])  # it may seek that game again


async def test_a_table_not_started_in_time_is_closed_and_its_tickets_lapse(app, api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    first, _ = await ask(ann), await ask(ben)
    runtime = app.state.runtime
    await runtime.matchmaker.sweep(time.time())
    match_id = (await ann.call("GET", f"{TICKETS}/{first['ticket_id']}")).json()["match_id"]
    assert (await ann.call("POST", f"/v1/matches/{match_id}/join", {})).status_code == 200  # Ben never comes
    await runtime.matchmaker.sweep(time.time() + matchmaker.JOIN_S + 1)
    assert (await runtime.matches.get(match_id)).lobby == "cancelled"
    assert code(await ben.call("POST", f"/v1/matches/{match_id}/join", {})) == "match_closed"
    assert (await ann.call("GET", f"{TICKETS}/{first['ticket_id']}")).json()["status"] == "lapsed"
    assert {"type": "ticket_lapsed", "ticket_id": first["ticket_id"]} in await told(app, ann)
    await ask(ann)  # and asks again


async def test_bots_fill_a_table_after_the_wait_a_ticket_allows(app, api):
    ann = await Person(api).register("Ann")
    asked = await ask(ann, game="heros-tavern", seats=[3, 4], rated=False, bots_after_s=5)
    runtime = app.state.runtime
    assert await runtime.matchmaker.sweep(asked["created"] + 1) == 0  # not yet
    await runtime.matchmaker.sweep(asked["created"] + 6)  # (the upkeep's own sweep may come first, if this is slow)
    ticket = (await ann.call("GET", f"{TICKETS}/{asked['ticket_id']}")).json()
    assert ticket["status"] == "matched"
    match = await runtime.matches.get(ticket["match_id"])
    assert match.setup.seats == 3 and len(match.bots) == 2 and match.unrated
    joined = (await ann.call("POST", f"/v1/matches/{ticket['match_id']}/join", {})).json()
    assert joined["started"]  # the only person's join starts it


async def test_a_ticket_is_cancelled_once_and_lapses_when_its_player_is_not_heard(app, api):
    ann, ben = await Person(api).register("Ann"), await Person(api).register("Ben")
    cancelled = await ask(ann)
    gone = await ann.call("DELETE", f"{TICKETS}/{cancelled['ticket_id']}")
    assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
    assert code(await ann.call("DELETE", f"{TICKETS}/{cancelled['ticket_id']}")) == "ticket_ended"
    lapsing = await ask(ann, game="taverna", seats=[5, 5])
    assert await app.state.runtime.matchmaker.sweep(lapsing["created"] + matchmaker.LAPSE_S + 1) == 0
    lapsed = (await ann.call("GET", f"{TICKETS}/{lapsing['ticket_id']}")).json()
    assert lapsed["status"] == "lapsed"
    assert {"type": "ticket_lapsed", "ticket_id": lapsing["ticket_id"]} in await told(app, ann)
    # an open event stream hears its player (services/gateway/bots.py): its ticket is kept
    heard = await ask(ann, game="taverna", seats=[5, 5])
    await app.state.runtime.matchmaker.heard(ann.id, heard["created"] + matchmaker.LAPSE_S - 5)
    await app.state.runtime.matchmaker.sweep(heard["created"] + matchmaker.LAPSE_S + 1)
    assert (await ann.call("GET", f"{TICKETS}/{heard['ticket_id']}")).json()["status"] == "waiting"
    # another player's ticket is not found, whoever asks
    kept = await ask(ben)
    assert code(await ann.call("GET", f"{TICKETS}/{kept['ticket_id']}")) == "no_such_ticket"
    assert code(await ann.call("DELETE", f"{TICKETS}/{kept['ticket_id']}")) == "no_such_ticket"


async def test_tickets_are_refused_with_a_code(api):
    ann = await Person(api).register("Ann")
    anonymous = await api.post(TICKETS, json={"game": "mercenaries"})
    assert anonymous.status_code == 401 and code(anonymous) == "no_player_token"
    assert code(await ann.call("POST", TICKETS, {"game": "chess"})) == "unknown_game"
    assert code(await ann.call("POST", TICKETS, {"game": "mercenaries", "colour": "red"})) == "bad_request"
    assert (await ask(ann, 422, seats=[2, 3]))["error"]["code"] == "bad_seats"
    assert (await ask(ann, 422, seats=[2, 2, 2]))["error"]["code"] == "bad_seats"
    assert (await ask(ann, 422, bots_after_s=10))["error"]["code"] == "rated_no_bots"
    assert (await ask(ann, 422, window=-1))["error"]["code"] == "bad_window"
    assert (await ask(ann, 422, options={"best_of": 2}))["error"]["code"] == "bad_option"
    waiting = await ask(ann)
    assert (await ask(ann, 409))["error"]["code"] == "ticket_waiting"
    assert code(await ann.call("GET", f"{TICKETS}/chess.0123")) == "no_such_ticket"
    assert (await ann.call("GET", f"{TICKETS}/{waiting['ticket_id']}")).json()["status"] == "waiting"
    bot = Person(api)
    answer = await bot.call("POST", "/v1/players", {"name": "Rando Bot", "bot": True}, auth=False)
    bot.token = answer.json()["token"]
    assert code(await bot.call("POST", TICKETS, {"game": "mercenaries"})) == "bot_matchmaking"
