"""What each seat and the spectator see, and what stays hidden from them."""

from __future__ import annotations

import msgspec

from domain.heros_tavern import GAME
from domain.heros_tavern.commands import PickCard
from domain.heros_tavern.events import CardPicked
from domain.kernel import Rng
from tests.heros_tavern.helpers import run


def opening(seats: int = 4):
    state = GAME.initial(GAME.setup(seats))
    for event in GAME.begin(state, Rng("views", 0)):
        state = GAME.evolve(state, event)
    return state


def test_a_seat_sees_its_hand_and_counts_of_the_rest():
    state = opening()
    view = GAME.view(state, 2)
    assert [c.id for c in view.hand] == list(state.hands[2])
    assert view.deck_size == 118 - 28 and view.round == 1 and view.phase == "draft" and view.pick_number == 1
    assert [s.hand_size for s in view.seats] == [7] * 4
    text = msgspec.json.encode(view).decode()
    assert not any(card in text for seat in (0, 1, 3) for card in state.hands[seat])
    assert not any(card in text for card in state.draw)


def test_the_spectator_sees_no_hand():
    state = opening()
    view = GAME.view(state, None)
    assert view.hand == () and view.my_pick is None and view.seat is None


def test_hidden_names_other_hands_other_picks_and_the_draw_pile():
    state = opening(3)
    state, _ = run(state, (1, PickCard(card=state.hands[1][0])))
    pick = state.picks[1]
    assert GAME.hidden(state, 0) == {*state.hands[1], *state.hands[2], pick, *state.draw}
    assert GAME.hidden(state, 1) == {*state.hands[0], *state.hands[2], *state.draw}
    assert GAME.hidden(state, None) == {*state.hands[0], *state.hands[1], *state.hands[2], pick, *state.draw}


def test_revealed_picks_are_face_up_in_every_view_with_the_scoring_pad():
    state = opening(3)
    for _ in range(7):
        state, _ = run(state, *((seat, PickCard(card=state.hands[seat][0])) for seat in range(3)))
    view = GAME.view(state, None)
    assert [[t.card.id for t in s.tavern] for s in view.seats] == [list(t) for t in state.taverns]
    assert [len(s.pad) for s in view.seats] == [1, 1, 1]
    assert [s.score for s in view.seats] == [s.pad[0].total for s in view.seats]
    assert [s.tokens for s in view.seats] == list(state.tokens)


def test_face_up_events_reach_every_seat_and_the_spectator_whole():
    state = opening(3)
    moves = [(seat, PickCard(card=state.hands[seat][0])) for seat in range(3)]
    for _ in range(7):
        state, events = run(state, *moves)
        moves = [(seat, PickCard(card=state.hands[seat][0])) for seat in range(3)] if state.hands[0] else []
    face_up = [e for e in events if not isinstance(e, CardPicked)]  # the reveal, the scores, the awards...
    assert len(face_up) >= 3
    for event in face_up:
        assert all(GAME.event_view(event, seat) == event for seat in (0, 1, 2, None))
