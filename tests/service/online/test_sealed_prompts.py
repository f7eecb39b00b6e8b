"""Taverna's sealed prompts as the service shows them (issue 38): clocks that say nothing of who has
answered, nor whose turn it is (one answer for the clocks, the inboxes and the notifications), a
feed whose hidden entries all look alike and name no sender, and "always pass" answers sent by the
service as the seat's own command, after the prompt is open. Pure: no Redis."""

from __future__ import annotations

from types import SimpleNamespace

import msgspec
import pytest

from domain.kernel.online import online
from domain.taverna import GAME as TAVERNA
from domain.taverna.commands import Pass, PlaceCustomer
from domain.taverna.events import Responders
from domain.taverna.state import with_player
from projections import feed
from projections.chain import Cause, Envelope
from services.commands import clocks
from services.commands.bots import Bots
from services.commands.folds import Folded
from services.commands.matches import Match
from services.commands.outcomes import Accepted
from services.commands.timeouts import deadlines
from services.commands.turns import changed, turns
from services.projector.turns import seats_turned_due
from tests.taverna.helpers import act, at_step, game_state, give, spell, tavern

CLOCK = clocks.ClockOption(per_move_s=30, bank_s=60)
TIP1, TIP2 = spell("Lucky Tip"), spell("Lucky Tip", 1)


def prompt():
    """Seat 0 places a customer; seats 1 and 2 are asked."""
    state = tavern(game_state(3), "t1", deeds=(-1, -1, -1))
    state = give(give(state, 1, TIP1), 2, TIP2)
    state = at_step(state, "place", people="dwarf")
    placed, events = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert placed.turn.responders == (1, 2)
    return state, placed, events


def test_every_asked_seat_shows_one_running_clock_until_the_prompt_closes():
    """Leak: a seat's clock stopped as soon as it answered, and every seat sees all clocks."""
    before, placed, events = prompt()
    start = clocks.advance(TAVERNA, CLOCK, clocks.start(CLOCK, 3), before, 0.0, [])
    opened = clocks.advance(TAVERNA, CLOCK, start, placed, 10.0, events)
    answered, answer = act(placed, 2, Pass())
    sealed = clocks.advance(TAVERNA, CLOCK, opened, answered, 20.0, answer)
    waiting = clocks.advance(TAVERNA, CLOCK, opened, placed, 20.0, [])  # nobody answered yet
    shown = [[clocks.shown(CLOCK, c) for c in cs[1:]] for cs in (sealed, waiting)]
    assert shown[0] == shown[1]  # seat 2's answer shows in no clock
    assert shown[0][0].deadline == shown[0][1].deadline == 10.0 + 30 + 60  # one deadline, both running
    match = SimpleNamespace(clock=CLOCK, bots=(), game=TAVERNA)
    assert set(deadlines(match, SimpleNamespace(clocks=sealed, state=answered))) == {1}  # seat 2 owes nothing
    closed, last = act(answered, 1, Pass())
    assert closed.turn.responders == ()
    after = clocks.advance(TAVERNA, CLOCK, sealed, closed, 100.0, last)
    assert after[1].bank == after[2].bank == 60 - (100 - 10 - 30)  # the prompt's time, charged alike
    assert after[1].due_since is None and after[2].due_since is None


def entries(events, seat):
    return [(Envelope(n, type(e).__name__, msgspec.Raw(msgspec.json.encode(e)), Cause(id="c", seat=seat), 0.0, ""), e)
            for n, e in enumerate(events, start=1)]


def test_a_feed_shows_a_hidden_entry_as_hidden_with_no_sender():
    """Leak: the feed kept a hidden entry's type (``Answered``, ``AutoPassSet``) and its command's seat."""
    _, placed, _ = prompt()
    answered, answer = act(placed, 2, Pass(always=True))
    _, last = act(answered, 1, Pass())
    assert type(last[0]).__name__ == "Answered" and isinstance(last[-1], Responders)
    for viewer in (0, None):
        items = feed.items(TAVERNA, entries(answer, 2), viewer, 0, False, lambda n: {})
        assert items == [{"version": 1, "type": feed.HIDDEN, "time": 0.0, "narration": "", "language": "en",
                          "event": None,
                          "command": {"id": None, "seat": None, "idempotency_key": None}}]
        closing = feed.items(TAVERNA, entries(last, 1), viewer, 0, False, lambda n: {})
        assert closing[0]["type"] == feed.HIDDEN
        assert all(item["command"] == {"id": None, "seat": None, "idempotency_key": None} for item in closing)
        assert closing[-1]["type"] == "Responders" and closing[-1]["event"] == last[-1]
    own = feed.items(TAVERNA, entries(answer, 2), 2, 0, False, lambda n: {})
    assert own[0]["type"] == "Answered" and own[0]["command"]["seat"] == 2


