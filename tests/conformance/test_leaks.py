"""The counterfactual leak check (tests/conformance/leaks.py) over random matches of every game and
option set: no finding. And it catches each leak of issue 38 planted back (the checks that failed on
the code before it): a prompt of "always pass" seats closing inside the active player's command,
clocks that stop once a seat answers, a feed naming a sealed answer's sender, a shown card dropping
out of a view when it leaves the hand unseen. tests/bench/bench_leaks.py runs 1,000 matches a game."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from domain.games import game_ids, get_game
from domain.tavern_masters import GAME as TAVERN_MASTERS
from domain.taverna import GAME as TAVERNA
from domain.taverna import events as ev
from tests.conformance import leaks

MATCHES = 12  # per game: every option set at least once for most games, a few seconds in all


@pytest.mark.parametrize("game_id", game_ids())
def test_no_seat_observes_what_it_may_not_know(game_id):
    findings = leaks.run(get_game(game_id), MATCHES, prefix="ci")
    assert findings.found == []
    assert findings.checked > 100


def test_every_option_value_is_played():
    sets = leaks.option_sets(TAVERNA)
    assert {"notary_second_deed": True} in sets and {"off_turn_favours": False} in sets and {} in sets


def taverna_findings(game, matches: int = 40) -> list[str]:
    found = leaks.Findings()
    for n in range(matches):
        leaks.check_match(game, game.setup(2 + n % 2), f"planted-{n}", found, every=2)
    return found.found


def test_it_catches_a_prompt_of_always_pass_seats_closing_in_the_active_players_command():
    def decide(state, command, seat, rng):
        events = TAVERNA.decide(state, command, seat, rng)
        after = leaks._fold(TAVERNA, state, events)
        turn = after.turn
        if turn is not None and turn.responders and all(after.players[s].auto_pass for s in turn.responders):
            events.append(ev.Responders(moment=turn.moment, seats=()))  # rules version 3: answered at once
        return events

    found = taverna_findings(dataclasses.replace(TAVERNA, decide=decide))
    assert any("always pass flipped" in finding and "entries" in finding for finding in found), found[:3]


def test_it_catches_clocks_that_stop_once_a_seat_answers():
    found = taverna_findings(dataclasses.replace(TAVERNA, sealed=None))
    assert any("sealed answer given or not" in finding and "clocks" in finding for finding in found), found[:3]


def test_it_catches_a_feed_naming_who_sent_a_sealed_answer(monkeypatch):
    monkeypatch.setattr(leaks.feed, "sealed_commands", lambda entries, game, seat: set())
    found = taverna_findings(TAVERNA)
    assert any("tells Pass of seat" in finding and "entries" in finding for finding in found), found[:3]


def test_it_catches_a_shown_card_dropping_out_when_it_leaves_the_hand_unseen():
    def view(state, seat):
        seen = TAVERN_MASTERS.view(state, seat)
        held = tuple((c, owner) for c, owner in seen.shown if c in state.players[owner].hand)
        return msgspec.structs.replace(seen, shown=held)

    careless = dataclasses.replace(TAVERN_MASTERS, view=view)
    found = leaks.run(careless, 6, prefix="planted")
    assert any("gone to seat" in finding and "view" in finding for finding in found.found), found.found[:3]
