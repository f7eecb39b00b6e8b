"""REINFORCE with numpy: seat_0 learns a linear softmax policy at Hero's Tavern against random seats.
Needs only the research extra (pip install -e '.[research]'). Run: python research_loop.py [EPISODES]"""

import sys

import numpy as np

from environments import env

EPISODES = int(sys.argv[1]) if len(sys.argv) > 1 else 300
table = env("heros-tavern", seats=3)
space = table.observation_space("seat_0")["observation"]
scale = 1.0 / np.maximum(space.high, 1)  # every feature into [0, 1]
weights = np.zeros((table.action_space("seat_0").n, space.shape[0]))
rng, wins = np.random.default_rng(0), []
for episode in range(EPISODES):
    table.reset(seed=episode)
    trail = []  # seat_0's (features, action, probabilities) this episode
    for agent in table.agent_iter():
        seen, reward, terminated, truncated, _ = table.last()
        if terminated or truncated:
            if agent == "seat_0":  # the policy gradient of the whole episode, scaled by its reward (+1 or -1)
                weights += 0.05 * reward * sum(np.outer(np.eye(len(p))[a] - p, x) for x, a, p in trail)
                wins.append(reward > 0)
            table.step(None)
            continue
        x, legal = seen["observation"] * scale, seen["action_mask"].astype(bool)
        logits = np.where(legal, weights @ x, -np.inf) if agent == "seat_0" else np.where(legal, 0.0, -np.inf)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        action = rng.choice(len(p), p=p)
        trail += [(x, action, p)] if agent == "seat_0" else []
        table.step(action)
    if (episode + 1) % 50 == 0 or episode + 1 == EPISODES:
        print(f"episode {episode + 1}: seat_0 won {np.mean(wins[-50:]):.0%} of the last {len(wins[-50:])}")
