"""Run a seeded random policy through the kit's environments (nothing is trained).

    python examples/env_random_policy.py

1. PettingZoo AEC: every player picks uniformly among the legal actions (the mask), in
   Haunted Lands (4 players) and in the companion games (estate and Landmarks, 3 players).
2. Gymnasium: one seat plays randomly against greedy bots, over a few seeds.
"""

import numpy as np

from haunted_kit.env import KitAECEnv, SingleSeatEnv


def aec_game(seed: int = 0, game: str = "haunted", players: int = 4) -> dict:
    env = KitAECEnv(game, players=players)
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


def single_seat(seeds=range(3), game: str = "haunted", players: int = 4) -> list[float]:
    env = SingleSeatEnv(game, players=players, seat=0, opponents=["greedy"])
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
    for game in ("estate", "landmarks"):
        print(f"{game}: AEC, 3 random players:", aec_game(7, game, 3))
        print(f"{game}: Gymnasium, random seat 0 vs 2 greedy, rewards:", single_seat(game=game, players=3))
