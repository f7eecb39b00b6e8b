"""Tavern Masters, with its Dirty Deeds expansion (1 to 6 seats; competitive, co-operative, solo)."""

from __future__ import annotations

from domain.kernel import Game, OptionSpec
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.commands import TMCommand
from domain.tavern_masters.events import TMEvent
from domain.tavern_masters.rules import begin, decide, legal
from domain.tavern_masters.scoring import result
from domain.tavern_masters.state import CHALLENGE_ROUNDS, evolve, initial
from domain.tavern_masters.views import TMView, event_view, hidden, view

GAME = Game(
    id="tavern-masters",
    name="Tavern Masters",
    rulebook="tavern-masters-rules-2018.txt (with tavern-masters-booklet.txt)",
    min_seats=1,
    max_seats=6,
    options=(
        OptionSpec(
            "mode",
            ("competitive", "cooperative", "solo"),
            "competitive",
            "competitive: the most Gold at the end wins; cooperative or solo: every player with 20 Gold or more "
            "after the Challenge Chart's rounds wins (rulebook, Challenge Chart)",
        ),
        OptionSpec(
            "challenge",
            tuple(CHALLENGE_ROUNDS),
            "buzzed",
            "the Challenge Chart's level in cooperative or solo play, the number of rounds to reach 20 Gold: "
            "buzzed 6, tipsy 5, sloshed 4, hammered 3, wasted 2 (fewer is harder)",
        ),
        OptionSpec(
            "dirty_deeds",
            (False, True),
            False,
            "play with the Dirty Deeds expansion: its deck, and a Dirty Deeds phase between the Night phase and "
            "Counting the Till, to play cards against another player's Hand and Tavern",
        ),
    ),
    command_type=TMCommand,
    event_type=TMEvent,
    view_type=TMView,
    initial=initial,
    begin=begin,
    evolve=evolve,
    decide=decide,
    legal=legal,
    view=view,
    event_view=event_view,
    hidden=hidden,
    result=result,
    bots={"greedy": GreedyBot},
)
