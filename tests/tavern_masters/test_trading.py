"""Trading (RULINGS.md 22-27): offers written in steps, any mix of cards and Gold, answered by the
other seat, checked again on acceptance; one offer to each seat a phase; gifts in co-operative play."""

from __future__ import annotations

from pathlib import Path

import msgspec

from domain.kernel import Rng, fold
from domain.tavern_masters import GAME
from domain.tavern_masters import events as ev
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.commands import (
    AddToOffer,
    AnswerOffer,
    Done,
    MakeOffer,
    OpenOffer,
    PlayCard,
    SetOfferGold,
    WithdrawOffer,
)
from domain.tavern_masters.views import event_view
from projections.upcasting import event_decoder
from tests.tavern_masters.helpers import make, refused, send

FIXTURE = Path(__file__).parent / "fixtures" / "tavern-masters-rules-1.json"


def two(gold=(3, 3), **fields):
    players = [{"gold": gold[0], "hand": ("meat-pie-1", "barbarian-1"), "tavern": ("dice-table-1",)},
               {"gold": gold[1], "hand": ("grog-1",), "tavern": ("dwarven-ale-1",)}]
    return make(players=players, **fields)


def offer(state, seat, to, *cards, gold=0):
    """Write and send an offer from ``seat`` to ``to``; returns the state and the offer's id."""
    state, events = send(state, seat, OpenOffer(to=to))
    number = events[0].id
    for card_id in cards:
        state, _ = send(state, seat, AddToOffer(offer=number, card=card_id))
    if gold:
        state, _ = send(state, seat, SetOfferGold(offer=number, gold=gold))
    state, _ = send(state, seat, MakeOffer(offer=number))
    return state, number


def accept(state, seat, number):
    return send(state, seat, AnswerOffer(offer=number, accept=True))[0]


def test_any_gold_up_to_the_purse_for_a_hand_card():
    # rules version 1 capped a trade at 3 Gold
    state, number = offer(two(gold=(3, 9)), 0, 1, "meat-pie-1", gold=-9)
    state = accept(state, 1, number)
    assert (state.players[0].gold, state.players[1].gold) == (12, 0)
    assert "meat-pie-1" in state.players[1].hand
    refused(two(), 0, SetOfferGold(offer=0, gold=1), "no_such_offer")
    opened, _ = send(two(), 0, OpenOffer(to=1))
    refused(opened, 0, SetOfferGold(offer=0, gold=4), "bad_gold")  # more than the writer has
    refused(opened, 0, SetOfferGold(offer=0, gold=-4), "bad_gold")  # more than they have
    refused(opened, 0, SetOfferGold(offer=0, gold=0), "bad_gold")
    once, _ = send(opened, 0, SetOfferGold(offer=0, gold=2))
    refused(once, 0, SetOfferGold(offer=0, gold=1), "gold_already_set")


def test_cards_from_hand_and_tavern_on_both_sides_with_gold():
    # rules version 1 allowed one card a side; a card of one's own Tavern could not be sold
    state, number = offer(two(), 0, 1, "meat-pie-1", "dice-table-1", "dwarven-ale-1", gold=-2)
    state = accept(state, 1, number)
    me, them = state.players
    assert me.tavern == ("dwarven-ale-1",) and me.gold == 5
    assert them.hand == ("grog-1", "meat-pie-1")  # from a hand to a hand
    assert them.tavern == ("dice-table-1",) and them.gold == 1  # in play to in play


def test_a_card_in_ones_own_tavern_sold_for_gold():
    state, number = offer(two(), 0, 1, "dice-table-1", gold=-1)
    state = accept(state, 1, number)
    assert state.players[1].tavern == ("dwarven-ale-1", "dice-table-1") and state.players[0].gold == 4


def test_a_gold_gift_in_cooperative_play_only():
    state, number = offer(two(mode="cooperative"), 0, 1, gold=3)
    state = accept(state, 1, number)
    assert [p.gold for p in state.players] == [0, 6]
    competitive, _ = send(two(), 0, OpenOffer(to=1))
    competitive, _ = send(competitive, 0, SetOfferGold(offer=0, gold=3))
    refused(competitive, 0, MakeOffer(offer=0), "bad_offer")  # a trade moves something each way
    assert MakeOffer(offer=0) not in GAME.legal(competitive, 0)
    competitive, _ = send(competitive, 0, AddToOffer(offer=0, card="dwarven-ale-1"))
    assert MakeOffer(offer=0) in GAME.legal(competitive, 0)


