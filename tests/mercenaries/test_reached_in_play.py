"""Rules that random and greedy matches never reach (HP ends them at a median of 22 turns), reached from
whole matches with scripted seats: a deck-out, a deck-out after All In; and the Jack field limit,
which no position can reach (shown by search)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from domain.kernel import Command, Rng, play
from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import Contract, EndPhase, GoAllIn
from domain.mercenaries.content import LEADERS, RANKS, SETTINGS
from domain.mercenaries.state import MORNING
from tests.mercenaries.build import card, merc, player, position, refused


class Passive:
    """Never contracts, sells or attacks: ends every phase; goes All In when it may, if told to."""

    def __init__(self, all_in: bool = False) -> None:
        self.all_in = all_in

    def choose(self, view: object, legal: Sequence[Command], rng: Rng) -> Command:
        if self.all_in and GoAllIn() in legal:
            return GoAllIn()
        return EndPhase() if EndPhase() in legal else legal[0]


def test_a_passive_match_ends_by_deck_out():
    table = play(GAME, GAME.setup(2, {"best_of": 1}), "deck-out", [Passive(), Passive()])
    won = [e for e in table.events if isinstance(e, ev.GameWon)]
    assert [w.reason for w in won] == ["deck_out"]
    loser = 1 - won[0].winner
    assert table.state.players[loser].deck == () and table.state.players[loser].hp == SETTINGS["starting_hp"]


def test_a_deck_out_after_all_in():
    table = play(GAME, GAME.setup(2, {"best_of": 1}), "deck-out-all-in", [Passive(all_in=True), Passive(True)])
    events = table.events
    won = next(e for e in events if isinstance(e, ev.GameWon))
    loser = 1 - won.winner
    all_ins = [i for i, e in enumerate(events) if isinstance(e, ev.AllInDeclared) and e.seat == loser]
    assert won.reason == "deck_out" and all_ins  # the loser had reshuffled everything once, and ran out again
    reshuffle = next(e for e in events[all_ins[0]:] if isinstance(e, ev.DeckShuffled))
    assert reshuffle.count > SETTINGS["all_in_deck_below"]


def test_the_jack_field_limit_binds_no_position():
    """A field holds 3; a Jack needs a sacrifice (none on an All In turn, but then a full field refuses
    first). Over every field of 3 ranks, a fourth Jack is never refused for the Jack limit alone."""
    assert LEADERS["J"].field_limit >= SETTINGS["field_size"]
    for field in combinations_with_replacement(RANKS, SETTINGS["field_size"]):
        mercs = tuple(merc(0, rank, suit) for rank, suit in zip(field, ("hearts", "spades", "clubs"), strict=True))
        state = position(player(0, field=mercs, hand=(card(0, "J", "diamonds"),)), phase=MORNING)
        for sacrifice in {m.card for m in mercs}:
            command = Contract(card=card(0, "J", "diamonds"), sacrifices=(sacrifice,))
            if command not in GAME.legal(state, 0):
                assert refused(state, 0, command) != "leader_limit"
    queens = position(player(0, field=(merc(0, "Q"), merc(0, "Q", "spades"), merc(0, "2")),
                             hand=(card(0, "Q", "clubs"),)), phase=MORNING)  # the Queen's limit does bind
    assert refused(queens, 0, Contract(card=card(0, "Q", "clubs"), sacrifices=(card(0, "2"),))) == "leader_limit"
