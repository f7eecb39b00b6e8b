"""Hidden information: hands and deck orders are secret, dice are public."""

from __future__ import annotations

import msgspec

from domain.kernel import Table
from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import DeclareAttack
from domain.mercenaries.views import MercenariesView
from tests.mercenaries.build import Dice, card, merc, of_type, player, position, send


def started():
    return Table(GAME, GAME.setup(2, {"best_of": 1}), "views").state


def strings(value) -> str:
    return msgspec.json.encode(value).decode()


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_rest():
    state = started()
    mine = GAME.view(state, 0)
    assert isinstance(mine, MercenariesView)
    assert [c.card for c in mine.hand] == list(state.players[0].hand)
    assert mine.sides[1].hand_count == len(state.players[1].hand)
    assert mine.sides[0].deck_count == len(state.players[0].deck)
    text = strings(mine)
    assert not any(c in text for c in state.players[1].hand)
    assert not any(c in text for p in state.players for c in p.deck)
    assert GAME.view(state, None).hand == ()


def test_hidden_names_the_other_hand_and_every_deck():
    state = started()
    decks = set(state.players[0].deck) | set(state.players[1].deck)
    assert GAME.hidden(state, 0) == decks | set(state.players[1].hand)
    assert GAME.hidden(state, 1) == decks | set(state.players[0].hand)
    assert GAME.hidden(state, None) == decks | set(state.players[0].hand) | set(state.players[1].hand)


def test_a_draw_is_seen_by_its_owner_only_and_a_shuffle_by_nobody():
    drawn = ev.CardsDrawn(seat=0, cards=(card(0, "7"),), count=1)
    assert GAME.event_view(drawn, 0) == drawn
    assert GAME.event_view(drawn, 1) == ev.CardsDrawn(seat=0, cards=(), count=1)
    assert GAME.event_view(drawn, None).cards == ()
    shuffled = ev.DeckShuffled(seat=0, cards=(card(0, "7"), card(0, "8")), count=2)
    for seat in (0, 1, None):
        assert GAME.event_view(shuffled, seat) == ev.DeckShuffled(seat=0, cards=(), count=2)


def test_dice_are_public_once_rolled():
    state = position(player(0, field=(merc(0, "7"),)), player(1, field=(merc(1, "7"),)))
    events, _ = send(state, 0, DeclareAttack(attackers=(card(0, "7"),)), Dice(6, 5, 2, 1))
    (combat,) = of_type(events, ev.Combat)
    for seat in (0, 1, None):
        assert GAME.event_view(combat, seat) == combat


def test_the_view_shows_sickness_and_who_may_attack():
    state = position(player(0, field=(merc(0, "7"), merc(0, "8", turn=5))), player(1))
    field = GAME.view(state, 0).sides[0].field
    assert [(m.summoning_sick, m.may_attack) for m in field] == [(False, True), (True, False)]
    assert field[0].card.stats.sword == 7 and field[0].card.stats.wage == 3


def test_nothing_is_legal_and_the_views_build_before_the_opening_deal():
    # a seat-entropy match is folded at version 0 (phase "setup") until every seat gave its entropy
    from projections.views import all_views

    waiting = GAME.initial(GAME.setup(2, {"best_of": 3}))
    assert GAME.legal(waiting, 0) == GAME.legal(waiting, 1) == []
    views = {k: msgspec.json.decode(v) for k, v in all_views(GAME, "m", waiting, 0, 2).items()}
    assert {v["status"] for v in views.values()} == {"waiting"}
    assert all(v["legal"] == [] for v in views.values())


def test_a_new_game_of_the_match_forgets_the_last_turn_of_the_one_before():
    moved = card(0, "7")
    state = position(player(0, field=(merc(0, "7"),)), best_of=3, moved=(moved,), contracted=True, sold=True,
                      all_in_turn=True)
    for event in (ev.GameWon(number=1, winner=0, reason="fallen"), ev.GameBegan(number=2, first=1)):
        state = GAME.evolve(state, event)
    for seat in (0, 1, None):
        seen = GAME.view(state, seat)
        assert seen.moved == () and not seen.contracted and not seen.sold and not seen.all_in_turn
        assert moved not in strings(seen)  # the card is back in a deck
