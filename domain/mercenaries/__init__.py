"""Tavernkeepers and Mercenaries (fan rulebook v3.0): two tavernkeepers hire card mercenaries and fight."""

from __future__ import annotations

from domain.kernel import Game, OptionSpec
from domain.kernel.undo import only
from domain.mercenaries import events as ev
from domain.mercenaries.bot import CarefulBot, GreedyBot
from domain.mercenaries.breakdown import breakdown
from domain.mercenaries.commands import MercenariesCommand
from domain.mercenaries.events import MercenariesEvent
from domain.mercenaries.rules import begin, decide, legal
from domain.mercenaries.scoring import result
from domain.mercenaries.search import search_bot
from domain.mercenaries.state import State, evolve, initial
from domain.mercenaries.views import MercenariesView, event_view, hidden, view

GAME: Game[State, MercenariesCommand, MercenariesEvent] = Game(
    id="mercenaries",
    name="Tavernkeepers and Mercenaries",
    rulebook="tavernkeepers-and-mercenaries.txt",
    min_seats=2,
    max_seats=2,
    options=(
        OptionSpec("best_of", (1, 3), 1, "1: one game decides the match; 3: the first to win two games wins"),
        OptionSpec("ava_trash", ("losing_side", "lowest_overall"), "losing_side",
                   "Attack vs Attack trashes the losing side's lowest Sword (our reading), or the lowest Sword "
                   "of all participants, the winner's included (the text's 'the participating mercenary')"),
        OptionSpec("sell_from", ("hand", "hand_or_field"), "hand",
                   "the Morning's 'Sell 1 mercenary for its Contract value': a card from the hand (our reading: "
                   "field mercenaries leave only through wages or as a Contract cost), or also one on the "
                   "field (RULINGS.md, Selling)"),
    ),
    command_type=MercenariesCommand,
    event_type=MercenariesEvent,
    view_type=MercenariesView,
    initial=initial,
    begin=begin,
    evolve=evolve,
    decide=decide,
    legal=legal,
    view=view,
    event_view=event_view,
    hidden=hidden,
    result=result,
    breakdown=breakdown,
    bots={"greedy": lambda options: GreedyBot(), "careful": lambda options: CarefulBot(),
          "search": lambda options: search_bot(options)},
    # each kind's generation, bumped when its moves change (docs/AUDIT.md); search 2: issue 36's playouts;
    # search 3: its own simulator's playouts (domain/mercenaries/playout.py)
    bot_generations={"search": 3},
    # what a seat may take back (Undo): a position, a sale, a dismissal, a phase ended (RULINGS.md, Undo)
    undoable=only(ev.PositionSet, ev.MercenarySold, ev.MercenaryDismissed, ev.PhaseBegan),
)
