"""Setup, the starting roll, victory by HP and by an empty deck, the tie-breaks, best of three."""

from __future__ import annotations

import pytest

from domain.kernel import Rng, RulesError
from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import Contract, DeclareAttack, EndPhase
from domain.mercenaries.content import deck_of
from domain.mercenaries.state import MORNING, OVER, Step
from domain.mercenaries.turns import begin_turn, both_fallen, check_fallen
from tests.mercenaries.build import Dice, card, merc, of_type, player, position, refused, send


def opening(rng, best_of=1):
    state = GAME.initial(GAME.setup(2, {"best_of": best_of}))
    events = GAME.begin(state, rng)
    for event in events:
        state = GAME.evolve(state, event)
    return events, state


def test_setup_gives_100_hp_100_gold_four_cards_and_a_200_gold_treasury():
    events, state = opening(Dice(2, 5))
    assert events[0] == ev.StartingRoll(rolls=((2, 5),), first=1)
    first, second = state.players[1], state.players[0]
    assert second.hp == 100 and second.gold == 100 and len(second.hand) == 4 and len(second.deck) == 48
    # the first player's Morning has begun: 10 Gold from the treasury and one card more
    assert first.gold == 110 and len(first.hand) == 5 and state.treasury == 190
    assert (state.active, state.phase, state.turn) == (1, MORNING, 1)


def test_each_player_has_its_own_shuffled_52_card_deck():
    events, _state = opening(Rng("setup", 0))
    shuffles = of_type(events, ev.DeckShuffled)
    assert [s.seat for s in shuffles] == [0, 1]
    for s in shuffles:
        assert sorted(s.cards) == sorted(deck_of(s.seat)) and len(set(s.cards)) == 52
        assert s.cards != deck_of(s.seat)
    assert "mc-0-hearts-7" in deck_of(0) and "mc-1-spades-k" in deck_of(1)


def test_the_starting_roll_is_rolled_again_on_a_tie():
    events, state = opening(Dice(4, 4, 6, 1))
    assert events[0] == ev.StartingRoll(rolls=((4, 4), (6, 1)), first=0) and state.active == 0


@pytest.mark.parametrize(("seats", "options", "code"), [(3, {}, "bad_seats"), (2, {"best_of": 2}, "bad_option")])
def test_two_seats_and_best_of_1_or_3(seats, options, code):
    with pytest.raises(RulesError) as caught:
        GAME.setup(seats, options)
    assert caught.value.code == code


def test_reducing_the_opponent_to_0_hp_wins():
    state = position(player(0, field=(merc(0, "5"),)), player(1, hp=4, field=(merc(1, "2"),)))
    events, after = send(state, 0, DeclareAttack(attackers=(card(0, "5"),)), Dice(1, 1, 1, 1))  # 7 against 3
    assert of_type(events, ev.Combat)[0].damage == 4
    assert of_type(events, ev.GameWon) == [ev.GameWon(number=1, winner=0, reason="hp")]
    assert of_type(events, ev.MatchWon) == [ev.MatchWon(winner=0)]
    assert after.players[1].hp == 0 and after.phase == OVER
    assert GAME.legal(after, 0) == GAME.legal(after, 1) == []
    assert refused(after, 0, EndPhase()) == "match_over"
    result = GAME.result(after)
    assert result.winners == (0,) and [s.rank for s in result.standings] == [1, 2]


def test_a_player_who_cannot_draw_in_the_morning_loses():
    step = Step(position(player(0), player(1, deck=0)))
    begin_turn(step, 1, Dice())
    assert of_type(step.events, ev.GameWon) == [ev.GameWon(number=1, winner=0, reason="deck_out")]


def test_the_last_card_can_still_be_drawn():
    step = Step(position(player(0), player(1, deck=1)))
    begin_turn(step, 1, Dice())
    assert not of_type(step.events, ev.GameWon) and len(step.state.players[1].hand) == 1


def test_both_at_0_hp_more_gold_wins_then_more_hp_then_a_d6_roll_off():
    assert both_fallen((player(0, hp=0, gold=30), player(1, hp=0, gold=25)), Dice()) == (0, "both_fell_gold", ())
    assert both_fallen((player(0, hp=0, gold=25), player(1, hp=0, gold=30)), Dice()) == (1, "both_fell_gold", ())
    assert both_fallen((player(0, hp=0, gold=9), player(1, hp=0, gold=9)), Dice(3, 3, 2, 5)) == (
        1, "both_fell_roll", ((3, 3), (2, 5)))


def test_the_hp_tie_break_compares_hp_when_gold_is_equal():
    assert both_fallen((player(0, hp=3, gold=9), player(1, hp=0, gold=9)), Dice()) == (0, "both_fell_hp", ())


def test_both_falling_ends_the_game_through_the_tie_breaks():
    step = Step(position(player(0, hp=0, gold=5), player(1, hp=0, gold=5)))
    assert check_fallen(step, Dice(1, 6))
    assert of_type(step.events, ev.GameWon) == [
        ev.GameWon(number=1, winner=1, reason="both_fell_roll", tiebreak_rolls=((1, 6),))
    ]


def test_best_of_three_the_loser_starts_the_next_game_with_everything_fresh():
    state = position(player(0, field=(merc(0, "K"),), gold=3), player(1, hp=1), best_of=3, treasury=50)
    events, after = send(state, 0, DeclareAttack(attackers=(card(0, "K"),)), Dice(1, 1))
    assert of_type(events, ev.GameWon)[0].winner == 0 and not of_type(events, ev.MatchWon)
    assert of_type(events, ev.GameBegan) == [ev.GameBegan(number=2, first=1)]
    assert len(of_type(events, ev.DeckShuffled)) == 2
    assert after.wins == (1, 0) and after.number == 2 and after.active == 1 and after.phase == MORNING
    assert after.players[0].hp == 100 and after.players[0].gold == 100 and after.players[0].field == ()
    assert after.treasury == 190 and len(after.players[1].hand) == 5
    assert GAME.result(after) is None


def test_best_of_three_ends_at_two_wins():
    state = position(player(0, field=(merc(0, "K"),)), player(1, hp=1), best_of=3, number=3, wins=(1, 1))
    events, after = send(state, 0, DeclareAttack(attackers=(card(0, "K"),)), Dice(1, 1))
    assert of_type(events, ev.MatchWon) == [ev.MatchWon(winner=0)]
    result = GAME.result(after)
    assert result.winners == (0,) and [s.score for s in result.standings] == [2, 1]
    assert [g["game"] for g in result.details["games"]] == [3]


def test_a_game_ending_mid_discard_choice_clears_it():
    # a loss that trashes tied mercenaries but also empties the HP: the game ends without a choice
    state = position(player(0, field=(merc(0, "K"),)), player(1, hp=3, field=(merc(1, "2"), merc(1, "A"))),
                     best_of=3)
    events, after = send(state, 0, DeclareAttack(attackers=(card(0, "K"),)), Dice(6, 6, 1, 1))
    assert not of_type(events, ev.DiscardChoiceAwaited) and after.discard_seat == -1
    assert after.wins == (1, 0) and after.number == 2


def test_the_first_player_cannot_attack_on_its_first_turn():
    _, state = opening(Dice(5, 2))
    hired = next(c for c in GAME.legal(state, 0) if isinstance(c, Contract))
    _, state = send(state, 0, hired)
    _, afternoon = send(state, 0, EndPhase())
    assert GAME.legal(afternoon, 0) == [EndPhase()]
