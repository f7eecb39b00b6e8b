"""A round: Day, Night, Counting the Till, the hand limit, the Server passing left."""

from __future__ import annotations

import pytest

from domain.kernel import Rng
from domain.tavern_masters import GAME
from domain.tavern_masters.builder import Builder
from domain.tavern_masters.commands import DiscardCard, Done, PlayCard, PlayPatron
from domain.tavern_masters.phases import start_round
from tests.tavern_masters.helpers import make, refused, send


def finish(state, phase_seats=None):
    """Every seat says Done."""
    for seat in phase_seats if phase_seats is not None else range(state.seats):
        state, _ = send(state, seat, Done())
    return state


# --- Day ----------------------------------------------------------------------------------------


def test_buying_goods_costs_its_gold():
    state = make(players=[{"gold": 3, "hand": ("elven-wine-1",)}])
    state, _ = send(state, 0, PlayCard(card="elven-wine-1"))
    assert state.players[0].tavern == ("elven-wine-1",) and state.players[0].gold == 0


def test_elven_barmaid_costs_two_gold_without_cheese():
    # TM-T2 (2018 rules): 3 Gold, no Cheese: hiring costs 2
    state = make(players=[{"gold": 3, "hand": ("elven-barmaid-1",)}])
    refused(state, 0, PlayCard(card="elven-barmaid-1", free=True), "hire_condition_not_met")
    state, _ = send(state, 0, PlayCard(card="elven-barmaid-1"))
    assert state.players[0].gold == 1 and state.players[0].tavern == ("elven-barmaid-1",)


def test_elven_barmaid_hired_free_with_any_cheese():
    state = make(players=[{"gold": 3, "hand": ("elven-barmaid-1",), "tavern": ("aged-cheese-1",)}])
    free, _ = send(state, 0, PlayCard(card="elven-barmaid-1", free=True))
    assert free.players[0].gold == 3 and "elven-barmaid-1" in free.players[0].tavern
    paid, _ = send(state, 0, PlayCard(card="elven-barmaid-1"))  # paying anyway is allowed
    assert paid.players[0].gold == 1


@pytest.mark.parametrize("sailor", ["old-sailor-1", "smuggler-1"])  # a Staff, a Patron who stayed
def test_smuggled_rum_is_free_with_any_sailor_in_the_tavern(sailor):
    """Smuggled Rum (Goods, a Drink, 2 Gold, free with any Sailor; seeds/tavern-masters/tavern.json):
    its "free with" was read for Staff alone, so it never came free (issue 38)."""
    state = make(players=[{"gold": 3, "hand": ("smuggled-rum-1",), "tavern": (sailor,)}])
    assert PlayCard(card="smuggled-rum-1", free=True) in GAME.legal(state, 0)
    free, events = send(state, 0, PlayCard(card="smuggled-rum-1", free=True))
    assert events[0].paid == 0 and free.players[0].gold == 3 and "smuggled-rum-1" in free.players[0].tavern
    paid, _ = send(state, 0, PlayCard(card="smuggled-rum-1"))  # paying anyway is allowed
    assert paid.players[0].gold == 1
    dry = make(players=[{"gold": 3, "hand": ("smuggled-rum-1",), "tavern": ("elven-wine-1",)}])
    refused(dry, 0, PlayCard(card="smuggled-rum-1", free=True), "hire_condition_not_met")
    assert PlayCard(card="smuggled-rum-1", free=True) not in GAME.legal(dry, 0)


def test_free_hire_even_without_gold():
    state = make(players=[{"gold": 0, "hand": ("elven-barmaid-1",), "tavern": ("goat-cheese-1",)}])
    assert GAME.legal(state, 0)[0] == PlayCard(card="elven-barmaid-1", free=True)
    refused(state, 0, PlayCard(card="elven-barmaid-1"), "cannot_afford")


