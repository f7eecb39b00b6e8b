"""Options: finite_tokens (the box's 50 tokens of each kind, shared out when short), zero_entertainment_second."""

from __future__ import annotations

from domain.games import make_bot
from domain.heros_tavern import GAME
from domain.heros_tavern.content import BOX, Tokens
from domain.heros_tavern.rules import share
from domain.kernel import play


def test_the_option_is_declared_with_its_ruling():
    spec = next(s for s in GAME.options if s.name == "finite_tokens")
    assert spec.default is False and "RULINGS" in spec.description


def test_a_short_kind_is_handed_out_one_at_a_time_round_the_table():
    wanted = (Tokens(coin=3, land=1), Tokens(coin=2), Tokens(coin=2, land=1))
    assert share(wanted, Tokens(coin=4, storage=9, land=9), first=1) == (
        Tokens(coin=1, land=1), Tokens(coin=2), Tokens(coin=1, land=1))
    assert share(wanted, Tokens(coin=50, storage=50, land=50), first=0) == wanted  # enough: as wanted
    assert share(wanted, Tokens(), first=2) == (Tokens(),) * 3


def test_greedy_five_seat_matches_never_hand_out_more_than_the_box():
    over = 0
    for index in range(4):
        for finite in (False, True):
            setup = GAME.setup(5, {"finite_tokens": finite})
            table = play(GAME, setup, f"supply-{index}", [make_bot(GAME, "greedy", setup.options) for _ in range(5)])
            most = max(table.state.awarded.coin, table.state.awarded.storage, table.state.awarded.land)
            if finite:
                assert most <= BOX and GAME.view(table.state, 0).supply == Tokens(BOX, BOX, BOX) - table.state.awarded
            else:
                over += most > BOX
                assert GAME.view(table.state, 0).supply is None
    assert over  # without the option the box runs out in such matches (every one, measured)


def test_zero_entertainment_second_is_an_option():
    from domain.heros_tavern.scoring import entertainment

    assert entertainment([2, 0, 0]) == (6, 0, 0)
    assert entertainment([2, 0, 0], zero_second=True) == (6, 1, 1)  # 3 split, remainder dropped
    assert entertainment([2, 1, 0], zero_second=True) == (6, 3, 0)
    spec = next(s for s in GAME.options if s.name == "zero_entertainment_second")
    assert spec.default is False and spec.description


def test_staff_copies_once_is_an_option():
    """HT-8: two copies of one staff card each score (default); ``staff_copies`` = ``once``: the second
    adds nothing. Played through the rules: the round's last pick scores two Shopkeepers with 3 Markets."""
    from msgspec.structs import replace

    from domain.heros_tavern.commands import PickCard
    from domain.heros_tavern.events import TavernsScored
    from tests.heros_tavern.helpers import Cards, last_pick, of_type, run

    spec = next(s for s in GAME.options if s.name == "staff_copies")
    assert spec.default == "each" and spec.choices == ("each", "once") and spec.description
    shopkeepers = {}
    for reading in ("each", "once"):
        cards = Cards()
        mine = [*cards.take("shopkeeper", 2), *cards.take("market", 3), *cards.take("jester", 2)]
        hands = [*cards.take("food"), *cards.take("food"), *cards.take("food")]
        state = last_pick(cards, [mine, cards.take("lodging"), cards.take("lodging")], hands)
        state = replace(state, options={**state.options, "staff_copies": reading})
        _, events = run(state, *((seat, PickCard(card=hands[seat])) for seat in range(3)))
        row = of_type(events, TavernsScored)[0].rows[0]
        shopkeepers[reading] = (row.shopkeeper, row.jester)
    assert shopkeepers == {"each": (8, 2), "once": (4, 1)}  # Markets + 1 = 4 each; Jester with no show: 1