def test_a_hand_card_can_be_asked_for_once_shown():
    state, _ = send(two(), 0, OpenOffer(to=1))
    refused(state, 0, AddToOffer(offer=0, card="grog-1"), "card_not_tradeable_here")  # their hand is hidden
    assert AddToOffer(offer=0, card="grog-1") not in GAME.legal(state, 0)
    assert "grog-1" in GAME.hidden(state, 0)
    state, _ = send(state, 1, OpenOffer(to=0))
    state, _ = send(state, 1, AddToOffer(offer=1, card="grog-1"))  # seat 1 shows it to seat 0
    assert "grog-1" not in GAME.hidden(state, 0)
    state, _ = send(state, 1, WithdrawOffer(offer=1))
    state, _ = send(state, 0, AddToOffer(offer=0, card="grog-1"))
    state, _ = send(state, 0, AddToOffer(offer=0, card="meat-pie-1"))
    state, _ = send(state, 0, MakeOffer(offer=0))
    state = accept(state, 1, 0)
    assert state.players[0].hand == ("barbarian-1", "grog-1") and state.players[1].hand == ("meat-pie-1",)
    assert "grog-1" not in GAME.hidden(state, 0)  # its own now


def test_one_offer_to_each_seat_a_phase():
    three = make(seats=3, players=[{"gold": 3}, {"gold": 3}, {"gold": 3}], mode="cooperative")
    state, number = offer(three, 0, 1, gold=1)
    refused(state, 0, OpenOffer(to=1), "offer_limit")
    state = accept(state, 1, number)
    refused(state, 0, OpenOffer(to=1), "offer_limit")  # answered, still this phase's
    assert OpenOffer(to=1) not in GAME.legal(state, 0) and OpenOffer(to=2) in GAME.legal(state, 0)
    state, _ = send(state, 1, OpenOffer(to=0))  # the other way is another pair
    state, _ = send(state, 1, WithdrawOffer(offer=1))
    for seat in range(3):
        state, _ = send(state, seat, Done())
    assert state.phase == "night" and OpenOffer(to=1) in GAME.legal(state, 0)


def test_withdraw_a_draft_or_a_sent_offer():
    state, _ = send(two(), 0, OpenOffer(to=1))
    refused(state, 0, Done(), "offer_unsent")
    assert Done() not in GAME.legal(state, 0)
    refused(state, 1, WithdrawOffer(offer=0), "not_your_offer")
    state, _ = send(state, 0, WithdrawOffer(offer=0))
    assert state.drafts == () and Done() in GAME.legal(state, 0)
    sent, number = offer(two(gold=(3, 3)), 1, 0, "dwarven-ale-1", gold=-1)
    assert AnswerOffer(offer=number, accept=True) in GAME.legal(sent, 0)
    sent, _ = send(sent, 1, WithdrawOffer(offer=number))
    refused(sent, 0, AnswerOffer(offer=number, accept=True), "no_such_offer")
    done, _ = send(offer(two(), 1, 0, "dwarven-ale-1", gold=-1)[0], 1, Done())
    refused(done, 1, WithdrawOffer(offer=0), "already_done")  # a sent offer stands once its writer is done


def test_acceptance_checks_the_offer_again():
    poorer = make(players=[{"gold": 3, "tavern": ("dice-table-1",)}, {"gold": 3, "hand": ("elven-wine-1",)}])
    poorer, number = offer(poorer, 1, 0, "dice-table-1", gold=3)
    poorer, _ = send(poorer, 1, PlayCard(card="elven-wine-1"))  # spends the Gold meanwhile
    refused(poorer, 0, AnswerOffer(offer=number, accept=True), "offer_no_longer_valid")
    assert AnswerOffer(offer=number, accept=True) not in GAME.legal(poorer, 0)
    poorer, _ = send(poorer, 0, AnswerOffer(offer=number, accept=False))
    assert poorer.offers == ()


