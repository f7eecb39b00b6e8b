"""Match options for the rulings that narrow the text (RULINGS.md 14, 23): the text's reading on request."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import Table, bot_turn
from domain.taverna.board import DEED_TOKENS, deeds_held
from domain.taverna.bot import GreedyBot
from domain.taverna.commands import ActivateDignitary, UseFavour
from domain.taverna.content import FAVOURS
from tests.taverna.helpers import GAME, act, at_step, game_state, player, refused


def test_the_options_are_declared_with_their_reasons():
    declared = {spec.name: spec for spec in GAME.options}
    for name in ("repeat_favour_kinds", "repeat_privilege_right"):
        assert declared[name].default is False and declared[name].description
    assert GAME.setup(3, {"repeat_favour_kinds": True}).options["repeat_favour_kinds"] is True


def two_second_spells(**options):
    tiles = tuple(f for f, tile in FAVOURS.items() if tile.kind == "second_spell")[:2]
    state = replace(game_state(), **options)
    return at_step(player(state, 0, favours=tiles, hand=("ta-sp-01", "ta-sp-02")), "act", tavern="t1")


def test_one_favour_of_a_kind_a_turn_unless_the_option_allows_more():
    state = two_second_spells()
    first, second = state.players[0].favours
    used, _ = act(state, 0, UseFavour(favour=first))
    assert refused(used, 0, UseFavour(favour=second)) == "favour_kind_used"
    state = two_second_spells(repeat_favour_kinds=True)
    used, _ = act(state, 0, UseFavour(favour=first))
    assert UseFavour(favour=second) in GAME.legal(used, 0)
    twice, _ = act(used, 0, UseFavour(favour=second))
    assert twice.turn.spells_allowed == 3


def test_one_two_privilege_activation_a_turn_unless_the_option_allows_more():
    for repeat in (False, True):
        state = player(replace(game_state(), repeat_privilege_right=repeat), 0, privileges=4)
        state = at_step(state, "act", tavern="t1")  # the notary is here; the others need privileges
        once, _ = act(state, 0, ActivateDignitary(dignitary="princess", tavern="t5", favours=state.castle[:1]))
        again = ActivateDignitary(dignitary="ambassador", tavern="t5", peoples=("dwarf",))
        if repeat:
            twice, _ = act(once, 0, again)
            assert twice.players[0].privileges == 0 and twice.turn.dignitaries == ("princess", "ambassador")
        else:
            assert once.players[0].privileges == 2 and again not in GAME.legal(once, 0)
            assert refused(once, 0, again) == "no_activation_right"


def test_the_notary_buys_a_second_deed_in_a_tavern_only_with_the_option():
    """Ruling 16: "a single player can only have one property deed in each tavern" holds all game by
    default; option ``notary_second_deed`` reads it as the setup's rule (where the rulebook prints it).
    A seat with two deeds in a tavern is one owner: paid once when a customer comes in."""
    from domain.taverna.commands import ActivateDignitary, PlaceCustomer

    buy = ActivateDignitary(dignitary="notary", tavern="t5", space=1)
    state = at_step(game_state(3), "act", tavern="t1")
    state = replace(state, taverns={**state.taverns, "t5": replace(state.taverns["t5"], deeds=(0, -1, -1))})
    assert refused(state, 0, buy) == "bad_target"
    wider = replace(state, notary_second_deed=True)
    assert buy in GAME.legal(wider, 0)
    assert ActivateDignitary(dignitary="notary", tavern="t5", space=0) not in GAME.legal(wider, 0)  # its own
    after, _ = act(wider, 0, buy)
    assert after.taverns["t5"].deeds == (0, 0, -1)
    placing = at_step(replace(after, turn=None), "place", seat=1)
    coins = placing.players[0].coins
    placed, _ = act(placing, 1, PlaceCustomer(tavern="t5", table=0))
    assert placed.players[0].coins == coins + 3  # one owner, one income
    assert GAME.setup(3, {"notary_second_deed": True}).options["notary_second_deed"] is True


def test_the_notary_never_places_a_sixth_deed_token():
    """Each player has "the 5 property deed tokens" (RULINGS.md 16): with ``notary_second_deed`` a seat
    holding 5 deeds buys no more with the Notary, neither an unowned space nor an opponent's."""
    state = replace(at_step(game_state(3), "act", tavern="t1"), notary_second_deed=True)
    held = {"t1": (0, -1, -1), "t2": (0, 1, 1), "t3": (0, -1, -1), "t4": (0, -1, -1)}
    four = replace(state, taverns={t: replace(v, deeds=held.get(t, v.deeds)) for t, v in state.taverns.items()})
    notary = [c for c in GAME.legal(four, 0) if isinstance(c, ActivateDignitary) and c.dignitary == "notary"]
    assert ActivateDignitary(dignitary="notary", tavern="t5", space=1) in notary  # four deeds: a fifth may be bought
    fifth, _ = act(four, 0, ActivateDignitary(dignitary="notary", tavern="t5", space=1))
    assert deeds_held(fifth, 0) == DEED_TOKENS
    five = at_step(replace(fifth, turn=None), "act", tavern="t5")  # where the Notary is now
    assert not [c for c in GAME.legal(five, 0) if isinstance(c, ActivateDignitary) and c.dignitary == "notary"]
    assert refused(five, 0, ActivateDignitary(dignitary="notary", tavern="t3", space=1)) == "bad_target"


@pytest.mark.parametrize("seed, seats", [("ta-check3:2:0", 2), ("ta-check3:2:9", 2), ("ta-check3:3:0", 3)])
def test_greedy_matches_with_the_option_never_hold_more_than_five_deeds(seed, seats):
    """Seeds where greedy bots held 6 to 8 deeds before the supply was enforced (issue 38)."""
    setup = GAME.setup(seats, {"notary_second_deed": True})
    table = Table(GAME, setup, seed)
    bots = [GreedyBot() for _ in range(seats)]
    most = 0
    while not table.finished:
        table.submit(*bot_turn(table, bots))
        most = max(most, *(deeds_held(table.state, seat) for seat in range(seats)))
    assert most == DEED_TOKENS