def test_a_feed_read_from_inside_a_command_still_names_no_sender():
    _, placed, _ = prompt()
    answered, _ = act(placed, 2, Pass())
    _, last = act(answered, 1, Pass())
    window = entries(last, 1)
    assert feed.starts_a_command(window, 0) and not feed.starts_a_command(window[1:], 1)


class Recorder:
    def __init__(self):
        self.sent = []

    async def submit(self, match, seat, command, idempotency=None, system=False):
        self.sent.append((seat, command, system))
        return Accepted(1, [])


@pytest.mark.anyio
async def test_the_service_sends_an_always_pass_seats_answer_as_its_own_command():
    game = online(TAVERNA, lambda kind, options: None)
    before, _, _ = prompt()
    always = with_player(before, 2, auto_pass=True)
    state = game.initial(game.setup(3))
    state = msgspec.structs.replace(state, inner=always)
    opened = game.evolve(state, act(always, 0, PlaceCustomer(tavern="t1", table=1))[1][-1])
    assert opened.inner.turn.responders == (1, 2) and opened.inner.answers == ()  # still open for both
    recorder = Recorder()
    match = SimpleNamespace(game=game, bots=(), setup=game.setup(3), bot_kind="greedy")
    await Bots(recorder).play(match, 7, {}, opened)
    assert recorder.sent == [(2, Pass(), True)]


class Marks:
    """The notifications' marks of turns (services/store/notifications.py's, in memory)."""

    def __init__(self) -> None:
        self.marks: dict[int, int] = {}

    async def turns(self, match_id):
        return dict(self.marks)

    async def mark_turns(self, match_id, turned, cleared):
        self.marks = {seat: v for seat, v in {**self.marks, **turned}.items() if seat not in cleared}


@pytest.mark.anyio
async def test_whose_turn_it_is_says_nothing_of_who_has_answered_a_sealed_prompt():
    """The inbox's turn check once counted a seat due only while it had legal commands, and the
    notifications' and clocks' counted every seat a sealed prompt asks: after seat 2's answer,
    seat 1's inbox moved (seat 2 left its turn) though its clock showed nothing. One answer now."""
    _, placed, events = prompt()
    match = Match("m", TAVERNA, TAVERNA.setup(3), "seed", "", (), "greedy", {}, players={0: "a", 1: "b", 2: "c"},
                  clock=CLOCK)
    opened = clocks.advance(TAVERNA, CLOCK, clocks.start(CLOCK, 3), placed, 10.0, events)
    answered, answer = act(placed, 2, Pass())
    sealed = clocks.advance(TAVERNA, CLOCK, opened, answered, 20.0, answer)
    asked = turns(match, Folded(1, placed, "", 10.0, clocks=opened))
    after = turns(match, Folded(2, answered, "", 20.0, clocks=sealed))
    assert set(asked.due) == set(after.due) == {1, 2} == clocks.due_seats(TAVERNA, answered, 3)
    assert after.due[1] == after.due[2] == 10.0 + 30 + 60  # the clocks' one deadline
    assert after.due == asked.due and not changed(asked, after)  # no inbox moves on seat 2's answer
    running = {seat for seat, clock in enumerate(sealed) if clock.due_since is not None}
    assert running == set(after.due)  # the clocks run for exactly the seats due
    marks = Marks()
    assert await seats_turned_due(marks, match, asked) == {1: 1, 2: 1}  # both told of their turn
    assert await seats_turned_due(marks, match, after) == {}  # the answer tells nobody anything
    closed, last = act(answered, 1, Pass())
    done = turns(match, Folded(3, closed, "", 30.0, clocks=clocks.advance(TAVERNA, CLOCK, sealed, closed, 30.0, last)))
    assert not {1, 2} & set(done.due) and changed(after, done)  # the prompt closed: both off their turn
    assert await seats_turned_due(marks, match, done) == {seat: 3 for seat in done.due}
