"""Hidden information: hands, packets and deck orders are hidden; events are redacted."""

from __future__ import annotations

import msgspec

from domain.bots.random_bot import RandomBot
from domain.kernel import Table, bot_turn
from domain.tavern_masters import GAME
from domain.tavern_masters import events as ev
from domain.tavern_masters.views import event_view
from tests.tavern_masters.helpers import make


def test_hidden_names_other_hands_packets_and_every_deck_card():
    state = make(seats=3, players=[{"hand": ("meat-pie-1",)}, {"packet": ("grog-1",)}, {"hand": ("grog-2",)}])
    hidden = GAME.hidden(state, 0)
    assert {"grog-1", "grog-2"} <= hidden and "meat-pie-1" not in hidden
    assert set(state.decks["tavern"]) <= hidden
    assert {"meat-pie-1", "grog-1", "grog-2"} <= GAME.hidden(state, None)


def test_view_shows_own_hand_and_counts_of_the_others():
    state = make(seats=2, players=[{"hand": ("meat-pie-1",)}, {"hand": ("grog-1", "grog-2")}])
    view = GAME.view(state, 0)
    assert view.hand == ("meat-pie-1",) and [p.hand_count for p in view.players] == [1, 2]
    assert view.deck_counts["tavern"] == len(state.decks["tavern"])
    text = msgspec.json.encode(view).decode()
    assert "grog-1" not in text and state.decks["tavern"][0] not in text


def test_opening_events_hide_the_deck_order_and_other_packets():
    table = Table(GAME, GAME.setup(3, {}), "views")
    setup, dealt = table.events[0], [e for e in table.events if isinstance(e, ev.Dealt)]
    assert all(cards == () for cards in event_view(setup, 0).decks.values())
    assert event_view(dealt[0], dealt[0].seat).cards == dealt[0].cards
    assert event_view(dealt[0], (dealt[0].seat + 1) % 3).cards == ()


def test_a_draft_pick_is_hidden_from_the_others():
    picked = ev.Picked(seat=1, card="grog-1")
    assert event_view(picked, 1) == picked and event_view(picked, 0).card == ""


def test_a_card_stolen_from_a_hand_is_seen_only_by_the_thief():
    stolen = ev.CardMoved(card="grog-1", owner=1, src="hand", dest_owner=0, dest="hand")
    assert event_view(stolen, 0).card == "grog-1"
    assert event_view(stolen, 1).card == "" and event_view(stolen, 2).card == ""
    discarded = ev.CardMoved(card="grog-1", owner=1, src="hand", dest_owner=1, dest="discard")
    assert event_view(discarded, 2) == discarded  # the discard pile is face up


def test_a_reshuffle_hides_the_new_order():
    shuffled = ev.Reshuffled(deck="tavern", order=("grog-1", "grog-2"), count=2)
    assert event_view(shuffled, 0).order == () and event_view(shuffled, 0).count == 2


def test_the_view_names_exactly_the_seats_with_a_choice():
    for seats, options in ((3, {"dirty_deeds": True}), (1, {"mode": "solo"}), (4, {"mode": "cooperative"})):
        table = Table(GAME, GAME.setup(seats, options), "to-act")
        bots = [RandomBot() for _ in range(seats)]
        while not table.finished:
            assert GAME.view(table.state, None).to_act == tuple(table.actors())
            table.submit(*bot_turn(table, bots))
        assert GAME.view(table.state, 0).to_act == ()
