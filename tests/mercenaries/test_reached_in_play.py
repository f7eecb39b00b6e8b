"""Rules that random and greedy matches never reach (HP ends them at a median of 22 turns), reached from
whole matches with scripted seats: a deck-out, a deck-out after All In, the dismissal of a wage-0
mercenary; and the Jack field limit, which the rulebook's own numbers make unreachable (proved from
them, checked over whole matches and by a search of every field)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from domain.kernel import Command, Rng, play
from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import Contract, DismissMercenary, EndPhase, GoAllIn
from domain.mercenaries.content import LEADERS, RANKS, SETTINGS, rank_of
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


def _novice(card_id: str) -> bool:
    return rank_of(card_id).wage == 0


class Spender:
    """Keeps a Novice (wage 0) on its field and hires the dearest mercenary it can every Morning,
    sacrificing anything but a Novice; never attacks. Short of Gold at Night, it dismisses a Novice
    first (the rules allow it, though it saves nothing), then what the rules still ask."""

    def choose(self, view: object, legal: Sequence[Command], rng: Rng) -> Command:
        dismissals = [c for c in legal if isinstance(c, DismissMercenary)]
        if dismissals:
            return next((c for c in dismissals if _novice(c.card)), dismissals[0])
        hires = [c for c in legal if isinstance(c, Contract) and not any(map(_novice, c.sacrifices))]
        fielded = [m.card.card for m in view.sides[view.seat].field]  # type: ignore[attr-defined]
        novices = [c for c in hires if _novice(c.card)]
        if novices and not any(map(_novice, fielded)):
            return novices[0]
        dear = [c for c in hires if not _novice(c.card)]
        if dear:
            return max(dear, key=lambda c: (rank_of(c.card).wage, rank_of(c.card).contract))
        return EndPhase() if EndPhase() in legal else legal[0]


def test_a_wage_0_mercenary_is_dismissed_in_a_real_match():
    """Hiring Leaders every Morning (9 Gold, wage 5) drains the Gold until the wages cannot be paid."""
    table = play(GAME, GAME.setup(2, {"best_of": 1}), "wage-0", [Spender(), Passive()])
    events = table.events
    dismissed = [i for i, e in enumerate(events) if isinstance(e, ev.MercenaryDismissed) and _novice(e.card)]
    assert dismissed
    night = events[dismissed[0]:]
    paid = next(e for e in night if isinstance(e, ev.WagesPaid))
    # the Novice's dismissal saved nothing: more was dismissed before the wages could be paid
    assert any(isinstance(e, ev.MercenaryDismissed) and not _novice(e.card) for e in night[:night.index(paid)])


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


def test_the_jack_field_limit_is_unreachable_by_the_rulebooks_numbers():
    """The rulebook: "Maximum 3 mercenaries per player" and "J = 3". A field never holds more than 3
    (checked over whole matches that hire Leaders every Morning), so it never holds a 4th Jack, whatever
    the sacrifice rule (ours) or All In (no sacrifice) does. A search of every field of 3 ranks agrees:
    a Jack is never refused for the Jack limit; the Queen's limit does bind."""
    assert SETTINGS["field_size"] <= LEADERS["J"].field_limit  # both from the rulebook (seed provenance)
    assert LEADERS["Q"].field_limit < SETTINGS["field_size"] and LEADERS["K"].field_limit < SETTINGS["field_size"]
    for seed in ("jacks-1", "jacks-2"):
        table = play(GAME, GAME.setup(2, {"best_of": 1}), seed, [Spender(), Spender()])
        states = [GAME.initial(GAME.setup(2, {"best_of": 1}))]
        for event in table.events:
            states.append(GAME.evolve(states[-1], event))
        assert max(len(p.field) for s in states for p in s.players) == SETTINGS["field_size"]
        hired = [e for e in table.events if isinstance(e, ev.Contracted)]
        assert sum(rank_of(e.card).rank == "J" for e in hired) >= 1
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
