"""Instant-spell prompts (RULINGS.md 19): every opponent who could still cast is asked at once, whatever it
holds; answers are sealed until the last one; only the spells cast are published."""

from __future__ import annotations

import msgspec

from domain.taverna import events as ev
from domain.taverna.commands import ActivateDignitary, CastSpell, EndTurn, Pass, PlaceCustomer, SetAutoPass
from domain.taverna.content import SPELLS
from domain.taverna.views import event_view, view
from projections.upcasting import event_decoder
from tests.taverna.helpers import GAME, act, at_step, game_state, give, player, refused, spell, tavern

TIP1, TIP2 = spell("Lucky Tip"), spell("Lucky Tip", 1)
GOSSIP = spell("Court Gossip")  # answers a dignitary, not a placement
FAME = spell("Bardic Fame")  # no instant at all


def placing(hands: dict[int, tuple[str, ...]], deeds=(-1, -1, -1), seats: int = 3):
    state = tavern(game_state(seats), "t1", deeds=deeds)
    for seat, hand in hands.items():
        state = give(state, seat, *hand)
    return at_step(state, "place", people="dwarf")


def test_every_opponent_with_a_hand_is_asked_at_once_whatever_it_holds():
    state = placing({1: (GOSSIP,), 2: (TIP1,), 0: (TIP2,)})
    after, events = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert events[-1] == ev.Responders(moment="placement", seats=(1, 2))  # seat 1 holds no placement spell
    assert GAME.legal(after, 1) == [Pass(), Pass(always=True)]
    assert GAME.legal(after, 2) == [Pass(), Pass(always=True), CastSpell(card=TIP1)]
    assert GAME.legal(after, 0) == []
    assert refused(after, 0, EndTurn()) == "awaiting_responses"
    assert refused(after, 0, Pass()) == "not_asked"
    assert refused(after, 1, CastSpell(card=GOSSIP)) == "not_instant"
    assert view(after, 0).waiting_for == (1, 2)


def test_answers_are_sealed_until_the_last_then_only_the_casts_are_published():
    state = placing({1: (FAME,), 2: (TIP1,)})
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    sealed, events = act(after, 2, CastSpell(card=TIP1))
    assert events == [ev.Answered(seat=2, cast=CastSpell(card=TIP1))]
    assert [event_view(e, s) for e in events for s in (0, 1, None)] == [None, None, None]
    assert event_view(events[0], 2) == events[0]
    assert sealed.players[2].coins == after.players[2].coins and sealed.players[2].hand == (TIP1,)
    for seat in (0, 1, None):  # who answered, and how, is nobody else's to know
        assert view(sealed, seat).waiting_for == (1, 2) and not view(sealed, seat).answered
    assert view(sealed, 2).waiting_for == (1,) and view(sealed, 2).answer == CastSpell(card=TIP1)
    assert refused(sealed, 2, Pass()) == "not_asked" and GAME.legal(sealed, 2) == []
    done, events = act(sealed, 1, Pass())
    assert [type(e).__name__ for e in events] == ["Answered", "SpellCast", "Gained", "Responders"]
    assert done.players[2].coins == after.players[2].coins + 2 and done.turn.responded == (2,)
    assert done.turn.responders == () and done.answers == ()
    assert EndTurn() in GAME.legal(done, 0)


def test_who_is_asked_depends_only_on_what_everyone_sees():
    eavesdrop, eavesdrop2 = spell("Eavesdrop"), spell("Eavesdrop", 1)
    state = placing({1: (TIP1,), 2: ()})  # no hand: nothing to cast
    after, events = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    assert events[-1] == ev.Responders(moment="placement", seats=(1,))
    answered, _ = act(after, 1, CastSpell(card=TIP1))
    # a dignitary moment: seat 1 cast this turn already, seat 2 cannot pay the cheapest such spell
    poor = player(player(answered, 2, hand=(eavesdrop,), coins=0), 1, hand=(eavesdrop2,))
    moved, events = act(poor, 0, ActivateDignitary(dignitary="notary", tavern="t5", space=0))
    assert moved.turn.responders == () and not any(isinstance(e, ev.Responders) for e in events)