def test_day_errors():
    state = make(players=[{"gold": 1, "hand": ("elven-wine-1", "barbarian-1")}, {"hand": ("meat-pie-1",)}])
    refused(state, 0, PlayCard(card="elven-wine-1"), "cannot_afford")
    refused(state, 0, PlayCard(card="meat-pie-1"), "card_not_in_hand")
    refused(state, 0, PlayCard(card="barbarian-1"), "not_goods_or_staff")
    refused(state, 0, PlayCard(card="elven-wine-1", free=True), "hire_condition_not_met")
    refused(make(phase="night", players=[{"hand": ("meat-pie-1",)}]), 0, PlayCard(card="meat-pie-1"), "not_day")
    done, _ = send(state, 0, Done())
    refused(done, 0, PlayCard(card="elven-wine-1"), "already_done")
    refused(done, 0, Done(), "already_done")


def test_night_begins_when_every_seat_is_done_and_deals_three_patrons_each():
    state = make(seats=3)
    state = finish(state, [0, 1])
    assert state.phase == "day"
    state = finish(state, [2])
    assert state.phase == "night"
    assert [len(p.hand) for p in state.players] == [3, 3, 3]


def test_patrons_are_dealt_clockwise_from_left_of_the_server():
    state = make(seats=3, server=1)
    top = state.decks["patron"][:9]
    state = finish(state)
    assert state.players[2].hand == top[0:3]  # left of the Server draws first
    assert state.players[0].hand == top[3:6]
    assert state.players[1].hand == top[6:9]


def test_later_days_deal_three_tavern_cards_but_not_the_first():
    first = Builder(make(seats=2, phase="till", round=0))
    start_round(first, 1, 0, Rng("r", 0))
    assert [len(p.hand) for p in first.state.players] == [0, 0]
    later = Builder(make(seats=2, phase="till", round=1))
    start_round(later, 2, 1, Rng("r", 0))
    assert [len(p.hand) for p in later.state.players] == [3, 3]


# --- Night --------------------------------------------------------------------------------------


def test_a_patron_is_played_only_when_the_tavern_has_what_it_wants():
    state = make(phase="night", players=[{"hand": ("thirsty-farmer-1", "gambler-1"), "tavern": ("dwarven-ale-1",)}])
    refused(state, 0, PlayPatron(card="gambler-1"), "wants_not_in_tavern")  # wants Wine
    state, _ = send(state, 0, PlayPatron(card="thirsty-farmer-1"))  # wants Ale
    assert state.players[0].tavern == ("dwarven-ale-1", "thirsty-farmer-1")


def test_any_drink_patron_with_any_drink():
    state = make(phase="night", players=[{"hand": ("weary-pilgrim-1",), "tavern": ("grog-1",)}])
    state, _ = send(state, 0, PlayPatron(card="weary-pilgrim-1"))
    assert "weary-pilgrim-1" in state.players[0].tavern


def test_nobles_need_an_enabling_card():
    hand = {"hand": ("baroness-1",), "tavern": ("house-wine-1",)}
    refused(make(phase="night", players=[hand]), 0, PlayPatron(card="baroness-1"), "noble_not_allowed")
    thirsty = {"hand": ("baroness-1",), "tavern": ("royal-herald-1",)}  # allowed, but no Wine
    refused(make(phase="night", players=[thirsty]), 0, PlayPatron(card="baroness-1"), "wants_not_in_tavern")
    enabled = make(phase="night", players=[{**hand, "tavern": ("house-wine-1", "royal-herald-1")}])
    state, _ = send(enabled, 0, PlayPatron(card="baroness-1"))
    assert "baroness-1" in state.players[0].tavern


def test_night_errors():
    state = make(phase="night", players=[{"hand": ("meat-pie-1",), "tavern": ("dwarven-ale-1",)}])
    refused(state, 0, PlayPatron(card="meat-pie-1"), "not_a_patron")
    refused(state, 0, PlayPatron(card="thirsty-farmer-1"), "card_not_in_hand")
    refused(make(players=[{"hand": ("thirsty-farmer-1",)}]), 0, PlayPatron(card="thirsty-farmer-1"), "not_night")


