"""End of game: the exchange, the royal scoring (five opportunities, each taken once) and the
people scoring; then the result with its tie rule."""

from __future__ import annotations

from domain.kernel import Result, Standing, require
from domain.taverna import events as ev
from domain.taverna.board import deeds_held
from domain.taverna.commands import ChooseScoring
from domain.taverna.content import PEOPLES, TRACKS
from domain.taverna.state import Ctx, Player, State
from domain.taverna.tracks import gain_level, order_by_track, royal_order

OPTIONS = ("king", "queen", "coins", "archduke", "archmage")
BRACKET_POINTS = (3, 6, 9, 12, 15)
KING_POINTS = 5
# the least count for each bracket: the rulebook's "0/2/3/4/5" etc.
THRESHOLDS = {"queen": (0, 2, 3, 4, 5), "coins": (0, 6, 9, 12, 15), "archduke": (1, 2, 3, 4, 5),
              "archmage": (0, 2, 3, 4, 5)}


def bracket(option: str, count: int) -> int:
    """3/6/9/12/15 points for the highest threshold reached (below the first: still 3)."""
    reached = [i for i, least in enumerate(THRESHOLDS[option]) if count >= least]
    return BRACKET_POINTS[reached[-1] if reached else 0]


def counted(state: State, seat: int, option: str) -> int:
    player: Player = state.players[seat]
    return {
        "queen": len(player.favours) + len(player.used_favours),  # used or not
        "coins": player.coins,
        "archduke": deeds_held(state, seat),
        "archmage": len(player.cast),  # spells cast, never those sold
    }[option]


def royal_points(state: State, seat: int, option: str) -> int:
    return KING_POINTS if option == "king" else bracket(option, counted(state, seat, option))


def people_points(player: Player) -> tuple[int, ...]:
    return tuple(TRACKS.scores[level] for level in player.levels)


def begin_end(ctx: Ctx) -> None:
    """After the last turn: uncast spells to coins, privileges to points, then the royal order."""
    for seat, player in enumerate(ctx.state.players):
        ctx.emit(ev.Exchanged(seat=seat, spells=len(player.hand), privileges=player.privileges))
    ctx.emit(ev.RoyalOrder(order=royal_order(ctx.state)))


def legal_scorings(state: State, seat: int) -> list[ChooseScoring]:
    if state.phase != "royal" or state.royal_order[0] != seat:
        return []
    return [ChooseScoring(option=o) for o in OPTIONS if o not in state.royal_taken]


def choose(state: State, command: ChooseScoring, seat: int) -> list:
    require(command.option in OPTIONS, "no_such_scoring", "no royal scoring {option!r}", option=command.option)
    require(command.option not in state.royal_taken, "scoring_taken", "each scoring opportunity is taken once")
    ctx = Ctx(state)
    ctx.emit(ev.ScoringChosen(seat=seat, option=command.option, points=royal_points(state, seat, command.option)))
    if command.option == "king":  # one level on every track, with no bonus any more
        for people in PEOPLES:
            gain_level(ctx, seat, people, bonus=False)
    if ctx.state.royal_order:
        return ctx.events
    if state.seats == 2 and len(ctx.state.royal_taken) == 2:
        # the Queen's round is ordered now, after the King pick's level on every track (rulebook order)
        ctx.emit(ev.RoyalOrder(order=tuple(order_by_track(ctx.state, ctx.state.queen, [0, 1]))))
    else:
        finish(ctx)
    return ctx.events


def finish(ctx: Ctx) -> None:
    for seat, player in enumerate(ctx.state.players):
        ctx.emit(ev.PeopleScored(seat=seat, points=people_points(player)))
    scores = tuple(p.points for p in ctx.state.players)
    best = max(scores)
    # the tie rule is "whoever has the next birthday": no birthdays here, so tied leaders share the win
    ctx.emit(ev.GameOver(scores=scores, winners=tuple(s for s, v in enumerate(scores) if v == best)))


def result(state: State) -> Result | None:
    if state.phase != "over":
        return None
    standings = tuple(
        Standing(seat=s, rank=1 + sum(v > score for v in state.scores), score=score)
        for s, score in enumerate(state.scores)
    )
    return Result(winners=state.winners, standings=standings)
