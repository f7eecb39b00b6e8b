"""Spells: one a turn, costs, effects from the vocabulary, instant answers in opponents' turns, selling."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.taverna import events as ev
from domain.taverna.commands import CastSpell, EndTurn, Pass, PlaceCustomer, SellSpell
from domain.taverna.content import SPELLS
from domain.taverna.views import event_view, hidden, view
from tests.taverna.helpers import GAME, act, at_step, game_state, give, player, refused, spell, tavern


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


def placing_with_answers(hands: dict[int, tuple[str, ...]], deeds=(-1, -1, -1), seats: int = 3):
    state = tavern(game_state(seats), "t1", deeds=deeds)
    for seat, hand in hands.items():
        state = give(state, seat, *hand)
    return at_step(state, "place", people="dwarf")


def test_instant_answers_are_offered_in_turn_order_to_those_who_can():
    tip1, tip2 = spell("Lucky Tip"), spell("Lucky Tip", 1)
    gossip = spell("Court Gossip")  # answers a dignitary, not a placement
    state = placing_with_answers({1: (gossip,), 2: (tip1,), 0: (tip2,)})
    after, events = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert ev.Responders(moment="placement", seats=(2,)) in events  # seat 1 has no placement spell
    assert GAME.legal(after, 2) == [CastSpell(card=tip1), Pass()]
    assert GAME.legal(after, 0) == [] and GAME.legal(after, 1) == []
    assert refused(after, 0, EndTurn()) == "awaiting_responses"
    assert refused(after, 1, Pass()) == "not_asked"
    answered, _ = act(after, 2, CastSpell(card=tip1))
    assert answered.players[2].coins == 17 and answered.turn.responders == ()
    assert answered.turn.responded == (2,)
    assert EndTurn() in GAME.legal(answered, 0)


def test_passing_moves_on_to_the_next_seat():
    tip1, tip2 = spell("Lucky Tip"), spell("Lucky Tip", 1)
    state = placing_with_answers({1: (tip1,), 2: (tip2,)})
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert after.turn.responders == (1, 2)
    after, _ = act(after, 1, Pass())
    assert after.turn.responders == (2,)
    after, _ = act(after, 2, Pass())
    assert after.turn.responders == () and after.players[1].hand == (tip1,)


def test_seats_that_cannot_pay_or_apply_are_never_asked():
    revel = spell("Shared Revel")  # only for an owner of the tavern just played
    eavesdrop = spell("Eavesdrop")  # costs 1, answers a dignitary
    state = placing_with_answers({1: (revel,), 2: (spell("Shared Revel", 1),)}, deeds=(1, -1, -1))
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert after.turn.responders == (1,)
    answered, _ = act(after, 1, CastSpell(card=revel))
    assert answered.players[1].coins == 15 + 3 + 3  # income, then the spell
    # a dignitary moment: seat 2 is broke
    from domain.taverna.commands import ActivateDignitary

    poor = player(player(answered, 2, hand=(eavesdrop,), coins=0), 1, hand=(spell("Eavesdrop", 1),))
    moved, _ = act(poor, 0, ActivateDignitary(dignitary="notary", tavern="t5", space=0))
    assert moved.turn.responders == ()  # seat 1 already cast this turn, seat 2 cannot pay


def test_one_answer_per_opponent_turn_and_only_the_named_moment():
    tip, gossip = spell("Lucky Tip"), spell("Court Gossip")
    state = placing_with_answers({1: (tip, gossip)})
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert refused(after, 1, CastSpell(card=gossip)) == "not_instant"
    assert CastSpell(card=gossip) not in GAME.legal(after, 1)


def test_instant_spells_are_cast_on_ones_own_turn_too():
    tip = spell("Lucky Tip")
    assert CastSpell(card=tip) in GAME.legal(acting((tip,)), 0)
    assert SPELLS[tip].instant == "placement"


def test_an_answer_again_in_the_next_opponents_turn_and_the_view_names_who_is_asked():
    tip1, tip2 = spell("Lucky Tip"), spell("Lucky Tip", 1)
    state = placing_with_answers({2: (tip1, tip2)})
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert view(after, 0).waiting_for == (2,)
    after, _ = act(after, 2, CastSpell(card=tip1))
    assert view(after, 0).waiting_for == (0,)
    after, _ = act(after, 0, EndTurn())
    assert after.turn.seat == 1 and after.turn.responded == ()
    after = at_step(after, "place", seat=1, people="dwarf")
    _, events = act(after, 1, PlaceCustomer(tavern="t1", table=2))
    assert ev.Responders(moment="placement", seats=(2,)) in events