def test_a_hand_card_offered_then_played_goes_to_the_buyers_tavern():
    state, number = offer(two(), 0, 1, "meat-pie-1", gold=-1)
    state, _ = send(state, 0, PlayCard(card="meat-pie-1"))
    state = accept(state, 1, number)
    assert "meat-pie-1" in state.players[1].tavern


def test_trade_errors():
    state = two(dirty_deeds=True)
    refused(state, 0, OpenOffer(to=0), "bad_trade_partner")
    refused(state, 0, OpenOffer(to=7), "bad_trade_partner")
    state, _ = send(state, 0, OpenOffer(to=1))
    refused(state, 0, AddToOffer(offer=0, card="barbarian-1"), "not_tradeable")  # a Patron
    refused(state, 0, AddToOffer(offer=0, card="meat-pie-2"), "card_not_tradeable_here")
    refused(state, 0, AddToOffer(offer=0, card="zz"), "no_such_card")
    refused(state, 1, AddToOffer(offer=0, card="grog-1"), "not_your_offer")
    refused(state, 0, MakeOffer(offer=0), "bad_offer")  # empty
    added, _ = send(state, 0, AddToOffer(offer=0, card="meat-pie-1"))
    refused(added, 0, AddToOffer(offer=0, card="meat-pie-1"), "card_in_offer")
    refused(make(phase="till"), 0, OpenOffer(to=1), "no_trading_now")
    deeds = make(dirty_deeds=True, players=[{"hand": ("pick-pockets-1",)}])
    deeds, _ = send(deeds, 0, OpenOffer(to=1))
    refused(deeds, 0, AddToOffer(offer=0, card="pick-pockets-1"), "not_tradeable")


def test_trading_in_the_night_too_and_the_phase_waits_for_the_answer():
    state, number = offer(two(phase="night"), 0, 1, "meat-pie-1", gold=-1)
    state, _ = send(state, 0, Done())
    state, _ = send(state, 1, Done())
    assert state.phase == "night"  # an offer is open
    assert GAME.legal(state, 1) == [AnswerOffer(offer=number, accept=True), AnswerOffer(offer=number, accept=False)]
    state, _ = send(state, 1, AnswerOffer(offer=number, accept=False))
    assert state.phase != "night"


def test_a_hand_card_offered_is_shown_to_the_two_traders_only():
    three = make(seats=3, players=[{"gold": 3, "hand": ("meat-pie-1",)}, {"gold": 3}, {"gold": 3}])
    state, _ = send(three, 0, OpenOffer(to=1))
    state, events = send(state, 0, AddToOffer(offer=0, card="meat-pie-1"))
    assert "meat-pie-1" not in GAME.hidden(state, 1) and "meat-pie-1" in GAME.hidden(state, 2)
    assert event_view(events[0], 1).card == "meat-pie-1" and event_view(events[0], 2).card == ""
    assert GAME.view(state, 2).drafts[0].give_hand == ("",)
    assert GAME.view(state, 1).drafts[0].give_hand == ("meat-pie-1",)
    state, _ = send(state, 0, SetOfferGold(offer=0, gold=-1))
    state, events = send(state, 0, MakeOffer(offer=0))
    assert event_view(events[0], 2).give_hand == ("",) and event_view(events[0], 1).give_hand == ("meat-pie-1",)
    assert GAME.view(state, 2).offers[0].give_hand == ("",)


def traded_away_unseen(card: str):
    """Seat 0 shows meat-pie-1 to seat 1, then trades ``card`` (a hand card) to seat 2: out of seat 1's sight."""
    three = make(seats=3, players=[{"gold": 3, "hand": ("meat-pie-1", "grog-1")}, {"gold": 3}, {"gold": 3}],
                 mode="cooperative")
    state, _ = send(three, 0, OpenOffer(to=1))
    state, _ = send(state, 0, AddToOffer(offer=0, card="meat-pie-1"))  # seat 1 sees it
    state, number = offer(state, 0, 2, card)
    return accept(state, 2, number)


