"""Tavern Masters, with its Dirty Deeds expansion (1 to 6 seats; competitive, co-operative, solo)."""

from __future__ import annotations

from domain.kernel import Game, OptionSpec
from domain.kernel.undo import only
from domain.tavern_masters import events as ev
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.breakdown import breakdown
from domain.tavern_masters.commands import TMCommand
from domain.tavern_masters.content import CARD_LISTS
from domain.tavern_masters.events import TMEvent, offer_from_rules_1
from domain.tavern_masters.planner import PlannerBot
from domain.tavern_masters.rules import begin, decide, legal
from domain.tavern_masters.scoring import result
from domain.tavern_masters.search import search_bot
from domain.tavern_masters.state import CHALLENGE_ROUNDS, State, evolve, initial
from domain.tavern_masters.views import TMView, event_view, hidden, view

GAME: Game[State, TMCommand, TMEvent] = Game(
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
        OptionSpec("round_cap", (10, 20, 0), 10,
                   "competitive: the last round, most Gold winning (ours: keeps bot tables finite); 0 plays on "
                   "as the rulebook does until a seat has 20 Gold (greedy bots always get there; random ones may not)"),
        OptionSpec("draft", ("2018", "booklet"), "2018",
                   "the opening draft of 4 cards: keep 3, the last card to the discard pile (the 2018 rules, which "
                   "win where the two differ), or keep all 4, 'until they are handed their last card to keep' "
                   "(the Kickstarter booklet); a single seat draws 4-3-2-1 either way (RULINGS.md 5)"),
        OptionSpec("card_list", CARD_LISTS, CARD_LISTS[0],
                   "our card list (the rulebooks print none): 2 (issue 21) makes every Challenge level winnable, "
                   "each harder than the one before; 1, the first list, where Hammered and Wasted cannot be won, "
                   "is kept so that its matches replay (seeds/tavern-masters/RULINGS.md 1a)"),
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
    breakdown=breakdown,
    bots={"greedy": lambda options: GreedyBot(), "search": lambda options: search_bot(GAME, options),
          "planner": lambda options: PlannerBot()},
    # each kind's generation, bumped when its moves change (docs/AUDIT.md); search 2: issue 36's playouts,
    # 3: its playouts scored by the planner's projection, with twice the budget; 4: at 2 seats it deals the
    # rival the draft cards the seat passed it (RULINGS.md 46)
    bot_generations={"search": 4},
    rules_version=2,  # 2: open trading, offers written in steps (seeds/tavern-masters/RULINGS.md 22)
    upcasters={(1, "Offer"): offer_from_rules_1},
    # what a seat may take back (Undo): a draft pick, a mulligan kept, a card played or moved, an offer
    # still being written, being done (RULINGS.md, Undo)
    undoable=only(ev.Picked, ev.MulliganChosen, ev.CardPlayed, ev.CardMoved, ev.GoldChanged, ev.SeatDone,
                  ev.OfferOpened, ev.OfferCardAdded, ev.OfferGoldSet),
)
