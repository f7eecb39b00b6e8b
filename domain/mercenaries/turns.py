"""The flow of a match: games, turns, the Night's wages, and the ends of games and of the match."""

from __future__ import annotations

from domain.kernel import Rng
from domain.mercenaries import events as ev
from domain.mercenaries.content import SETTINGS, deck_of, rank_of
from domain.mercenaries.state import NIGHT, Player, Step


def other(seat: int) -> int:
    return 1 - seat


def roll_off(rng: Rng) -> tuple[tuple[tuple[int, int], ...], int]:
    """Both seats roll 1d6, again while tied; the seat with the higher die wins."""
    rolls: list[tuple[int, int]] = []
    while True:
        pair = (rng.die(), rng.die())
        rolls.append(pair)
        if pair[0] != pair[1]:
            return tuple(rolls), 0 if pair[0] > pair[1] else 1


def start_match(step: Step, rng: Rng) -> None:
    rolls, first = roll_off(rng)
    step.add(ev.StartingRoll(rolls=rolls, first=first))
    start_game(step, 1, first, rng)


def start_game(step: Step, number: int, first: int, rng: Rng) -> None:
    """Fresh HP, Gold and treasury; each seat's own deck shuffled; four cards each; the first turn."""
    step.add(ev.GameBegan(number=number, first=first))
    for seat in range(len(step.state.players)):
        order = tuple(rng.shuffle(deck_of(seat)))
        step.add(ev.DeckShuffled(seat=seat, cards=order, count=len(order)))
    for seat in range(len(step.state.players)):
        draw(step, seat, SETTINGS["starting_hand"])
    begin_turn(step, first, rng)


def draw(step: Step, seat: int, count: int) -> None:
    cards = step.state.players[seat].deck[:count]
    step.add(ev.CardsDrawn(seat=seat, cards=cards, count=len(cards)))


def begin_turn(step: Step, seat: int, rng: Rng) -> None:
    """The Morning's income and draw; a seat that cannot draw loses the game."""
    step.add(ev.TurnBegan(seat=seat, turn=step.state.turn + 1))
    step.add(ev.IncomeTaken(seat=seat, amount=min(SETTINGS["income"], step.state.treasury)))
    if len(step.state.players[seat].deck) < SETTINGS["morning_draw"]:
        end_game(step, other(seat), "deck_out", rng)
        return
    draw(step, seat, SETTINGS["morning_draw"])


def end_game(step: Step, winner: int, reason: str, rng: Rng, tiebreak_rolls: tuple[tuple[int, int], ...] = ()) -> None:
    """Record the game; the match ends when a seat has won a majority, else the loser starts the next."""
    state = step.state
    step.add(ev.GameWon(number=state.number, winner=winner, reason=reason, tiebreak_rolls=tiebreak_rolls))
    if step.state.wins[winner] > state.best_of // 2:
        step.add(ev.MatchWon(winner=winner))
        return
    start_game(step, state.number + 1, other(winner), rng)


def both_fallen(players: tuple[Player, ...], rng: Rng) -> tuple[int, str, tuple[tuple[int, int], ...]]:
    """Both at 0 HP: more Gold wins, then more HP, then a 1d6 roll-off."""
    for field in ("gold", "hp"):
        values = [getattr(p, field) for p in players]
        if values[0] != values[1]:
            return (0 if values[0] > values[1] else 1), f"both_fell_{field}", ()
    rolls, winner = roll_off(rng)
    return winner, "both_fell_roll", rolls


def check_fallen(step: Step, rng: Rng) -> bool:
    """After damage: a game ends at once when a Tavernkeeper is at 0 HP."""
    standing = [seat for seat, p in enumerate(step.state.players) if p.hp > 0]
    if len(standing) == len(step.state.players):
        return False
    if standing:
        end_game(step, standing[0], "hp", rng)
    else:
        winner, reason, rolls = both_fallen(step.state.players, rng)
        end_game(step, winner, reason, rng, rolls)
    return True


def wages_due(player: Player) -> int:
    return sum(rank_of(m.card).wage for m in player.field)


def begin_night(step: Step, rng: Rng) -> None:
    seat = step.state.active
    step.add(ev.PhaseBegan(seat=seat, phase=NIGHT))
    if step.state.all_in_turn:
        step.add(ev.WagesWaived(seat=seat))
        begin_turn(step, other(seat), rng)
        return
    settle_wages(step, rng)


def settle_wages(step: Step, rng: Rng) -> None:
    """Pay the wages if the Gold covers them (then the turn passes); otherwise wait for dismissals."""
    seat = step.state.active
    due = wages_due(step.state.players[seat])
    if due > step.state.players[seat].gold:
        return
    step.add(ev.WagesPaid(seat=seat, amount=due))
    begin_turn(step, other(seat), rng)
