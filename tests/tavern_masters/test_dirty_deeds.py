"""The Dirty Deeds phase: turn order, draws, Agents, Patron abilities, cancelling."""

from __future__ import annotations

from domain.tavern_masters import GAME
from domain.tavern_masters.commands import AnswerDeed, Done, PlayDeed
from tests.tavern_masters.helpers import make, refused, send


def to_deeds(seats=4, round=1, server=0, players=None):
    """The end of a Night with Dirty Deeds: every seat Done."""
    state = make(seats=seats, phase="night", round=round, server=server, dirty_deeds=True, players=players)
    for seat in range(seats):
        state, _ = send(state, seat, Done())
    return state


def test_turns_go_clockwise_from_left_of_the_server_drawing_three_in_round_one():
    # TM-T9: 4 seats, Server 0: turns 1, 2, 3, 0; each draws 3 at the start of its own turn
    state = to_deeds(server=0)
    order = []
    while state.phase == "deeds":
        order.append(state.turn)
        assert len(state.players[state.turn].hand) == 3
        state, _ = send(state, state.turn, Done())
    assert order == [1, 2, 3, 0]
    assert state.phase in ("till", "day")


def test_one_card_a_turn_after_the_first_round():
    state = to_deeds(round=2, server=1)
    assert state.turn == 2 and len(state.players[2].hand) == 1
    assert [len(p.hand) for p in state.players] == [0, 0, 1, 0]  # the others draw on their own turn


def test_a_deed_needs_its_agent_in_the_tavern():
    players = [{}, {"hand": ("pick-pockets-1",)}]
    state = to_deeds(seats=2, players=players)
    refused(state, 1, PlayDeed(card="pick-pockets-1", target=0), "deed_not_usable")  # no Thug
    thug = to_deeds(seats=2, players=[{"gold": 3}, {"hand": ("pick-pockets-1",), "tavern": ("bouncer-1",)}])
    thug, _ = send(thug, 1, PlayDeed(card="pick-pockets-1", target=0))
    assert thug.pending is not None and "pick-pockets-1" in thug.discards["deed"]
    thug, _ = send(thug, 0, AnswerDeed())
    assert (thug.players[0].gold, thug.players[1].gold) == (1, 5)
    assert thug.players[1].tavern == ("bouncer-1",)  # the Agent is not used up


def test_a_deed_on_yourself_happens_at_once():
    state = to_deeds(seats=2, players=[{}, {"hand": ("smuggling-run-1",), "tavern": ("old-sailor-1",)}])
    state, _ = send(state, 1, PlayDeed(card="smuggling-run-1"))
    assert state.pending is None and state.players[1].gold == 5


def test_a_cancelling_card_stops_the_deed():
    players = [{"gold": 3, "hand": ("city-watch-1",)}, {"hand": ("pick-pockets-1",), "tavern": ("bouncer-1",)}]
    state = to_deeds(seats=2, players=players)
    state, _ = send(state, 1, PlayDeed(card="pick-pockets-1", target=0))
    assert GAME.legal(state, 0) == [AnswerDeed(), AnswerDeed(cancel="city-watch-1")]
    assert GAME.legal(state, 1) == []
    refused(state, 1, PlayDeed(card="pick-pockets-1", target=0), "deed_pending")
    refused(state, 1, Done(), "deed_pending")
    refused(state, 1, AnswerDeed(), "no_deed_to_answer")
    refused(state, 0, AnswerDeed(cancel="pick-pockets-2"), "not_a_cancel")
    state, _ = send(state, 0, AnswerDeed(cancel="city-watch-1"))
    assert state.players[0].gold == 3 and state.players[1].gold == 3
    assert set(state.discards["deed"]) == {"pick-pockets-1", "city-watch-1"}


def test_a_patron_dirty_deed_ability_once_a_round():
    players = [{"tavern": ("dwarven-ale-1", "barbarian-1")}, {"tavern": ("dwarven-ale-2", "brawler-1")}]
    state = to_deeds(seats=2, players=players)
    state, _ = send(state, 1, PlayDeed(card="brawler-1", target=0, target_card="barbarian-1"))
    state, _ = send(state, 0, AnswerDeed())
    assert "barbarian-1" in state.discards["patron"] and state.used == ("brawler-1",)
    refused(state, 1, PlayDeed(card="brawler-1", target=0, target_card="barbarian-1"), "deed_not_usable")


def test_a_used_ability_stays_used_when_the_patron_is_stolen():
    players = [{"tavern": ("dwarven-ale-1", "cutpurse-1"), "gold": 3},
               {"tavern": ("serving-wench-1",), "hand": ("lure-away-1",), "gold": 3}]
    state = to_deeds(seats=2, server=1, players=players)  # seat 0 first, then seat 1
    state, _ = send(state, 0, PlayDeed(card="cutpurse-1", target=1))
    state, _ = send(state, 1, AnswerDeed())
    state, _ = send(state, 0, Done())
    assert state.turn == 1
    state, _ = send(state, 1, PlayDeed(card="lure-away-1", target=0, target_card="cutpurse-1"))
    state, _ = send(state, 0, AnswerDeed())
    assert "cutpurse-1" in state.players[1].tavern
    assert all(c.card != "cutpurse-1" for c in GAME.legal(state, 1) if isinstance(c, PlayDeed))
    refused(state, 1, PlayDeed(card="cutpurse-1", target=0), "deed_not_usable")


def test_deed_errors():
    players = [{"tavern": ("meat-pie-1",), "hand": ("bar-brawl-1",)},
               {"hand": ("bar-brawl-2",), "tavern": ("bouncer-1",)}]
    state = to_deeds(seats=2, players=players)
    assert state.turn == 1
    refused(state, 0, PlayDeed(card="bar-brawl-1", target=1, target_card="bouncer-1"), "not_your_turn")
    refused(state, 0, Done(), "not_your_turn")
    refused(state, 1, PlayDeed(card="bar-brawl-2", target=0, target_card="meat-pie-1"), "bad_target")  # not a Patron
    refused(state, 1, PlayDeed(card="bar-brawl-2", target=1, target_card=""), "bad_target")
    refused(make(dirty_deeds=True), 0, PlayDeed(card="bar-brawl-1", target=1), "not_deeds_phase")
    refused(state, 0, AnswerDeed(), "no_deed_to_answer")


def test_without_the_expansion_night_goes_straight_to_the_till():
    state = make(seats=2, phase="night")
    for seat in range(2):
        state, _ = send(state, seat, Done())
    assert state.phase == "day" and state.round == 3 and state.decks["deed"] == ()
