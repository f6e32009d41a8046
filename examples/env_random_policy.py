"""Run a seeded random policy through the kit's environments (nothing is trained).

    python examples/env_random_policy.py

1. PettingZoo AEC: four players pick uniformly among the legal actions (the mask).
2. Gymnasium: one seat plays randomly against three greedy bots, over a few seeds.
"""

import numpy as np

from haunted_kit.env import KitAECEnv, SingleSeatEnv


def aec_game(seed: int = 0) -> dict:
    env = KitAECEnv(players=4)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        env.step(action)
    return {"steps": steps, "returns": env.state_.returns()}


def single_seat(seeds=range(3)) -> list[float]:
    env = SingleSeatEnv(players=4, seat=0, opponents=["greedy"])
    rng = np.random.default_rng(0)
    rewards = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = env.step(action)
        rewards.append(reward)
    return rewards


if __name__ == "__main__":
    print("AEC, 4 random players:", aec_game(7))
    print("Gymnasium, random seat 0 vs 3 greedy, rewards:", single_seat())
