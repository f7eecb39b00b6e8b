"""The end of a match in categories: the points scored in play (deeds, guild tokens, the people
tracks' bonuses, spells), then the End of game's steps: unused privileges, the royal scoring and
the people scoring, one line per people, as each seat's tally kept them (state.py)."""

from __future__ import annotations

from domain.kernel import ScoreLine, ScoreLines
from domain.taverna.content import PEOPLES
from domain.taverna.state import State

ACCOUNTS = ("deeds", "guilds", "tracks", "spells", "privileges", "royal")
CATEGORIES = (*ACCOUNTS, *PEOPLES)


def breakdown(state: State) -> ScoreLines | None:
    if state.phase != "over":
        return None
    lines = [ScoreLine(name, tuple(getattr(p.tally, name) for p in state.players)) for name in ACCOUNTS]
    people = [ScoreLine(name, tuple(p.tally.people[i] for p in state.players)) for i, name in enumerate(PEOPLES)]
    return (*lines, *people)
