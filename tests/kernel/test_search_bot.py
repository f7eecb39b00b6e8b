"""The search bots (domain/kernel/search.py, domain/<game>/search.py), and each game's fallback bot
where that is another kind (Mercenaries' careful bot): they decide from a seat's view alone, play
legal moves only, finish matches, and pick the same move again for the same view and seed (the
audit of a timed-out move relies on that); the search bots draw states that view could come from."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from domain.games import fallback_tables, game_ids, get_game, make_bot, online_game
from domain.kernel import Bot, Command, Rng, RulesError, Table, bot_turn, play
from domain.kernel.online import SeatTimedOut, TimedOut, bot_label

SEATS = {"heros-tavern": (3, 5), "tavern-masters": (1, 2, 4), "taverna": (2, 4), "mercenaries": (2,)}
CASES = [(game_id, seats) for game_id in game_ids() for seats in SEATS[game_id]]
# every game's search bot, and its fallback bot where that is another kind
KINDS = [(game_id, kind) for game_id in game_ids() for kind in sorted({"search", *fallback_tables(get_game(game_id))})]


def sampler(game_id: str) -> Any:
    return importlib.import_module(f"domain.{game_id.replace('-', '_')}.search").sample


def greedy_states(game_id: str, seats: int, seed: str, every: int) -> list[tuple[Any, int]]:
    """(state, seat) pairs from one all-greedy match, every ``every``-th command, each seat."""
    game = get_game(game_id)
    table = Table(game, game.setup(seats), seed)
    bots = [make_bot(game, "greedy", table.setup.options) for _ in range(seats)]
    out = []
    for step in range(10_000):
        if table.finished:
            break
        if step % every == 0:
            out += [(table.state, seat) for seat in range(seats)]
        table.submit(*bot_turn(table, bots))
    return out


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_a_sampled_state_shows_the_seat_the_view_it_came_from(game_id, seats):
    """A determinization is a state the view could come from: its view and legal list are the
    view's, while the cards the seat cannot see are drawn anew."""
    game, sample = get_game(game_id), sampler(game_id)
    redrawn = 0
    for index, (state, seat) in enumerate(greedy_states(game_id, seats, f"sample-{game_id}-{seats}", every=7)):
        seen = game.view(state, seat)
        drawn = sample(seen, Rng("draw", index, "sample"), game.setup(seats).options)
        assert game.view(drawn, seat) == seen
        assert game.legal(drawn, seat) == game.legal(state, seat)
        redrawn += drawn != state
    assert redrawn > 0  # the hidden cards were not copied from the true state


class Checked:
    """A bot whose every move must be one of the legal commands it was given."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.moves = 0

    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        command = self.bot.choose(view, legal, rng)
        assert command in legal
        self.moves += 1
        return command


@pytest.mark.parametrize(("game_id", "kind"), KINDS)
def test_the_bot_plays_legal_moves_to_the_end_of_a_match(game_id, kind):
    game, seats = get_game(game_id), SEATS[game_id][0]
    setup = game.setup(seats)
    searcher = Checked(make_bot(game, kind, setup.options))
    bots: list[Bot] = [searcher, *(make_bot(game, "greedy", setup.options) for _ in range(seats - 1))]
    table = play(game, setup, f"{kind}-play-{game_id}", bots)
    assert game.result(table.state) is not None and searcher.moves > 0


def same_choices(game: Any, sample: Any, bot: Bot, pairs: Sequence[tuple[Any, int]], options: dict[str, Any],
                 reverse: bool = False, enough: int | None = None) -> int:
    """For each (state, seat) with a choice: a second true state drawn from the seat's view (its
    hidden cards differ) gets the same move for the same seed, its legal list reversed if ``reverse``
    (a bot that breaks ties by its own order); how many were checked (up to ``enough``)."""
    checked = 0
    for index, (state, seat) in enumerate(pairs):
        legal = game.legal(state, seat)
        if len(legal) < 2:
            continue
        seen = game.view(state, seat)
        other = sample(seen, Rng("other", index, "sample"), options)
        assert other != state and game.view(other, seat) == seen
        first = bot.choose(seen, legal, Rng("seed", index, "bot"))
        again = game.legal(other, seat)
        assert first == bot.choose(game.view(other, seat), again[::-1] if reverse else again, Rng("seed", index, "bot"))
        checked += 1
        if checked == enough:
            break
    return checked


@pytest.mark.parametrize(("game_id", "kind"), KINDS)
def test_the_choice_depends_on_the_view_and_seed_only(game_id, kind):
    """Two true states that give the seat the same view get the same move for the same seed, and a
    fresh bot of the kind the same move as a used one."""
    game = get_game(game_id)
    options = game.setup(SEATS[game_id][-1]).options
    pairs = greedy_states(game_id, SEATS[game_id][-1], f"same-{game_id}", every=23)
    assert same_choices(game, sampler(game_id), make_bot(game, kind, options), pairs, options, enough=3) == 3
    used = make_bot(game, kind, options)  # a bot that has chosen before chooses as a new one would
    for index, (state, seat) in enumerate(pairs[:6]):
        legal, seen = game.legal(state, seat), game.view(state, seat)
        if legal:
            assert used.choose(seen, legal, Rng("seed", index, "bot")) == make_bot(game, kind, options).choose(
                seen, legal, Rng("seed", index, "bot"))


# each game's fallback kinds, each at the fewest seats it plays for
FALLBACK_TABLES = [(game_id, kind, seats) for game_id in game_ids()
                   for kind, seats in sorted(fallback_tables(get_game(game_id)).items())]


@pytest.mark.parametrize(("game_id", "kind", "seats"), FALLBACK_TABLES)
def test_a_timed_out_seat_is_played_by_the_fallback_bot_and_is_decided_again_alike(game_id, kind, seats):
    assert kind in get_game(game_id).bots
    game = online_game(game_id)
    table = Table(game, game.setup(seats), f"timeout-{game_id}")
    seat = table.actors()[0]
    command = TimedOut(bot=bot_label(game, kind))
    again = game.decide(table.state, command, seat, table.rng())  # what an audit decides
    assert table.submit(seat, command) == again and again[0] == SeatTimedOut(seat=seat, streak=1)


def test_a_timeout_naming_no_bot_of_the_game_is_refused():
    game = online_game("taverna")
    table = Table(game, game.setup(3), "no-bot")
    with pytest.raises(RulesError) as refused:
        table.submit(table.actors()[0], TimedOut(bot="oracle"))
    assert refused.value.code == "unknown_bot"


def test_a_timeout_logged_before_bots_were_named_is_played_by_greedy():
    """An old log's TimedOut has no ``bot``: it decodes to the greedy bot that played it then."""
    old = msgspec.json.decode(b'{"type": "TimedOut", "limit": 3, "forfeit": false}', type=TimedOut)
    assert old.bot == "greedy"
