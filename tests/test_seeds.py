"""One seed range for the whole kit: signed 64 bits, -2**63 <= seed < 2**63
(protocol.check_seed), refused with the same message at every entry point."""
import json

import pytest

from haunted_kit.cli import main
from haunted_kit.env import KitAECEnv, SingleSeatEnv
from haunted_kit.games import game_names, get_game
from haunted_kit.protocol import SEED_MAX, SEED_MIN, check_seed
from haunted_kit.simulate import MAX_GRID_GAMES, Grid
from ruletools import ENV_HOOKS, games_with
from haunted_kit.testing import check_box

GAMES = game_names()
BAD = (2 ** 63, 2 ** 70, 10 ** 30, -(2 ** 63) - 1, 18446744073709551615)


def message(seed, what="seed"):
    return f"{what} must be an integer of at most 64 bits (-2**63 <= seed < 2**63), got {seed!r}"


def test_the_range_is_signed_64_bits():
    assert (SEED_MIN, SEED_MAX) == (-9223372036854775808, 9223372036854775807)
    assert check_seed(SEED_MAX) == SEED_MAX and check_seed(SEED_MIN) == SEED_MIN
    for bad in (True, 1.0, "3", None):
        with pytest.raises(ValueError, match="must be an integer of at most 64 bits"):
            check_seed(bad)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", BAD)
def test_new_game_refuses(game, seed):
    g = get_game(game)
    with pytest.raises(ValueError) as exc:
        g.new_game(players=3, seed=seed)
    assert str(exc.value) == message(seed)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", (SEED_MIN, SEED_MAX))
def test_the_ends_of_the_range_play_save_and_load(game, seed):
    g = get_game(game)
    s = g.new_game(players=3, seed=seed)
    d = json.loads(json.dumps(s.to_dict()))
    assert g.from_dict(d).to_dict() == d


def _seed_fields(game, d):
    """The save fields holding the game's seed (another game's: the save's top level when it
    has a ``seed``, else each object of its ``config``)."""
    if game == "landmarks":
        return [d["start"], d["state"]]
    return [d] if "seed" in d else [d["config"]]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", BAD)
def test_save_loaders_refuse(game, seed):
    g = get_game(game)
    for i in range(len(_seed_fields(game, g.new_game(players=3, seed=1).to_dict()))):
        d = json.loads(json.dumps(g.new_game(players=3, seed=1).to_dict()))
        _seed_fields(game, d)[i]["seed"] = seed
        with pytest.raises(ValueError) as exc:
            g.from_dict(d)
        assert message(seed) in str(exc.value)


@pytest.mark.parametrize("argv", [
    ["play", "--seed", "{s}"], ["play", "--game", "estate", "--seed", "{s}"],
    ["play", "--game", "landmarks", "--players", "3", "--seed", "{s}"],
    ["check-box", "data", "--seed", "{s}"], ["handout", "--seed", "{s}"], ["classroom", "--seed", "{s}"],
    ["simulate", "--out", "never", "--first-seed", "{s}"],
])
@pytest.mark.parametrize("seed", (2 ** 63, 10 ** 30, -(2 ** 63) - 1))
def test_cli_refuses_with_a_usage_error(argv, seed, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main([a.format(s=seed) for a in argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --{argv[-2].lstrip('-')}: {message(seed)}" in err
    assert "Traceback" not in err and not (tmp_path / "never").exists()


def test_the_last_seed_of_a_run_is_checked_too(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--out", str(tmp_path / "d"), "--first-seed", str(SEED_MAX), "--games", "2",
              "--workers", "1", "--no-progress"])
    assert exc.value.code == 2
    assert message(SEED_MAX + 1, "the last seed (first_seed + games - 1)") in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
    with pytest.raises(SystemExit) as exc:
        main(["check-box", "data", "--seed", str(SEED_MAX), "--games", "2"])
    assert exc.value.code == 2
    assert message(SEED_MAX + 1, "the last seed (--seed + --games - 1)") in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"the last seed \(seed \+ games - 1\) must be"):
        check_box(game="landmarks", seed=SEED_MAX, games=2)
    with pytest.raises(ValueError, match="first_seed must be an integer of at most 64 bits"):
        Grid(game="estate", players=(3,), first_seed=2 ** 70)


def test_simulate_plays_the_top_seed_into_parquet(tmp_path):
    assert main(["simulate", "--game", "landmarks", "--players", "3", "--out", str(tmp_path / "d"),
                 "--first-seed", str(SEED_MAX - 1), "--games", "2", "--workers", "1", "--no-progress"]) == 0
    from haunted_kit.simulate import load_dataset
    assert sorted(set(load_dataset(tmp_path / "d")["seed"])) == [SEED_MAX - 1, SEED_MAX]


def test_a_landmarks_save_at_the_top_seed_replays(tmp_path, capsys):
    save = tmp_path / "s.json"
    assert main(["play", "--game", "landmarks", "--players", "3", "--seed", str(SEED_MAX), "--save", str(save)]) == 0
    assert main(["replay", str(save)]) == 0


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
@pytest.mark.parametrize("seed", (2 ** 70, 2 ** 63))
def test_env_reset_refuses_and_keeps_the_game(game, seed):
    env = KitAECEnv(game, players=3)
    env.reset(seed=4)
    before = env.state_.to_dict()
    with pytest.raises(ValueError) as exc:
        env.reset(seed=seed)
    assert str(exc.value) == message(seed)
    assert env.state_.to_dict() == before and env._seed == 4
    single = SingleSeatEnv(game, players=3)
    with pytest.raises(ValueError) as exc:
        single.reset(seed=seed)
    assert str(exc.value) == message(seed)


@pytest.mark.parametrize("game", GAMES)
def test_check_box_refuses(game):
    with pytest.raises(ValueError) as exc:
        check_box(game=game, seed=2 ** 70, games=1)
    assert str(exc.value) == message(2 ** 70)


def test_simulate_bounds_the_grid_before_building_it(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--out", str(tmp_path / "d"), "--games", "99999999999999999999", "--workers", "2",
              "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert ("argument --games: the value must be a whole number from 1 to 1,000,000, "
            "got '99999999999999999999'") in err
    assert not (tmp_path / "d").exists()
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--out", str(tmp_path / "d"), "--games", "600000", "--players", "2,3", "--workers", "2",
              "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (f"a grid of 600,000 games x 2 cells is more than the limit of {MAX_GRID_GAMES:,} "
            "games per run; ask for fewer games (at most 500,000 per cell here)") in err
    assert not (tmp_path / "d").exists()
    # the limit counts cells too: 2 player counts x 2 lineups x 250,001 games > 1,000,000
    with pytest.raises(ValueError, match=r"a grid of 250,001 games x 4 cells .* \(at most 250,000 per cell here\)"):
        Grid(game="landmarks", players=(3, 4), lineups=("random", "greedy"), games=250_001)
    assert len(Grid(game="landmarks", players=(3, 4), lineups=("random", "greedy"), games=250_000)) == MAX_GRID_GAMES


def test_exercises_take_the_kit_seed_range():
    from haunted_kit.haunted.exercises import ExerciseError, make
    with pytest.raises(ExerciseError) as exc:
        make("03-sale", 2 ** 70)
    assert str(exc.value) == message(2 ** 70)
    with pytest.raises(ExerciseError, match="seed must be a non-negative integer, got -1"):
        make("03-sale", -1)
