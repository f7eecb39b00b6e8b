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
from domain.taverna.bot import GreedyBot
from domain.taverna.commands import TavernaCommand
from domain.taverna.events import TavernaEvent
from domain.taverna.rules import begin, decide, legal
from domain.taverna.scoring import result
from domain.taverna.state import evolve, initial
from domain.taverna.views import TavernaView, event_view, hidden, view

GAME = Game(
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
    bots={"greedy": GreedyBot},
)
