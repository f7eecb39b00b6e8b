"""Trading: an offer from one seat, answered by the other, checked again on acceptance."""

from __future__ import annotations

from domain.tavern_masters import GAME
from domain.tavern_masters.commands import AnswerOffer, Done, OfferTrade, PlayCard
from domain.tavern_masters.views import event_view
from tests.tavern_masters.helpers import make, refused, send


def two(**fields):
    players = [{"gold": 3, "hand": ("meat-pie-1", "barbarian-1"), "tavern": ("dice-table-1",)},
               {"gold": 3, "tavern": ("dwarven-ale-1",)}]
    return make(players=players, **fields)


def test_a_card_in_play_traded_for_gold_moves_to_the_buyers_tavern():
    # TM-T13: seat 1 buys seat 0's in-play card for 2 Gold: it stays in play, in the buyer's Tavern
    state, _ = send(two(), 1, OfferTrade(to=0, give="", take="dice-table-1", gold=2))
    state, _ = send(state, 0, AnswerOffer(offer=0, accept=True))
    assert state.players[1].tavern == ("dwarven-ale-1", "dice-table-1")
    assert (state.players[0].gold, state.players[1].gold) == (5, 1)
    assert state.offers == ()


def test_a_card_sold_from_the_hand_goes_to_the_buyers_hand():
    state, _ = send(two(), 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=3))
    state, _ = send(state, 1, AnswerOffer(offer=0, accept=True))
    assert state.players[1].hand == ("meat-pie-1",) and state.players[1].gold == 0


def test_a_hand_card_swapped_for_a_card_in_play():
    state, _ = send(two(), 0, OfferTrade(to=1, give="meat-pie-1", take="dwarven-ale-1", gold=0))
    state, _ = send(state, 1, AnswerOffer(offer=0, accept=True))
    assert state.players[1].hand == ("meat-pie-1",)  # from a hand to a hand
    assert state.players[0].tavern == ("dice-table-1", "dwarven-ale-1")  # in play to in play
    assert [p.gold for p in state.players] == [3, 3]


def test_every_offer_shape_is_in_legal():
    offers = [c for c in GAME.legal(two(), 0) if isinstance(c, OfferTrade)]
    assert OfferTrade(to=1, give="meat-pie-1", take="", gold=3) in offers
    assert OfferTrade(to=1, give="", take="dwarven-ale-1", gold=1) in offers
    assert OfferTrade(to=1, give="meat-pie-1", take="dwarven-ale-1", gold=0) in offers
    assert len(offers) == 3 + 3 + 1  # a Patron in hand is not offered


def test_declined_offer_changes_nothing_but_closes():
    before = two()
    state, _ = send(before, 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1))
    state, _ = send(state, 1, AnswerOffer(offer=0, accept=False))
    assert state.players[0].hand == before.players[0].hand and state.offers == ()


def test_acceptance_checks_the_offer_again():
    poorer = make(players=[{"gold": 3, "tavern": ("dice-table-1",)}, {"gold": 3, "hand": ("elven-wine-1",)}])
    poorer, _ = send(poorer, 1, OfferTrade(to=0, give="", take="dice-table-1", gold=3))
    poorer, _ = send(poorer, 1, PlayCard(card="elven-wine-1"))  # spends the Gold meanwhile
    refused(poorer, 0, AnswerOffer(offer=0, accept=True), "offer_no_longer_valid")
    assert AnswerOffer(offer=0, accept=True) not in GAME.legal(poorer, 0)
    poorer, _ = send(poorer, 0, AnswerOffer(offer=0, accept=False))
    assert poorer.offers == ()


def test_a_hand_card_offered_then_played_goes_to_the_buyers_tavern():
    state, _ = send(two(), 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1))
    state, _ = send(state, 0, PlayCard(card="meat-pie-1"))
    state, _ = send(state, 1, AnswerOffer(offer=0, accept=True))
    assert "meat-pie-1" in state.players[1].tavern


