"""Taverna (Karl Marcelle, Geek Attitude Games), 2 to 5 seats.

Where things are: content.py (seeds/taverna/*.json), state.py (state and evolve), rules.py (who acts
when: setup, deed rounds, the turn's steps, the end), board.py (taverns), tracks.py (people tracks,
royal order), customers.py (pick and place: Trickery, income, Feast, Magic, Influence),
dignitaries.py (Notary, Gob'Trotter, Princess, Ambassador), spells.py (the effect vocabulary, instant
answers, selling), deck.py (drawing, the Curse), favours.py (royal favours), scoring.py (the end),
views.py (what each seat sees), bot.py (the greedy bot). Rulings: seeds/taverna/RULINGS.md.
"""

from __future__ import annotations

from domain.kernel import Game, OptionSpec
from domain.kernel.undo import only
from domain.taverna import events as ev
from domain.taverna.bot import GreedyBot
from domain.taverna.breakdown import breakdown
from domain.taverna.commands import SetAutoPass, TavernaCommand
from domain.taverna.events import TavernaEvent, passed_to_answered, responders_answered_at_once
from domain.taverna.rules import begin, decide, legal
from domain.taverna.scoring import result
from domain.taverna.search import search_bot
from domain.taverna.spells import automatic, sealed
from domain.taverna.state import State, evolve, initial
from domain.taverna.views import TavernaView, event_view, hidden, view

GAME: Game[State, TavernaCommand, TavernaEvent] = Game(
    id="taverna",
    name="Taverna",
    rulebook="taverna.txt",
    min_seats=2,
    max_seats=5,
    options=(
        OptionSpec(
            "curse",
            (True, False),
            True,
            "shuffle the Curse into the spell cards (the rulebook's optional card): it is not a spell; "
            "whoever draws it suffers it at once and draws again (it costs 2 coins here: our ruling)",
        ),
        OptionSpec("repeat_favour_kinds", (False, True), False,
                   "allow several royal favour tiles of the same kind in one turn (the text asks only for "
                   "'different' tiles; by default one of each kind, so two 'second spell' tiles never give three)"),
        OptionSpec("repeat_privilege_right", (False, True), False,
                   "allow the two-privilege dignitary activation more than once a turn, two tokens each time "
                   "(by default once, reading 'activate one more dignitary' as one)"),
        OptionSpec("off_turn_favours", (True, False), True,
                   "royal favours 'at any time during any turn': at each step of another seat's turn (card "
                   "picked, customer placed, turn ending) every seat holding a favour it could use is asked at "
                   "once (guild token, level, move a customer); off: favours on one's own turn only (rules "
                   "version 2, ruling 22)"),
        OptionSpec("notary_second_deed", (False, True), False,
                   "the Notary may buy a deed in a tavern where the buyer holds one already, reading 'a single "
                   "player can only have one property deed in each tavern' as part of the setup's deed rounds, "
                   "where the rulebook prints it (by default it holds all game long, RULINGS.md 16; an owner is paid "
                   "once)"),
        OptionSpec("auto_pass_entries", (True,), True,
                   "rules version 4 (always on): an 'always pass' answer to an instant-spell prompt is an entry of its "
                   "own, sent for the seat after the prompt opens (RULINGS.md 19); matches recorded earlier lack the "
                   "option and fold as they were played"),
    ),
    command_type=TavernaCommand,
    event_type=TavernaEvent,
    view_type=TavernaView,
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
    bots={"greedy": lambda options: GreedyBot(), "search": lambda options: search_bot(GAME, options)},
    # each kind's generation, bumped when its moves change (docs/AUDIT.md); search 2: issue 36's playouts;
    # 3: never offered the "always pass" setting (``setting``)
    bot_generations={"search": 3},
    automatic=automatic,
    setting=lambda command: isinstance(command, SetAutoPass),
    sealed=sealed,
    # 2: sealed instant-spell prompts (seeds/taverna/RULINGS.md 19); 3: favour windows in other seats'
    # turns (ruling 22), which a match recorded earlier (its options lack ``off_turn_favours``) never opens;
    # 4: "always pass" answers as entries of their own, never inside the prompt's opening (ruling 19)
    rules_version=4,
    upcasters={(1, "Passed"): passed_to_answered, (3, "Responders"): responders_answered_at_once},
    # what a seat may take back (Undo): its deeds, picks, placements and their gains, favours and
    # dignitaries, a spell sold face down, its own setting (RULINGS.md, Undo)
    undoable=only(ev.DeedBought, ev.DeedPassed, ev.CustomerPicked, ev.CardChanged, ev.CustomerPlaced,
                  ev.CustomerMoved, ev.LevelGained, ev.Gained, ev.PrivilegeClaimed, ev.GuildPlaced,
                  ev.FavourTaken, ev.FavourUsed, ev.DignitaryActivated, ev.DignitaryMoved, ev.SpellSold,
                  ev.AutoPassSet),
)
