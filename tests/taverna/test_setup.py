"""Setup: board side, coins, favours, privileges, dignitaries, spells, customers, chosen peoples, deeds."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import Rng, Table
from domain.taverna import events as ev
from domain.taverna.commands import BuyDeed, ChoosePeople, PassDeed
from domain.taverna.content import CUSTOMERS, PEOPLES, SPELLS, taverns_for
from domain.taverna.rules import begin
from domain.taverna.state import initial
from tests.taverna.helpers import CURSE, GAME, act, refused


def table(seats: int, seed: str = "s", curse: bool = False) -> Table:
    return Table(GAME, GAME.setup(seats, {"curse": curse}), seed)


@pytest.mark.parametrize(("seats", "tables", "cards"), [(2, 18, 22), (3, 18, 22), (4, 30, 28), (5, 30, 34)])
def test_opening(seats, tables, cards):
    state = table(seats).state
    assert sum(len(t.tables) for t in state.taverns.values()) == tables  # the board side for the count
    assert all(p.coins == 15 and len(p.hand) == 3 and p.points == 0 for p in state.players)
    assert all(p.levels == (0, 0, 0, 0) for p in state.players)
    assert len(state.castle) == 5 and len(state.favour_reserve) == 10
    assert all(t.privilege for t in state.taverns.values()) and state.privilege_reserve == 10
    placed = {t: v.dignitaries for t, v in state.taverns.items()}
    assert [len(placed[t]) for t in ("t1", "t2", "t3", "t4", "t5")] == [1, 1, 1, 1, 0]  # the small taverns
    assert len(state.row) == 4 and len(state.row) + len(state.customer_deck) == cards
    assert all(CUSTOMERS[c].players <= seats for c in (*state.row, *state.customer_deck))
    assert len(state.spell_deck) == 31 - 3 * seats


def test_curse_is_resolved_when_drawn_and_replaced():
    state = initial(GAME.setup(3, {"curse": True}))
    plain = [s for s in SPELLS if s != CURSE]
    state = replace(state, spell_deck=(plain[0], CURSE, *plain[1:]))
    from domain.taverna.deck import draw_spell
    from domain.taverna.state import Ctx

    ctx = Ctx(state)
    draw_spell(ctx, 1)
    draw_spell(ctx, 1)
    assert ctx.state.players[1].hand == (plain[0], plain[1])
    assert ctx.state.players[1].coins == 13
    assert any(isinstance(e, ev.CurseDrawn) for e in ctx.events) and CURSE not in ctx.state.spell_deck


def test_curse_option_removes_it():
    state = table(3, curse=False).state
    assert CURSE not in state.spell_deck and all(CURSE not in p.hand for p in state.players)


def test_first_card_names_the_kings_people_or_the_first_player_chooses():
    for seed in range(30):
        t = table(3, seed=str(seed))
        first = CUSTOMERS[t.state.row[0]].peoples
        if len(first) == 1:
            assert t.state.king == first[0] and t.state.phase == "deeds"
        else:
            assert t.state.phase == "people"
            assert GAME.legal(t.state, 0) == [ChoosePeople(people=p) for p in first]
            assert refused(t.state, 1, ChoosePeople(people=first[0])) == "not_your_turn"
            other = next(p for p in PEOPLES if p not in first)
            assert refused(t.state, 0, ChoosePeople(people=other)) == "bad_people"
            t.submit(0, ChoosePeople(people=first[1]))
            assert t.state.king == first[1] and t.state.phase == "deeds"
            return
    raise AssertionError("no dual first card in 30 seeds")


def test_two_seats_king_then_a_different_queen():
    t = table(2)
    assert t.state.phase == "people"
    t.submit(0, ChoosePeople(people="orc"))
    assert refused(t.state, 1, ChoosePeople(people="orc")) == "bad_people"
    assert refused(t.state, 0, ChoosePeople(people="elf")) == "not_your_turn"
    t.submit(1, ChoosePeople(people="human"))
    assert (t.state.king, t.state.queen, t.state.phase) == ("orc", "human", "deeds")
    assert refused(t.state, 1, ChoosePeople(people="elf")) == "wrong_phase"


def deeds_table() -> Table:
    for seed in range(50):
        t = table(3, seed=str(seed))
        if t.state.phase == "deeds":
            return t
    raise AssertionError("no seed with a single-people first card")


def test_deed_rounds_snake_and_score_at_once():
    t = deeds_table()
    assert t.state.deed_order == (0, 1, 2, 2, 1, 0)
    buyers = []
    for space, tavern in [(0, "t1"), (0, "t2"), (0, "t3"), (1, "t1"), (0, "t4"), (2, "t5")]:
        seat = t.state.deed_order[0]
        buyers.append(seat)
        before = t.state.players[seat]
        t.submit(seat, BuyDeed(tavern=tavern, space=space))
        deed = taverns_for(3)[tavern].deeds[space]
        assert t.state.players[seat].coins == before.coins - deed.price
        assert t.state.players[seat].points == before.points + deed.points
    assert buyers == [0, 1, 2, 2, 1, 0]
    assert t.state.phase == "turns" and t.state.turn.seat == 0


def test_deed_errors():
    t = deeds_table()
    t.submit(0, BuyDeed(tavern="t1", space=0))
    state = t.state
    assert refused(state, 0, BuyDeed(tavern="t2", space=0)) == "not_your_turn"
    assert refused(state, 1, BuyDeed(tavern="t1", space=0)) == "deed_taken"
    assert refused(state, 1, BuyDeed(tavern="t9", space=0)) == "no_such_deed"
    assert refused(state, 1, BuyDeed(tavern="t1", space=7)) == "no_such_deed"
    assert refused(state, 1, PassDeed()) == "must_buy"
    poor = replace(state, players=tuple(replace(p, coins=2) for p in state.players))
    assert refused(poor, 1, BuyDeed(tavern="t2", space=0)) == "cannot_afford"
    assert GAME.legal(poor, 1) == [PassDeed()]
    after, events = act(poor, 1, PassDeed())
    assert events == [ev.DeedPassed(seat=1)] and after.deed_order == (2, 2, 1, 0)
    # one deed per tavern per player, in the second round
    state = replace(state, deed_order=(0, 0))
    assert refused(state, 0, BuyDeed(tavern="t1", space=1)) == "one_deed_per_tavern"
    assert BuyDeed(tavern="t1", space=1) not in GAME.legal(state, 0)


def test_begin_draws_only_from_its_rng():
    state = initial(GAME.setup(4, {}))
    assert begin(state, Rng("x", 0)) == begin(state, Rng("x", 0))
    assert begin(state, Rng("x", 0)) != begin(state, Rng("y", 0))
