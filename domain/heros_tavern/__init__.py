"""Hero's Tavern (Greg Santo Games): draft a tavern over five rounds, buy the cards worth keeping."""

from __future__ import annotations

from domain.heros_tavern import breakdown, rules, views
from domain.heros_tavern import events as ev
from domain.heros_tavern.bot import GreedyBot
from domain.heros_tavern.commands import HtCommand
from domain.heros_tavern.events import HtEvent
from domain.heros_tavern.search import search_bot
from domain.heros_tavern.state import State, evolve, initial
from domain.kernel import Game, OptionSpec
from domain.kernel.undo import only

GAME: Game[State, HtCommand, HtEvent] = Game(
    id="heros-tavern",
    name="Hero's Tavern",
    rulebook="heros-tavern.txt",
    min_seats=3,
    max_seats=5,
    options=(
        OptionSpec(
            "shopkeeper_cap", (False, True), False,
            "The Shopkeeper scores your Market cards + 1 heroes (rulebook, 'Shopkeeper'); true caps that at 6, "
            "as the reference card's 'Staff 1 to 6' suggests (ruling HT-9). Default false: no cap.",
        ),
        OptionSpec(
            "zero_entertainment_second", (False, True), False,
            "seats with no Entertainment card share second place (3 heroes) when one seat alone has any; "
            "by default they take no place, as the round 1 example shows (HT-3)",
        ),
        OptionSpec(
            "finite_tokens", (False, True), False,
            "the box's 50 tokens of each kind, never returned once spent; a kind that runs short is handed "
            "out one token at a time round the table (RULINGS.md)",
        ),
        OptionSpec(
            "staff_copies", ("each", "once"), "each",
            "two copies of one staff card (2 of each exist): each scores on its own (HT-8, our reading: "
            "'each staff card attracts additional heroes'), or the second adds nothing (a staff card is a "
            "bonus to its card type, which a second copy does not make larger)",
        ),
    ),
    command_type=HtCommand,
    event_type=HtEvent,
    view_type=views.HtView,
    initial=initial,
    begin=rules.begin,
    evolve=evolve,
    decide=rules.decide,
    legal=rules.legal,
    view=views.view,
    views=views.views,
    event_view=views.event_view,
    hidden=views.hidden,
    result=rules.result,
    breakdown=breakdown.breakdown,
    bots={"greedy": lambda options: GreedyBot(), "search": lambda options: search_bot(GAME, options)},
    # each kind's generation, bumped when its moves change (docs/AUDIT.md); search 2: issue 36's playouts
    bot_generations={"search": 2},
    # what a seat may take back (Undo): a face-down pick, a purchase, its end (RULINGS.md, Undo)
    undoable=only(ev.CardPicked, ev.CardBought, ev.PurchasesFinished),
)