def test_a_shown_card_that_leaves_the_hand_unseen_stays_as_the_seat_knew_it():
    """Leak (issue 38): a card shown to seat 1 dropped out of its view's ``shown`` and its offer choices
    when it left the hand by a route seat 1 cannot see, telling it the card had gone."""
    gone, kept = traded_away_unseen("meat-pie-1"), traded_away_unseen("grog-1")
    assert gone.players[2].hand == ("meat-pie-1",) and kept.players[2].hand == ("grog-1",)
    for state in (gone, kept):
        assert GAME.view(state, 1).shown == (("meat-pie-1", 0),)
        assert GAME.view(state, 1).drafts[0].give_hand == ("meat-pie-1",)
    assert msgspec.json.encode(GAME.view(gone, 1)) == msgspec.json.encode(GAME.view(kept, 1))
    # its offer choices too: it may ask seat 0 for the card and send that; seat 0 can only decline
    asked = {}
    for name, state in (("gone", gone), ("kept", kept)):
        state, _ = send(state, 1, OpenOffer(to=0))
        number = state.drafts[-1].id
        assert AddToOffer(offer=number, card="meat-pie-1") in GAME.legal(state, 1)
        state, _ = send(state, 1, AddToOffer(offer=number, card="meat-pie-1"))
        state, _ = send(state, 1, SetOfferGold(offer=number, gold=1))
        assert MakeOffer(offer=number) in GAME.legal(state, 1)
        asked[name], _ = send(state, 1, MakeOffer(offer=number))
    assert msgspec.json.encode(GAME.view(asked["gone"], 1)) == msgspec.json.encode(GAME.view(asked["kept"], 1))
    number = asked["gone"].offers[-1].id
    assert AnswerOffer(offer=number, accept=True) not in GAME.legal(asked["gone"], 0)
    assert AnswerOffer(offer=number, accept=True) in GAME.legal(asked["kept"], 0)


def test_an_offer_accepted_after_its_card_left_unseen_falls_through():
    """Seat 0 offers meat-pie-1 to seat 1, then gives it to seat 2: seat 1 may still accept (it cannot
    know), and the trade falls through as a decline; nothing moves."""
    three = make(seats=3, players=[{"gold": 3, "hand": ("meat-pie-1", "grog-1")}, {"gold": 3}, {"gold": 3}],
                 mode="cooperative")
    state, number = offer(three, 0, 1, "meat-pie-1")
    views = {}
    for card in ("meat-pie-1", "grog-1"):
        given, other = offer(state, 0, 2, card)
        views[card] = accept(given, 2, other)
    assert msgspec.json.encode(GAME.view(views["meat-pie-1"], 1)) == msgspec.json.encode(GAME.view(views["grog-1"], 1))
    for world in views.values():
        assert AnswerOffer(offer=number, accept=True) in GAME.legal(world, 1)
    fell, events = send(views["meat-pie-1"], 1, AnswerOffer(offer=number, accept=True))
    assert events == [ev.OfferAnswered(offer=number, accepted=False)] and fell.players[1].hand == ()
    took, events = send(views["grog-1"], 1, AnswerOffer(offer=number, accept=True))
    assert events == [ev.OfferAnswered(offer=number, accepted=True)] and took.players[1].hand == ("meat-pie-1",)


def test_a_shown_card_seen_to_move_is_forgotten():
    three = make(seats=3, players=[{"gold": 3, "hand": ("meat-pie-1",)}, {"gold": 3}, {"gold": 3}],
                 mode="cooperative")
    state, _ = send(three, 0, OpenOffer(to=1))
    state, _ = send(state, 0, AddToOffer(offer=0, card="meat-pie-1"))
    played, _ = send(state, 0, PlayCard(card="meat-pie-1"))  # face up: seat 1 sees it go
    assert GAME.view(played, 1).shown == () and "meat-pie-1" in played.players[0].tavern
    sent, _ = send(state, 0, MakeOffer(offer=0))  # given to seat 1 itself: its own now
    mine = accept(sent, 1, 0)
    assert GAME.view(mine, 1).shown == () and mine.players[1].hand == ("meat-pie-1",)


