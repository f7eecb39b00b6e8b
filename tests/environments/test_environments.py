"""The research environments (environments/): PettingZoo's own API and seeding tests over every game
and its options, masks that are the rules' legal lists, episodes that end as the rules core says,
and observations that show a seat nothing it may not know."""

from __future__ import annotations

import random
import re
import runpy
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from domain.kernel import Table, fold
from environments import TavernEnv, env
from environments.actions import ActionError, LegalSlots

ROOT = Path(__file__).resolve().parents[2]

# (game, seats, options): every game, each option that changes what is played or seen
VARIANTS = [
    ("heros-tavern", 3, {}),
    ("heros-tavern", 5, {"finite_tokens": True, "shopkeeper_cap": True}),
    ("tavern-masters", 4, {}),
    ("tavern-masters", 3, {"dirty_deeds": True}),
    ("tavern-masters", 3, {"mode": "cooperative", "challenge": "wasted"}),
    ("tavern-masters", 1, {"mode": "solo"}),
    ("taverna", 2, {}),
    ("taverna", 5, {"curse": False, "off_turn_favours": False}),
    ("mercenaries", 2, {}),
    ("mercenaries", 2, {"best_of": 3, "ava_trash": "lowest_overall"}),
]
IDS = [f"{g}-{s}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, s, o in VARIANTS]


# Every warning of the API test fails it but two that the chosen shapes give: the observation is a Dict of
# "observation" and "action_mask" (PettingZoo's own convention for masked games, as its chess), and
# with observation="dict" the inner observation is a dict of arrays, not one array.
@pytest.mark.filterwarnings(
    "error",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
@pytest.mark.parametrize(("game", "seats", "options"), VARIANTS, ids=IDS)
@pytest.mark.parametrize("observation", ["vector", "dict"])
def test_pettingzoo_api_test(game: str, seats: int, options: dict[str, Any], observation: str) -> None:
    api_test(env(game, seats=seats, options=options, observation=observation, render_mode="ansi"), num_cycles=20)


@pytest.mark.parametrize(("game", "seats", "options"), VARIANTS[::2], ids=IDS[::2])
def test_pettingzoo_seed_test(game: str, seats: int, options: dict[str, Any]) -> None:
    seed_test(lambda: env(game, seats=seats, options=options), num_cycles=20)


class Played(list[tuple[int, Any]]):
    """The (seat, command) sent, in order; the rewards each agent was given, and its last info."""

    rewards: dict[str, float]
    infos: dict[str, dict[str, Any]]


def play(e: TavernEnv, seed: int, steps: int | None = None, check: bool = False) -> Played:
    """Random masked actions from ``reset(seed)``: to the end, or for ``steps`` moves; with ``check``
    every agent's mask is compared with its legal list on the way."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    sent = Played()
    sent.rewards, sent.infos = dict.fromkeys(e.possible_agents, 0.0), {}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        sent.rewards[agent] += reward
        if terminated or truncated:
            sent.infos[agent] = info
            e.step(None)
            continue
        if steps is not None and len(sent) == steps:
            break
        for other in e.agents if check else ():
            mask = e.observe(other)["action_mask"]
            chosen = [e.command(other, int(i)) for i in np.flatnonzero(mask)]
            assert sorted(map(msgspec.json.encode, chosen)) == sorted(map(msgspec.json.encode, e.legal(other)))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        sent.append((int(agent.removeprefix("seat_")), e.command(agent, action)))
        e.step(action)
    return sent


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("heros-tavern", 4, {}),
        ("taverna", 3, {}),
        ("mercenaries", 2, {}),
        ("tavern-masters", 1, {"mode": "solo"}),
        ("tavern-masters", 2, {"dirty_deeds": True}),  # through its Dirty Deeds phases
        ("tavern-masters", 2, {"mode": "cooperative", "challenge": "wasted"}),  # all win or all lose
    ],
)
def test_an_episode_ends_as_the_rules_core_says(game: str, seats: int, options: dict[str, Any]) -> None:
    e = env(game, seats=seats, options=options)
    sent = play(e, seed=5)
    assert not e.agents
    # the same commands sent to the rules core with the same seed: the same match, the same result
    table = Table(e.game, e.setup, "5")
    for seat, command in sent:
        table.submit(seat, command)
        while e.game.automatic and (due := [(s, c) for s in range(seats) if (c := e.game.automatic(table.state, s))]):
            table.submit(*due[0])
    assert table.events == e.table.events
    result = e.game.result(fold(e.game, e.setup, table.events))
    assert result is not None
    assert sent.rewards == {f"seat_{s}": 1 if s in result.winners else -1 for s in range(seats)}
    assert sent.infos == {f"seat_{s.seat}": {"rank": s.rank, "score": s.score} for s in result.standings}


def test_masks_are_the_legal_lists_throughout_a_match() -> None:
    for game, seats in (("heros-tavern", 3), ("taverna", 4), ("mercenaries", 2), ("tavern-masters", 3)):
        sent = play(env(game, seats=seats), seed=2, steps=80, check=True)
        assert len(sent) == 80, game


def relabelled(state: Any, hidden: set[str], seed: int) -> Any:
    """The state with the identifiers in ``hidden`` permuted among themselves, everything else as it
    was; within each family where a game has several (a Taverna spell stays a spell)."""
    families: dict[str, list[str]] = {}
    for ident in sorted(hidden):
        family = re.match(r"(ta-[a-z]+-)?", ident)
        families.setdefault(family.group(0) if family else "", []).append(ident)
    rename: dict[str, str] = {}
    for members in families.values():
        rename.update(zip(members, random.Random(seed).sample(members, len(members)), strict=True))

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return rename.get(value, value)
        if isinstance(value, dict):
            return {swap(k): swap(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [swap(v) for v in value]
        return value

    return msgspec.convert(swap(msgspec.to_builtins(state)), type(state))


@pytest.mark.parametrize(
    ("game", "seats"), [("heros-tavern", 4), ("taverna", 3), ("mercenaries", 2), ("tavern-masters", 3)]
)
def test_an_observation_shows_nothing_the_seat_may_not_know(game: str, seats: int) -> None:
    """Two states that differ only in what a seat may not see (other hands, the piles) give that
    seat the same observation and mask; a seat that sees some of those cards sees the difference."""
    e = env(game, seats=seats)
    seen_by_another = 0
    for moves in (10, 40, 90):
        play(e, seed=moves, steps=moves)
        state = e.table.state
        before = {a: e.observe(a) for a in e.possible_agents}
        for seat, agent in enumerate(e.possible_agents):
            other = relabelled(state, e.game.hidden(state, seat), seed=moves)
            assert other != state, "nothing hidden to relabel"
            e.table.state = other
            after = {a: e.observe(a) for a in e.possible_agents}
            e.table.state = state
            assert np.array_equal(before[agent]["observation"], after[agent]["observation"]), (moves, agent)
            assert np.array_equal(before[agent]["action_mask"], after[agent]["action_mask"]), (moves, agent)
            seen_by_another += any(
                not np.array_equal(before[a]["observation"], after[a]["observation"]) for a in e.possible_agents
            )
    assert seen_by_another, "the relabelling changed no seat's observation: the check above proves nothing"


def test_a_legal_list_longer_than_the_slots_is_refused_not_cut_short() -> None:
    e = env("mercenaries", seats=2)
    e.reset(seed=1)
    legal = e.legal(e.agent_selection)
    slots = LegalSlots(len(legal) - 1, e.encoding.actions.types, e.encoding.actions.card_of, 52)
    with pytest.raises(ActionError, match="more than"):
        slots.mask(legal)
    assert e.encoding.actions.mask(legal).sum() == len(legal)


def test_an_illegal_action_is_refused_and_the_match_left_as_it_was() -> None:
    e = env("heros-tavern", seats=3)
    e.reset(seed=1)
    agent = e.agent_selection
    refused = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(ActionError):
        e.step(refused)
    assert e.table.version == len(e.table.events) and e.agent_selection == agent


def test_the_same_seed_plays_the_same_match_and_another_seed_another() -> None:
    first, again, other = (play(env("taverna", seats=3), seed=s, steps=60) for s in (3, 3, 4))
    assert first == again
    assert first != other


def test_render_narrates_what_a_spectator_may_read() -> None:
    e = env("heros-tavern", seats=3, render_mode="ansi")
    e.reset(seed=1)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    text = e.render()
    assert text is not None and "picked a card face down" in text and "to act" in text
    assert not re.search(r"ht-[a-z]+-[0-9]+", text), "a card id (or a hidden pick) in the narration"


def test_the_documented_training_loop_runs_and_learns(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    example = ROOT / "docs/examples/research_loop.py"
    assert f"```python\n{example.read_text()}```" in (ROOT / "docs/research.md").read_text(), "docs/research.md differs"
    monkeypatch.setattr("sys.argv", [str(example), "3"])
    ran = runpy.run_path(str(example))
    assert "episode 3: seat_0 won" in capsys.readouterr().out
    assert len(ran["wins"]) == 3 and np.abs(ran["weights"]).sum() > 0, "no episode's gradient reached the weights"


@pytest.mark.parametrize("game", ["heros-tavern", "tavern-masters", "taverna", "mercenaries"])
def test_the_vector_is_the_dict_laid_out_as_documented(game: str) -> None:
    flat, named = env(game, observation="vector"), env(game, observation="dict")
    for e in (flat, named):
        play(e, seed=9, steps=30)
    agent = flat.agent_selection
    vector, features = flat.observe(agent)["observation"], named.observe(agent)["observation"]
    layout = flat.observation_layout()
    assert [name for name, _, _ in layout] == list(features) and layout[-1][1] + layout[-1][2] == len(vector)
    for name, offset, size in layout:
        assert np.array_equal(vector[offset : offset + size], features[name]), name


def test_the_documented_sizes_are_the_spaces() -> None:
    doc = (ROOT / "docs/research.md").read_text()
    for game in ("heros-tavern", "tavern-masters", "taverna", "mercenaries"):
        e = env(game)
        assert f"| `{game}` | {e.action_space('seat_0').n} |" in doc, game
        assert f"| `{game}` | {e.observation_space('seat_0')['observation'].shape[0]}" in doc, game