# --- Counting the Till --------------------------------------------------------------------------


def test_till_pays_one_a_patron_two_a_noble_plus_effects():
    tavern = ("dragonfire-brandy-1", "thirsty-farmer-1", "weary-pilgrim-1", "duke-of-redstaff-1")
    state = make(phase="night", players=[{"gold": 3, "tavern": tavern}])
    state = finish(state)
    # Brandy +1, two Patrons +2, the Duke (Noble 2 + income 1) +3
    assert state.last_income == (6, 0) and state.players[0].gold == 9


def test_patron_who_likes_wenches_stays_after_the_barmaid_is_gone():
    # TM-T3 (2018 rules): the Barmaid was in the Tavern this round, then left: the Patron stays
    state = make(phase="night", players=[{"tavern": ("dwarven-ale-1", "off-duty-soldier-1"),
                                          "seen": ("dwarven-ale-1", "off-duty-soldier-1", "elven-barmaid-1")}])
    state = finish(state)
    assert "off-duty-soldier-1" in state.players[0].tavern
    # the next round nothing it likes is there: it leaves at the end of that round
    state = finish(state)  # Day
    state = finish(state)  # Night
    assert "off-duty-soldier-1" not in state.players[0].tavern
    assert "off-duty-soldier-1" in state.discards["patron"]


def test_patrons_who_like_nothing_in_the_tavern_are_discarded():
    tavern = ("dwarven-ale-1", "thirsty-farmer-1", "weary-pilgrim-1", "aged-cheese-1", "old-smith-1")
    state = finish(make(phase="night", players=[{"tavern": tavern}]))
    # the Farmer likes Food (the Cheese), the Smith likes Cheese; the Pilgrim likes nothing
    assert state.players[0].tavern == ("dwarven-ale-1", "thirsty-farmer-1", "aged-cheese-1", "old-smith-1")
    assert state.discards["patron"] == ("weary-pilgrim-1",)


def test_hand_limit_is_five_and_discarding_is_one_card_at_a_time():
    hand = ("meat-pie-1", "meat-pie-2", "meat-pie-3", "dice-table-1", "dice-table-2", "dart-board-1", "grog-1")
    state = finish(make(phase="night", players=[{"hand": hand}]))
    assert state.phase == "till"
    refused(state, 1, DiscardCard(card="meat-pie-1"), "hand_within_limit")
    refused(state, 0, DiscardCard(card="barbarian-1"), "card_not_in_hand")
    state, _ = send(state, 0, DiscardCard(card="meat-pie-1"))
    assert state.phase == "till"
    state, _ = send(state, 0, DiscardCard(card="grog-1"))
    assert len(state.players[0].hand) == 5 + 3  # the next Day has dealt 3 more
    assert state.phase == "day" and state.round == 3
    refused(state, 0, DiscardCard(card=state.players[0].hand[0]), "not_end_of_round")


def test_hand_limit_is_six_with_dirty_deeds():
    hand = ("meat-pie-1", "meat-pie-2", "meat-pie-3", "dice-table-1", "dice-table-2", "dart-board-1", "grog-1")
    state = make(phase="till", dirty_deeds=True, players=[{"hand": hand}])
    state, _ = send(state, 0, DiscardCard(card="grog-1"))
    assert state.round == 3  # six kept: the next round began


def test_server_passes_left_each_round():
    # TM-T14: 3 seats, Server 0, then 1, 2, 0
    state = make(seats=3, round=1, server=0)
    servers = []
    for _ in range(3):
        state = finish(finish(state))  # Day, Night
        while state.phase == "till":  # the hand limit
            seat = next(i for i, p in enumerate(state.players) if len(p.hand) > 5)
            state, _ = send(state, seat, DiscardCard(card=state.players[seat].hand[0]))
        servers.append(state.server)
    assert servers == [1, 2, 0]