def test_a_steal_out_of_sight_keeps_the_shown_card():
    """A Dirty Deeds steal moves a card hand to hand, named to the thief alone: the other seats shown
    it keep it as they knew it."""
    three = make(seats=3, players=[{"gold": 3, "hand": ("meat-pie-1",)}, {"gold": 3}, {"gold": 3}])
    state, _ = send(three, 0, OpenOffer(to=1))
    state, _ = send(state, 0, AddToOffer(offer=0, card="meat-pie-1"))
    stolen = GAME.evolve(state, ev.CardMoved(card="meat-pie-1", owner=0, src="hand", dest_owner=2, dest="hand"))
    assert stolen.players[2].hand == ("meat-pie-1",)
    assert GAME.view(stolen, 1).shown == (("meat-pie-1", 0),)
    assert event_view(ev.CardMoved(card="meat-pie-1", owner=0, src="hand", dest_owner=2, dest="hand"), 1).card == ""


def test_legal_stays_short_while_writing():
    rich = make(players=[{"gold": 30, "hand": ("meat-pie-1",)}, {"gold": 30, "tavern": ("dwarven-ale-1",)}])
    state, _ = send(rich, 0, OpenOffer(to=1))
    legal = GAME.legal(state, 0)
    golds = [c for c in legal if isinstance(c, SetOfferGold)]
    assert len(golds) == 60 and len(legal) < 70  # the Gold range, two cards, withdraw, a play
    state, _ = send(state, 0, SetOfferGold(offer=0, gold=5))
    assert not any(isinstance(c, SetOfferGold) for c in GAME.legal(state, 0))


def test_no_trading_alone():
    solo = make(seats=1, mode="solo", players=[{"hand": ("meat-pie-1",)}])
    assert all(not isinstance(c, OpenOffer) for c in GAME.legal(solo, 0))


def test_a_rules_version_1_match_replays_through_the_upcaster():
    """The fixture was written by the rules version 1 code (one card a side, Gold up to 3)."""
    old = msgspec.json.decode(FIXTURE.read_bytes())
    assert old["rules_version"] == 1 and GAME.rules_version == 2
    decode = event_decoder(GAME, 1)
    events = [decode(msgspec.json.encode(e)) for e in old["events"]]
    offers = [e for e in events if isinstance(e, ev.Offer)]
    assert {(bool(o.give_hand), bool(o.take_tavern)) for o in offers} == {(True, False), (False, True), (True, True)}
    state = fold(GAME, GAME.setup(old["seats"], old["options"]), events)
    assert [p.gold for p in state.players] == old["golds"]
    assert [list(p.tavern) for p in state.players] == old["taverns"]
    sale = decode(b'{"type":"Offer","id":3,"by":0,"to":1,"give":"meat-pie-1","take":"","gold":2}')
    assert sale == ev.Offer(id=3, by=0, to=1, give_hand=("meat-pie-1",), gold=-2)  # seat 1 paid


def test_greedy_team_mates_give_gold_on_the_last_night():
    """A co-operative seat sure of 20 Gold gives a team-mate short of 20 what it lacks (rules version 1
    could move 3 Gold at most, and only as the price of a card); the team-mate accepts."""
    state = make(players=[{"gold": 26}, {"gold": 15}], mode="cooperative", challenge="buzzed", phase="night",
                 round=6)
    bot = GreedyBot()
    for seat in (0, 0, 0):
        command = bot.choose(GAME.view(state, seat), GAME.legal(state, seat), Rng("gift", 0))
        state, _ = send(state, seat, command)
    assert state.offers and state.offers[0].gold == 5
    command = bot.choose(GAME.view(state, 1), GAME.legal(state, 1), Rng("gift", 0))
    assert command == AnswerOffer(offer=state.offers[0].id, accept=True)
    state, _ = send(state, 1, command)
    assert [p.gold for p in state.players] == [21, 20]
    competitive = make(players=[{"gold": 26}, {"gold": 15}], phase="night", round=6)
    command = bot.choose(GAME.view(competitive, 0), GAME.legal(competitive, 0), Rng("gift", 0))
    assert command == Done()
