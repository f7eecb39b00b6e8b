"""The search bot of Taverna: determinized Monte Carlo (domain/kernel/search.py) over what a seat
cannot see (the other hands, the sold spells, the spell, customer and favour piles), sampled from
its view, with the greedy bot playing on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from domain.kernel import Game, Rng, Seat, Setup
from domain.kernel.search import Search, margin
from domain.taverna.bot import COIN, PRIVILEGE, SPELL, GreedyBot
from domain.taverna.content import CUSTOMERS, FAVOURS, PEOPLES, SPELLS, TRACKS, taverns_for
from domain.taverna.state import Answer, Player, State, initial
from domain.taverna.views import TavernaView


def _deal(pool: list[str], count: int) -> tuple[tuple[str, ...], list[str]]:
    return tuple(pool[:count]), pool[count:]


def sample(seen: TavernaView, rng: Rng, options: Mapping[str, Any]) -> State:
    """A state this view could come from. The spells nobody shows are dealt at random into the other
    hands, every seat's sold pile (the view counts even the viewer's own) and the draw pile; the
    Curse goes into the pile when the counts leave room for it (it is gone once drawn). The match's
    options rule it (with ``off_turn_favours``, the other seats' favours in this seat's turns), and
    other seats set no "always pass"."""
    seats = len(seen.players)
    base = initial(Setup(seats, dict(options)))
    own = seen.seat
    assert own is not None, "a bot's view is a seat's"
    shown = {*seen.players[own].hand, *(card for p in seen.players for card in p.cast)}
    spells = [s for s in SPELLS if s not in shown]
    wanted = seen.spell_deck + sum(p.sold_count + (p.hand_count if p.seat != own else 0) for p in seen.players)
    curse = [s for s in spells if SPELLS[s].curse] if len(spells) == wanted else []  # still in the pile
    spells = rng.shuffle([s for s in spells if not SPELLS[s].curse])
    players = []
    for p in seen.players:
        hand = p.hand
        if p.seat != own:
            hand, spells = _deal(spells, p.hand_count)
        sold, spells = _deal(spells, p.sold_count)
        levels = tuple(p.levels[people] for people in PEOPLES)
        players.append(Player(
            coins=p.coins, points=p.points, levels=levels, hand=hand, cast=p.cast, sold=sold, favours=p.favours,
            used_favours=p.used_favours, privileges=p.privileges, customers=p.customers, scorings=p.scorings,
            auto_pass=seen.auto_pass if p.seat == own else False,
        ))
    for card in curse:  # what is left is the pile
        spells.insert(rng.below(len(spells) + 1), card)
    placed = {*seen.row, *(card for p in seen.players for card in p.customers)}
    customers = rng.shuffle([c for c, card in CUSTOMERS.items() if card.players <= seats and c not in placed])
    held = {*seen.castle, *(f for p in seen.players for f in (*p.favours, *p.used_favours))}
    favours = rng.shuffle([f for f in FAVOURS if f not in held])
    printed = taverns_for(seats)
    taverns = {
        t.id: replace(base.taverns[t.id], tables=t.customers, deeds=tuple(d.owner for d in t.deeds),
                      guilds=t.symbols[len(printed[t.id].symbols):], privilege=t.privilege, dignitaries=t.dignitaries)
        for t in seen.taverns
    }
    return replace(
        base, phase=seen.phase, king=seen.king, queen=seen.queen, taverns=taverns, players=tuple(players),
        row=seen.row, customer_deck=tuple(customers[: seen.customer_deck]), spell_deck=tuple(spells[: seen.spell_deck]),
        castle=seen.castle, favour_reserve=tuple(favours[: seen.favour_reserve]),
        privilege_reserve=seen.privilege_reserve, guild_supply=dict(seen.guild_supply), tiles=dict(seen.tiles),
        deed_order=seen.deed_order, turn=seen.turn,
        answers=(Answer(seat=own, cast=seen.answer),) if seen.answered else (),
        turns_played=seen.turns_played, royal_order=seen.royal_order, royal_taken=seen.royal_taken,
        scores=seen.scores, winners=seen.winners,
    )


def scores(state: State) -> list[float]:
    """Points so far, what the tracks would score now, and coins, spells and privileges as the greedy
    bot weighs them; the final scores once the match is over."""
    if state.phase == "over":
        return list(state.scores)
    return [
        p.points + sum(TRACKS.scores[level] for level in p.levels) + COIN * p.coins + SPELL * len(p.hand)
        + PRIVILEGE * p.privileges
        for p in state.players
    ]


def _worth(state: State, seat: Seat) -> float:
    return margin(scores(state), seat)


def search_bot(game: Game, options: Mapping[str, Any]) -> Search:
    return Search(game, sample, _worth, seats=lambda state: state.seats, policy=GreedyBot, options=options,
                  budget=320, horizon=20, width=4)