def test_answers_resolve_in_turn_order_and_one_that_no_longer_applies_is_dropped_unseen():
    eavesdrop, eavesdrop2 = spell("Eavesdrop"), spell("Eavesdrop", 1)
    state = give(game_state(), 1, eavesdrop)
    state = give(state, 2, eavesdrop2)
    last = state.spell_deck[-1]
    state = msgspec.structs.replace(state, spell_deck=(last,))  # one card left to draw
    state = at_step(state, "act", tavern="t1")
    asked, _ = act(state, 0, ActivateDignitary(dignitary="notary", tavern="t5", space=0))
    assert asked.turn.responders == (1, 2)
    sealed, _ = act(asked, 2, CastSpell(card=eavesdrop2))
    done, events = act(sealed, 1, CastSpell(card=eavesdrop))
    assert [e.seat for e in events if isinstance(e, ev.SpellCast)] == [1]  # seat 1 is first from the left
    assert done.players[1].hand == (last,) and done.players[2].hand == (eavesdrop2,)  # kept, nothing paid
    assert done.players[2].coins == asked.players[2].coins and done.turn.responded == (1,)


def test_always_pass_answers_for_the_seat_and_stays_private():
    state = placing({1: (TIP1,), 2: (TIP2,)})
    after, _ = act(state, 0, PlaceCustomer(tavern="t1", table=1))
    always, events = act(after, 1, Pass(always=True))
    assert events == [ev.Answered(seat=1, always=True)]  # one entry, as many as a plain pass
    assert all(event_view(e, s) is None for e in events for s in (0, 2, None))
    assert view(always, 1).auto_pass and not view(always, 0).auto_pass
    assert msgspec.json.encode(view(always, 0)) == msgspec.json.encode(view(after, 0))
    # the next prompt names seat 1 and waits for it like any other: its pass is its own command, which
    # the service sends for it (GAME.automatic), never part of the command that opened the prompt
    again = at_step(msgspec.structs.replace(always, answers=()), "place", seat=2, people="dwarf")
    again = give(again, 0, FAME)
    asked, events = act(again, 2, PlaceCustomer(tavern="t1", table=2))
    assert events[-1] == ev.Responders(moment="placement", seats=(0, 1))
    assert GAME.automatic(asked, 1) == Pass() and GAME.automatic(asked, 0) is None
    assert GAME.legal(asked, 1)[0] == Pass() and view(asked, 2).waiting_for == (0, 1)
    passed, _ = act(asked, 1, GAME.automatic(asked, 1))
    assert GAME.automatic(passed, 1) is None and passed.turn.responders == (0, 1)
    done, _ = act(passed, 0, Pass())
    assert done.turn.responders == ()
    # turned off on one's own turn, privately
    own = at_step(done, "act", seat=1, tavern="t1")
    assert SetAutoPass(on=False) in GAME.legal(own, 1)
    off, events = act(own, 1, SetAutoPass(on=False))
    assert not off.players[1].auto_pass and event_view(events[0], 0) is None
    assert refused(off, 1, SetAutoPass(on=False)) == "unchanged"
    assert refused(off, 2, SetAutoPass(on=True)) == "not_your_turn"


def test_a_prompt_every_asked_seat_always_passes_stays_open_past_the_opening_command():
    """Leak (issue 38): with "always pass" on for every seat asked, the prompt opened and closed
    inside the active player's own command, showing the opponent's setting at every prompt."""
    state = placing({1: (TIP1,)}, seats=2)
    state = player(state, 1, auto_pass=True)
    plain = player(state, 1, auto_pass=False)
    shown = []
    for start in (state, plain):
        after, events = act(start, 0, PlaceCustomer(tavern="t1", table=1))
        assert after.turn.responders == (1,)
        shown.append([msgspec.json.encode(event_view(e, 0)) for e in events])
    assert shown[0] == shown[1]  # the active player's answer is the same whatever seat 1 has set


def test_a_rules_version_3_prompt_still_folds_with_always_pass_answered_at_once():
    decode = event_decoder(GAME, 3)
    event = decode(b'{"type":"Responders","moment":"placement","seats":[1]}')
    assert event == ev.Responders(moment="placement", seats=(1,), auto_answered=True)
    state = player(placing({1: (TIP1,)}, seats=2), 1, auto_pass=True)
    opened = GAME.evolve(state, event)
    assert [a.seat for a in opened.answers] == [1]
    assert decode(b'{"type":"Answered","seat":1}') == ev.Answered(seat=1)


def test_an_instant_spell_is_cast_on_ones_own_turn_too():
    state = at_step(give(game_state(), 0, TIP1), "act", tavern="t1")
    assert CastSpell(card=TIP1) in GAME.legal(state, 0) and SPELLS[TIP1].instant == "placement"


def test_a_rules_version_1_pass_reads_as_a_sealed_pass():
    decode = event_decoder(GAME, 1)
    assert decode(b'{"type":"Passed","seat":2}') == ev.Answered(seat=2)
    assert GAME.rules_version >= 2
