"""The shared kernel: the game interface, seats, the rules error and the seeded random source."""

from domain.kernel.errors import RulesError, require
from domain.kernel.game import (
    AnyGame,
    Bot,
    Command,
    Event,
    Game,
    OptionSpec,
    Result,
    ScoreLine,
    ScoreLines,
    Seat,
    Setup,
    Standing,
    viewers,
)
from domain.kernel.rng import Rng
from domain.kernel.table import StuckError, Table, bot_turn, fold, play

__all__ = [
    "AnyGame", "Bot", "Command", "Event", "Game", "OptionSpec", "Result", "RulesError", "Rng", "ScoreLine",
    "ScoreLines", "Seat", "Setup", "Standing", "StuckError", "Table", "bot_turn", "fold", "play", "require", "viewers",
]
