"""The phases of a round through decide: deal, face-down draft, purchases, discard, and every
refusal with its code."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.heros_tavern import GAME
from domain.heros_tavern.commands import BuyCard, FinishPurchases, PickCard
from domain.heros_tavern.content import DECK, Tokens
from domain.heros_tavern.events import (
    CardBought,
    CardPicked,
    CardsDiscarded,
    Dealt,
    MatchEnded,
    PicksRevealed,
    PurchasesFinished,
    ResourcesAwarded,
    ScoreRow,
    Shuffled,
    TavernsScored,
)
from domain.heros_tavern.rules import affordable
from domain.heros_tavern.state import DRAFT, PURCHASE
from domain.kernel import Rng, RulesError
from tests.heros_tavern.helpers import Cards, of_type, purchasing, run


def opening(seats: int = 4, seed: str = "rules"):
    state = GAME.initial(GAME.setup(seats))
    events = GAME.begin(state, Rng(seed, 0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def refused(state, seat, command) -> str:
    with pytest.raises(RulesError) as caught:
        GAME.decide(state, command, seat, Rng("refused", 0))
    return caught.value.code


# ---- deal ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_deck_is_shuffled_and_seven_cards_dealt_to_each_seat(seats):
    state, events = opening(seats)
    shuffled, dealt = events
    assert isinstance(shuffled, Shuffled) and sorted(shuffled.cards) == sorted(DECK) and shuffled.count == 118
    assert isinstance(dealt, Dealt) and dealt.round == 1
    assert [len(h) for h in dealt.hands] == [7] * seats
    assert len({c for h in dealt.hands for c in h}) == 7 * seats
    assert len(state.draw) == 118 - 7 * seats and state.phase == DRAFT


def test_a_seat_sees_only_its_own_hand_in_the_deal_and_no_shuffle_order():
    _, (shuffled, dealt) = opening(3)
    shown = GAME.event_view(dealt, 1)
    assert shown.hands == (None, dealt.hands[1], None)
    assert GAME.event_view(dealt, None).hands == (None, None, None)
    assert GAME.event_view(shuffled, 0).cards is None and GAME.event_view(shuffled, None).count == 118


def test_a_short_draw_pile_takes_the_shuffled_discards_underneath():
    cards = Cards()
    discard = tuple(cards.take("food", 12) + cards.take("lodging", 12))
    state = purchasing(cards, [[], [], []], [[], [], []], [Tokens()] * 3, [[ScoreRow()]] * 3, round=1,
                       finished=[False, True, True])
    top = state.draw[:5]
    state = replace(state, draw=top, discard=discard)
    state, events = run(state, (0, FinishPurchases()))
    reshuffle = of_type(events, Shuffled)[0]
    assert sorted(reshuffle.cards) == sorted(discard)
    dealt = of_type(events, Dealt)[0]
    flat = [dealt.hands[s][i] for i in range(7) for s in range(3)]  # dealt one card at a time
    assert flat == [*top, *reshuffle.cards[:16]]
    assert state.discard == () and len(state.draw) == 24 + 5 - 21


@pytest.mark.parametrize(("left", "size"), [(17, 5), (3, 1), (2, 0)])
def test_too_few_cards_even_after_the_reshuffle_deal_equal_smaller_hands(left, size):  # HT-12
    cards = Cards()
    state = purchasing(cards, [[], [], []], [[], [], []], [Tokens()] * 3, [[ScoreRow()]] * 3, round=1,
                       finished=[False, True, True])
    state = replace(state, draw=state.draw[:left], discard=())
    state, events = run(state, (0, FinishPurchases()))
    dealt = of_type(events, Dealt)[0]
    assert [len(h) for h in dealt.hands] == [size] * 3
    if size == 0:  # nothing to draft: the round goes straight on to scoring
        assert of_type(events, TavernsScored) and state.round == 5 and state.phase == "over"
    else:
        assert state.phase == DRAFT and state.round == 2


# ---- draft --------------------------------------------------------------------------------------

def test_a_pick_is_face_down_until_the_last_seat_picks():
    state, _ = opening(3)
    card = state.hands[0][0]
    state, events = run(state, (0, PickCard(card=card)))
    (picked,) = events
    assert picked == CardPicked(seat=0, card=card)
    assert GAME.event_view(picked, 0) == picked
    assert GAME.event_view(picked, 1).card is None and GAME.event_view(picked, None).card is None
    assert GAME.view(state, 0).my_pick.id == card and GAME.view(state, 1).my_pick is None
    assert [s.picked for s in GAME.view(state, 2).seats] == [True, False, False]
    assert card in GAME.hidden(state, 1) and card in GAME.hidden(state, None) and card not in GAME.hidden(state, 0)
    assert GAME.view(state, 0).seats[0].tavern == ()  # not face up yet


def test_the_last_pick_reveals_all_and_passes_the_hands_left():
    state, _ = opening(3)
    hands = state.hands
    picks = [hands[seat][seat] for seat in range(3)]
    state, events = run(state, *((seat, PickCard(card=picks[seat])) for seat in range(3)))
    assert isinstance(events[-1], PicksRevealed) and events[-1].cards == tuple(picks)
    assert [t for t in state.taverns] == [(p,) for p in picks]
    for seat in range(3):  # seat s now holds what seat s-1 had, less its pick
        giver = (seat - 1) % 3
        assert state.hands[seat] == tuple(c for c in hands[giver] if c != picks[giver])
    assert state.picks == (None,) * 3 and GAME.view(state, 0).pick_number == 2


def test_seven_picks_fill_every_tavern_and_open_the_purchases():
    state, _ = opening(4)
    for _ in range(7):
        state, events = run(state, *((seat, PickCard(card=state.hands[seat][0])) for seat in range(4)))
    assert [len(t) for t in state.taverns] == [7] * 4 and state.phase == PURCHASE
    assert of_type(events, TavernsScored)[0].round == 1
    assert of_type(events, ResourcesAwarded)[0].awards == state.tokens
    assert state.finished == tuple(not affordable(state, seat) for seat in range(4))


def test_pick_refusals():
    state, _ = opening(3)
    other = state.hands[1][0]
    assert refused(state, 0, PickCard(card=other)) == "not_your_card"
    assert refused(state, 0, PickCard(card="ht-nothing-01")) == "not_your_card"
    state, _ = run(state, (0, PickCard(card=state.hands[0][0])))
    assert refused(state, 0, PickCard(card=state.hands[0][1])) == "already_picked"
    assert GAME.legal(state, 0) == []
    assert refused(state, 0, BuyCard(card=state.hands[0][1])) == "phase_over"
    assert refused(state, 0, FinishPurchases()) == "phase_over"
    assert refused(state, 7, PickCard(card=other)) == "no_such_seat"


def test_legal_during_the_draft_is_a_pick_of_each_card_in_hand():
    state, _ = opening(3)
    assert GAME.legal(state, 2) == [PickCard(card=c) for c in state.hands[2]]


# ---- purchases ----------------------------------------------------------------------------------

def buying_state(tokens: Tokens):
    cards = Cards()
    (coin_card,) = cards.take("market", cost=Tokens(coin=1))
    (land_card,) = cards.take("market", cost=Tokens(land=1))
    (dear,) = cards.take("food", cost=Tokens(land=2))
    (theirs,) = cards.take("food", cost=Tokens(coin=1))
    state = purchasing(cards, [[coin_card, land_card, dear], [theirs], []], [[], [], []],
                       [tokens, Tokens(coin=1), Tokens()], [[ScoreRow()]] * 3, round=1, finished=[False, False, True])
    return state, coin_card, land_card, dear, theirs


def test_a_purchase_pays_the_exact_cost_and_leaves_the_tokens_on_the_card():
    state, coin_card, land_card, dear, _ = buying_state(Tokens(coin=2, land=1))
    assert GAME.legal(state, 0) == [BuyCard(card=coin_card), BuyCard(card=land_card), FinishPurchases()]
    state, events = run(state, (0, BuyCard(card=coin_card)))
    assert events == [CardBought(seat=0, card=coin_card, cost=Tokens(coin=1))]
    assert state.tokens[0] == Tokens(coin=1, land=1) and state.purchased[0] == (coin_card,)
    tavern = GAME.view(state, 1).seats[0].tavern
    assert [(t.card.id, t.tokens) for t in tavern] == [(coin_card, Tokens(coin=1)), (land_card, None), (dear, None)]


def test_purchase_refusals():
    state, coin_card, _, dear, theirs = buying_state(Tokens(coin=2, land=1))
    assert refused(state, 0, BuyCard(card=dear)) == "cannot_afford"  # coins do not stand in for land
    assert refused(state, 0, BuyCard(card=theirs)) == "not_your_card"
    assert refused(state, 0, PickCard(card=coin_card)) == "phase_over"
    assert refused(state, 2, FinishPurchases()) == "purchases_finished"
    assert refused(state, 2, BuyCard(card=theirs)) == "purchases_finished"
    bought, _ = run(state, (0, BuyCard(card=coin_card)))
    assert refused(bought, 0, BuyCard(card=coin_card)) == "already_purchased"


def test_a_seat_that_can_afford_nothing_more_is_done_without_a_command():
    state, coin_card, land_card, _, _ = buying_state(Tokens(coin=1, land=1))
    state, events = run(state, (0, BuyCard(card=coin_card)))
    assert len(events) == 1 and GAME.legal(state, 0)[0] == BuyCard(card=land_card)
    state, events = run(state, (0, BuyCard(card=land_card)))
    assert events[-1] == PurchasesFinished(seat=0, automatic=True) and GAME.legal(state, 0) == []


def test_the_last_seat_done_purchasing_discards_and_deals_the_next_round():
    state, coin_card, land_card, dear, theirs = buying_state(Tokens(coin=1))
    state, _ = run(state, (0, BuyCard(card=coin_card)))
    state, events = run(state, (1, FinishPurchases()))
    assert events[0] == PurchasesFinished(seat=1, automatic=False)
    assert of_type(events, CardsDiscarded)[0].cards == (land_card, dear, theirs)
    assert state.taverns == ((coin_card,), (), ()) and state.round == 2 and state.phase == DRAFT
    assert of_type(events, Dealt)[0].round == 2


def test_only_unpurchased_cards_of_this_round_are_offered():  # HT-14
    state, coin_card, *_ = buying_state(Tokens(coin=5))
    state = replace(state, purchased=((coin_card,), (), ()))
    assert BuyCard(card=coin_card) not in GAME.legal(state, 0)
    assert coin_card not in affordable(state, 0)


# ---- the end ------------------------------------------------------------------------------------

def final_state(tokens, last_rows=(10, 11, 1)):
    cards = Cards()
    pads = [[ScoreRow(total=10)] * 4 + [ScoreRow(total=last)] for last in last_rows]
    return purchasing(cards, [[], [], []], [[], [], []], tokens, pads, finished=[False, True, True])


def test_equal_totals_go_to_the_seat_with_more_unspent_tokens():  # HT-T8
    state, events = run(final_state([Tokens(coin=3), Tokens(coin=2), Tokens()]), (0, FinishPurchases()))
    assert of_type(events, MatchEnded)[0] == MatchEnded(totals=(53, 53, 41), unspent=(3, 2, 0), winners=(0,))
    result = GAME.result(state)
    assert result.winners == (0,) and [s.rank for s in result.standings] == [1, 2, 3]
    assert [s.tiebreak for s in result.standings] == [3, 2, 0]


def test_equal_totals_and_tokens_share_the_victory():
    tokens = [Tokens(land=2), Tokens(coin=1, storage=1), Tokens()]
    state, _ = run(final_state(tokens, last_rows=(10, 10, 1)), (0, FinishPurchases()))
    assert GAME.result(state).winners == (0, 1) and state.totals == (52, 52, 41)
    assert [s.rank for s in GAME.result(state).standings] == [1, 1, 3]


def test_after_the_end_every_command_is_refused_and_nothing_is_legal():
    state, _ = run(final_state([Tokens(), Tokens(), Tokens()]), (0, FinishPurchases()))
    assert all(GAME.legal(state, seat) == [] for seat in range(3))
    for command in (PickCard(card="ht-food-01"), BuyCard(card="ht-food-01"), FinishPurchases()):
        assert refused(state, 0, command) == "match_over"
    assert GAME.result(GAME.initial(GAME.setup(3))) is None
