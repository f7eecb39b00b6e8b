"""Spells: one a turn, costs, effects from the vocabulary, selling (instant answers: test_prompts.py)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.taverna import events as ev
from domain.taverna.commands import CastSpell, SellSpell
from domain.taverna.views import event_view, hidden, view
from tests.taverna.helpers import GAME, act, at_step, game_state, give, player, refused, spell


def acting(hand: tuple[str, ...], seat: int = 0, **changes):
    state = give(game_state(**changes), seat, *hand)
    return at_step(state, "act", seat=seat, tavern="t1")


def test_cast_pays_the_cost_and_keeps_the_card_face_up():
    card = spell("Bardic Fame")
    after, _ = act(acting((card,)), 0, CastSpell(card=card))
    me = after.players[0]
    assert (me.coins, me.points, me.hand, me.cast) == (14, 3, (), (card,))


def test_one_spell_a_turn_unless_a_royal_favour_grants_a_second():
    a, b = spell("Purse of Plenty"), spell("Purse of Plenty", 1)
    after, _ = act(acting((a, b)), 0, CastSpell(card=a))
    assert refused(after, 0, CastSpell(card=b)) == "spell_limit"
    assert not any(isinstance(c, CastSpell) for c in GAME.legal(after, 0))
    from domain.taverna.commands import UseFavour
    from tests.taverna.helpers import favour

    tile = favour("second_spell")
    granted, _ = act(player(after, 0, favours=(tile,)), 0, UseFavour(favour=tile))
    again, _ = act(granted, 0, CastSpell(card=b))
    assert again.players[0].coins == 21 and again.players[0].used_favours == (tile,)


@pytest.mark.parametrize(
    ("name", "command_fields", "check"),
    [
        ("Charm of the Peoples", {"people": "orc"}, lambda s: s.players[0].levels == (0, 0, 1, 0)),
        ("Dwarven Oath", {}, lambda s: s.players[0].levels == (0, 1, 0, 0) and s.players[0].coins == 15),
        ("Whisper to the Court", {}, lambda s: s.players[0].privileges == 1 and s.privilege_reserve == 9),
        ("Scrying", {}, lambda s: len(s.players[0].hand) == 2),
        ("Tithe", {}, lambda s: [p.coins for p in s.players] == [16, 14, 14]),
        ("Bountiful Cellar", {}, lambda s: s.players[0].coins == 18),
        ("Guild Seal", {"tavern": "t2", "guild": "book"}, lambda s: s.taverns["t2"].guilds == ("book",)),
        (
            "Summoning Circle",
            {"dignitary": "notary", "tavern": "t5"},
            lambda s: s.taverns["t5"].dignitaries[-1:] == ("notary",),
        ),
    ],
)
def test_effects(name, command_fields, check):
    card = spell(name)
    state = acting((card,))
    command = CastSpell(card=card, **command_fields)
    assert command in GAME.legal(state, 0)
    after, _ = act(state, 0, command)
    assert check(after)


def test_royal_summons_takes_a_favour():
    card = spell("Royal Summons")
    state = acting((card,))
    after, _ = act(state, 0, CastSpell(card=card, favour=state.castle[2]))
    assert after.players[0].favours == (state.castle[2],) and len(after.castle) == 5


def test_spell_errors():
    card = spell("Charm of the Peoples")
    state = acting((card,))
    assert refused(state, 0, CastSpell(card=spell("Bardic Fame"))) == "card_not_in_hand"
    assert refused(state, 0, CastSpell(card=card, people="zz")) == "bad_target"
    assert refused(state, 0, CastSpell(card=card, people="elf", tavern="t1")) == "bad_target"
    assert refused(player(state, 0, coins=1), 0, CastSpell(card=card, people="elf")) == "cannot_afford"
    whisper = spell("Whisper to the Court")
    empty = replace(acting((whisper,)), privilege_reserve=0)
    assert refused(empty, 0, CastSpell(card=whisper)) == "not_applicable"
    early = at_step(player(game_state(), 0, hand=(card,)), "place")
    assert refused(early, 0, CastSpell(card=card, people="elf")) == "wrong_step"
    assert refused(state, 1, CastSpell(card=card, people="elf")) == "not_your_turn"


def test_selling_gives_a_coin_face_down_and_is_not_a_cast():
    card = spell("Bardic Fame")
    after, events = act(acting((card,)), 0, SellSpell(card=card))
    assert after.players[0].coins == 16 and after.players[0].cast == () and after.players[0].sold == (card,)
    assert event_view(events[0], 1).card == "" and event_view(events[0], 0).card == card
    assert card in hidden(after, 1) and card not in hidden(after, 0)
    assert refused(after, 0, SellSpell(card=card)) == "card_not_in_hand"


def test_spells_are_sold_at_any_time_during_ones_turn():
    """Rulebook step 6, "at any time during your turn": before the pick and before placing too (rules
    version 2 allowed it only after placing), never in another seat's turn."""
    card = spell("Bardic Fame")
    for step in ("pick", "place"):
        state = at_step(player(game_state(), 0, hand=(card,)), step)
        assert SellSpell(card=card) in GAME.legal(state, 0)
        after, _ = act(state, 0, SellSpell(card=card))
        assert after.players[0].coins == 16 and after.turn.step == step
    assert refused(at_step(player(game_state(), 1, hand=(card,)), "pick"), 1, SellSpell(card=card)) == (
        "not_your_turn")


def test_hands_are_hidden_from_the_others():
    card = spell("Bardic Fame")
    state = acting((card,))
    assert view(state, 0).players[0].hand == (card,)
    assert view(state, 1).players[0].hand == () and view(state, 1).players[0].hand_count == 1
    assert card in hidden(state, 1) and card in hidden(state, None)
    assert set(state.spell_deck) <= hidden(state, 0) and set(state.customer_deck) <= hidden(state, 0)
    assert event_view(ev.Shuffled(spells=(), customers=(), favours=()), 0) is None
    drawn = ev.SpellDrawn(seat=0, card=card)
    assert event_view(drawn, 1) == ev.SpellDrawn(seat=0, card="") and event_view(drawn, 0) == drawn