def test_trade_errors():
    state = two()
    refused(state, 0, OfferTrade(to=0, give="meat-pie-1", take="", gold=1), "bad_trade_partner")
    refused(state, 0, OfferTrade(to=7, give="meat-pie-1", take="", gold=1), "bad_trade_partner")
    refused(state, 0, OfferTrade(to=1, give="meat-pie-1", take="dwarven-ale-1", gold=1), "bad_gold")
    refused(state, 0, OfferTrade(to=1, give="", take="", gold=1), "bad_offer")
    refused(state, 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=4), "bad_gold")
    refused(state, 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=0), "bad_gold")
    refused(state, 0, OfferTrade(to=1, give="barbarian-1", take="", gold=1), "not_tradeable")  # a Patron
    refused(state, 0, OfferTrade(to=1, give="meat-pie-2", take="", gold=1), "card_not_in_hand")
    refused(state, 0, OfferTrade(to=1, give="", take="meat-pie-2", gold=1), "card_not_in_their_tavern")
    refused(state, 0, OfferTrade(to=1, give="", take="zz", gold=1), "no_such_card")
    poor = make(players=[{"gold": 0}, {"tavern": ("dwarven-ale-1",)}])
    refused(poor, 0, OfferTrade(to=1, give="", take="dwarven-ale-1", gold=1), "cannot_afford")
    once, _ = send(state, 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1))
    refused(once, 0, OfferTrade(to=1, give="", take="dwarven-ale-1", gold=1), "offer_limit")
    refused(once, 0, AnswerOffer(offer=0, accept=True), "not_your_offer")
    refused(once, 1, AnswerOffer(offer=5, accept=True), "no_such_offer")
    done, _ = send(state, 0, Done())
    refused(done, 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1), "already_done")
    refused(make(phase="till"), 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1), "no_trading_now")


def test_deed_cards_cannot_be_traded():
    state = make(dirty_deeds=True, players=[{"hand": ("pick-pockets-1",)}])
    refused(state, 0, OfferTrade(to=1, give="pick-pockets-1", take="", gold=1), "not_tradeable")


def test_trading_in_the_night_too_and_the_phase_waits_for_the_answer():
    state, _ = send(two(phase="night"), 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1))
    state, _ = send(state, 0, Done())
    state, _ = send(state, 1, Done())
    assert state.phase == "night"  # an offer is open
    assert GAME.legal(state, 1) == [AnswerOffer(offer=0, accept=True), AnswerOffer(offer=0, accept=False)]
    state, _ = send(state, 1, AnswerOffer(offer=0, accept=False))
    assert state.phase != "night"


def test_a_hand_card_offered_is_shown_to_the_two_traders_only():
    three = make(seats=3, players=[{"gold": 3, "hand": ("meat-pie-1",)}, {"gold": 3}, {"gold": 3}])
    state, events = send(three, 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1))
    assert "meat-pie-1" not in GAME.hidden(state, 1)
    assert "meat-pie-1" in GAME.hidden(state, 2)
    assert event_view(events[0], 1).give == "meat-pie-1"
    assert event_view(events[0], 2).give == ""
    assert GAME.view(state, 2).offers[0].give == ""


def test_no_trading_alone():
    solo = make(seats=1, mode="solo", players=[{"hand": ("meat-pie-1",)}])
    assert all(not isinstance(c, OfferTrade) for c in GAME.legal(solo, 0))


def test_one_offer_a_round_by_day_or_by_night():
    state, _ = send(two(), 0, OfferTrade(to=1, give="meat-pie-1", take="", gold=1))
    state, _ = send(state, 1, AnswerOffer(offer=0, accept=False))
    state, _ = send(state, 0, Done())
    state, _ = send(state, 1, Done())
    assert state.phase == "night"
    refused(state, 0, OfferTrade(to=1, give="", take="dwarven-ale-1", gold=1), "offer_limit")
    assert OfferTrade(to=0, give="", take="dice-table-1", gold=1) in GAME.legal(state, 1)
