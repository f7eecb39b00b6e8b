"""The PettingZoo AEC environment of one game: a match held in memory (``domain.kernel.Table``),
each seat an agent that observes only its own view and acts from its ``legal`` list.

- Who acts: the seat the table picks (``Table.next_actor``: at random, from the match seed, among
  the seats that may act, as ``tavern simulate`` does), so simultaneous steps (a draft, a sealed
  prompt) are taken one seat at a time.
- Observation: ``{"observation": ..., "action_mask": ...}``; the observation is the seat's view and
  legal list (``projections.views.envelope``, the service's own) encoded as a vector (default) or as
  a dict of named features (``observation="dict"``); the mask marks the legal actions.
- Reward: 0 until the match ends, then +1 for each seat among the result's winners and -1 for every
  other (a co-operative table all win or all lose); ``infos[agent]`` then holds its rank and score.
- Seeding: ``reset(seed=n)`` plays the match with seed ``str(n)`` (the rules' and the table's draws,
  ``domain/kernel/rng.py``); a reset with no seed plays the next match of the last seed's sequence.
- A seat's own standing setting (Taverna's "always pass") answers for it as the service's does
  (``Game.automatic``), so the agent is not asked what its setting already says.
- ``render()`` with ``render_mode="ansi"``: the last step's events narrated as a spectator reads
  them (``projections.narration``), then who acts next or the result.
"""

from __future__ import annotations

import importlib
import secrets
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from domain.games import get_game
from domain.kernel import Command, Table
from environments.actions import MASK_DTYPE
from environments.encoding import Features, dict_space, layout, vector, vector_space
from environments.games import Encoding
from projections.narration import narrate
from projections.views import envelope

OBSERVATIONS = ("vector", "dict")
RENDER_MODES = ("ansi",)
_ENCODINGS = {
    "heros-tavern": "environments.games.heros_tavern",
    "tavern-masters": "environments.games.tavern_masters",
    "taverna": "environments.games.taverna",
    "mercenaries": "environments.games.mercenaries",
}


def encoding(game_id: str) -> Encoding:
    module: Any = importlib.import_module(_ENCODINGS[game_id])
    found: Encoding = module.ENCODING
    return found


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class TavernEnv(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "name": "tavern_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
        observation: str = "vector",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.game = get_game(game)
        self.setup = self.game.setup(seats if seats is not None else self.game.min_seats, options)
        self.encoding = encoding(game)
        self.observation_kind = observation
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.setup.seats)]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._base_seed, self._resets = secrets.token_hex(8), 0
        self.table = Table(self.game, self.setup, f"{self._base_seed}:spaces")
        sample = self._features(0)  # every observation has the same features and sizes
        self._vector_space = vector_space(sample)
        inner = self._vector_space if observation == "vector" else dict_space(sample)
        actions = self.encoding.actions.size
        mask = spaces.Box(0, 1, shape=(actions,), dtype=MASK_DTYPE)
        self._observation_spaces = {
            a: spaces.Dict({"observation": inner, "action_mask": mask}) for a in self.possible_agents
        }
        # one action space each: PettingZoo's seed test seeds each agent's own sampler
        self._action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._shown: list[Any] = []  # the last step's events, for render()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; ``options`` is PettingZoo's per-reset argument, unused: the match's options are
        the environment's (``env(game, options=...)``)."""
        if seed is not None:
            self._base_seed, self._resets = str(seed), 0
        match_seed = self._base_seed if self._resets == 0 else f"{self._base_seed}:{self._resets}"
        self._resets += 1
        self.table = Table(self.game, self.setup, match_seed)
        self._shown = [*self.table.events, *self._automatic()]
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.table.next_actor())

    def legal(self, agent: str) -> list[Command]:
        """The agent's legal commands, in the rules' order (the service's envelope shows the same)."""
        legal: list[Command] = self.game.legal(self.table.state, self._seats[agent])
        return legal

    def command(self, agent: str, action: int | np.integer) -> Command:
        """The command ``action`` sends for ``agent`` now; an ``ActionError`` if the mask refuses it."""
        return self.encoding.actions.command(int(action), self.legal(agent))

    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(feature, offset, size) of each feature in the vector observation, in order; the dict
        observation has the same features by name."""
        return layout(self._features(0))

    def _automatic(self) -> list[Any]:
        """Send what the seats' own settings send (``Game.automatic``) until none sends more."""
        automatic, sent = self.game.automatic, []
        while automatic is not None and not self.table.finished:
            due = [(s, c) for s in range(self.setup.seats) if (c := automatic(self.table.state, s)) is not None]
            if not due:
                break
            sent.extend(self.table.submit(*due[0]))
        return sent

    def _features(self, seat: int) -> Features:
        seen = envelope(self.game, "", self.table.state, self.table.version, seat)
        features = Features()
        self.encoding.encode(features, seen.view, seat, self.setup.seats)
        self.encoding.actions.describe(features, seen.legal)
        return features

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seats[agent]
        features = self._features(seat)
        inner = vector(features, self._vector_space) if self.observation_kind == "vector" else features.values
        return {"observation": inner, "action_mask": self.encoding.actions.mask(self.legal(agent))}

    def step(self, action: int | np.integer | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        command = self.command(agent, action)
        self._shown = [*self.table.submit(self._seats[agent], command), *self._automatic()]
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        result = self.game.result(self.table.state)
        if result is None:
            self.agent_selection = agent_name(self.table.next_actor())
        else:
            standings = {s.seat: s for s in result.standings}
            for a in self.agents:
                seat = self._seats[a]
                self.rewards[a] = 1 if seat in result.winners else -1
                self.terminations[a] = True
                self.infos[a] = {"rank": standings[seat].rank, "score": standings[seat].score}
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        lines = [text for event in self._shown if (text := narrate(self.game, event, None))]
        result = self.game.result(self.table.state)
        if result is None:
            lines.append(f"{self.agent_selection} to act (move {self.table.version}).")
        else:
            winners = ", ".join(agent_name(s) for s in result.winners) or "nobody"
            lines.append(
                f"Over: {winners} won; "
                + ", ".join(f"{agent_name(s.seat)} rank {s.rank} score {s.score}" for s in result.standings)
                + "."
            )
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing held open: the match lives in memory."""
