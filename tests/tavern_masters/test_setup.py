"""How to begin: Gold, the Server, the draft (pick and pass), solo's 4-3-2-1 draw, the mulligan."""

from __future__ import annotations

from domain.kernel import Table
from domain.tavern_masters import GAME
from domain.tavern_masters.commands import KeepHand, Mulligan, PickCard
from domain.tavern_masters.events import MulliganChosen
from domain.tavern_masters.setup import needs_mulligan
from tests.tavern_masters.helpers import make, refused, send


def table(seats: int, **options) -> Table:
    return Table(GAME, GAME.setup(seats, options), "setup-test")


def pick_first(t: Table) -> None:
    for seat in range(t.setup.seats):
        t.submit(seat, PickCard(card=t.state.players[seat].packet[0]))


def test_each_seat_starts_with_three_gold_and_four_cards_to_draft():
    t = table(4)
    assert [p.gold for p in t.state.players] == [3, 3, 3, 3]
    assert [len(p.packet) for p in t.state.players] == [4, 4, 4, 4]
    assert t.state.server == 0 and t.state.phase == "draft"


def test_draft_keeps_one_and_passes_the_rest_left():
    t = table(3)
    packets = [p.packet for p in t.state.players]
    kept = [packet[0] for packet in packets]
    pick_first(t)
    for seat in range(3):
        assert t.state.players[seat].hand == (kept[seat],)
        assert t.state.players[seat].packet == packets[(seat - 1) % 3][1:]  # from the seat on its right


def test_draft_waits_for_every_seat_before_passing():
    t = table(2)
    first = t.state.players[0].packet[0]
    t.submit(0, PickCard(card=first))
    assert len(t.state.players[0].packet) == 3 and t.state.draft_step == 0
    refused(t.state, 0, PickCard(card=t.state.players[0].packet[0]), "already_picked")


def test_draft_ends_with_three_cards_and_the_last_card_discarded():
    t = table(2)
    for _ in range(3):
        pick_first(t)
    assert [len(p.hand) for p in t.state.players] == [3, 3]
    assert len(t.state.discards["tavern"]) == 2
    assert t.state.phase in ("mulligan", "day")


def test_the_booklets_draft_keeps_all_four_as_an_option():
    """RULINGS.md 5: the 2018 rules keep 3 and discard the last card; option ``draft`` = ``booklet``
    keeps picking "until they are handed their last card to keep"."""
    spec = next(s for s in GAME.options if s.name == "draft")
    assert spec.default == "2018" and spec.description
    t = table(3, draft="booklet")
    packets = [p.packet for p in t.state.players]
    for _ in range(3):
        pick_first(t)
    assert t.state.phase == "draft" and [len(p.packet) for p in t.state.players] == [1, 1, 1]
    pick_first(t)
    assert [len(p.hand) for p in t.state.players] == [4, 4, 4] and t.state.discards.get("tavern", ()) == ()
    assert sorted(c for p in t.state.players for c in p.hand) == sorted(c for packet in packets for c in packet)
    assert t.state.phase in ("mulligan", "day")
    solo = table(1, mode="solo", draft="booklet")  # a single seat draws 4-3-2-1 either way
    for _ in range(3):
        pick_first(solo)
    assert len(solo.state.players[0].hand) == 4 and len(solo.state.discards["tavern"]) == 6


def test_solo_draws_four_three_two_one():
    t = table(1, mode="solo")
    sizes = []
    for _ in range(3):
        sizes.append(len(t.state.players[0].packet))
        pick_first(t)
    assert sizes == [4, 3, 2]
    assert len(t.state.players[0].hand) == 4  # three kept and the last single card
    assert len(t.state.discards["tavern"]) == 3 + 2 + 1


def test_solo_mode_with_several_seats_drafts_as_any_multi_seat_table():
    """The single-player draw is for one seat; the Challenge Chart with several keeps their setup (ruling 7)."""
    t = table(2, mode="solo")
    assert [len(p.packet) for p in t.state.players] == [4, 4]
    pick_first(t)
    assert [len(p.packet) for p in t.state.players] == [3, 3] and t.state.draft_step == 1
    for _ in range(2):
        pick_first(t)
    assert [len(p.hand) for p in t.state.players] == [3, 3]


def test_draft_errors():
    t = table(2)
    refused(t.state, 0, PickCard(card=t.state.players[1].packet[0]), "card_not_in_packet")
    day = make(phase="day")
    refused(day, 0, PickCard(card="meat-pie-1"), "not_drafting")
    refused(day, 0, PickCard(card="zz-nothing"), "no_such_card")


def test_mulligan_only_without_a_drink_costing_two_or_less():
    cheap = make(phase="mulligan", players=[{"hand": ("dwarven-ale-1", "meat-pie-1", "bouncer-1")}])
    assert not needs_mulligan(cheap, 0)
    dear = make(phase="mulligan", players=[{"hand": ("elven-wine-1", "dragonfire-brandy-1", "meat-pie-1")}])
    assert needs_mulligan(dear, 0)
    refused(cheap, 0, Mulligan(), "no_mulligan")
    assert GAME.legal(cheap, 0) == [KeepHand()] and GAME.legal(dear, 0) == [Mulligan(), KeepHand()]


def test_every_seat_answers_the_mulligan_so_keeping_tells_nothing():
    """Rules before issue 21 asked only the seats without a cheap Drink, telling everyone who they were."""
    hands = [{"hand": ("elven-wine-1", "dragonfire-brandy-1", "meat-pie-1")}, {"hand": ("dwarven-ale-1",)}]
    state = make(phase="mulligan", round=0, players=hands)
    kept, events = send(state, 1, KeepHand())  # seat 1 could not have mulliganed; it answers all the same
    assert events == [MulliganChosen(seat=1, take=False)] and kept.phase == "mulligan"
    kept, _ = send(kept, 0, KeepHand())
    assert kept.phase == "day"
    refused(kept, 1, KeepHand(), "not_mulligan")
    refused(make(phase="day"), 0, Mulligan(), "not_mulligan")


def test_mulligan_discards_and_draws_as_many_then_round_one_begins():
    hands = [{"hand": ("elven-wine-1", "dragonfire-brandy-1", "meat-pie-1")}, {"hand": ("dwarven-ale-1",)}]
    state = make(phase="mulligan", round=0, players=hands)
    top = state.decks["tavern"][:3]
    state, _ = send(state, 0, Mulligan())
    assert state.phase == "mulligan"  # seat 1 has not answered yet
    state, _ = send(state, 1, KeepHand())
    assert state.players[0].hand == top
    assert set(state.discards["tavern"]) == {"elven-wine-1", "dragonfire-brandy-1", "meat-pie-1"}
    assert (state.phase, state.round) == ("day", 1)
    assert [len(p.hand) for p in state.players] == [3, 1]  # no Tavern deal in the first Day


def test_keeping_the_hand():
    state = make(phase="mulligan", round=0, players=[{"hand": ("meat-pie-1",)}, {"hand": ("dwarven-ale-1",)}])
    state, _ = send(state, 0, KeepHand())
    state, _ = send(state, 1, KeepHand())
    assert state.players[0].hand == ("meat-pie-1",) and state.phase == "day"
