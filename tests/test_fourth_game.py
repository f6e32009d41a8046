"""A fourth game is one folder and one registry line: the kit serves it unchanged.

``tests/fourth_game/nim/`` is a toy Nim (heaps, take 1..3 stones, a face-down bonus card
dealt by a seeded chance node per player; the last stone wins), written against the
protocol only, with its box in the fixture folder. The fixtures register it with one
registry line (``games.REGISTRY["nim"]``) and put the folder on ``sys.path``; nothing
else of the kit changes. ``GAME`` has the optional hooks (a box, ``determinise``, agents,
``seat_results``, the environment's encodings); ``MINIMAL`` only the required members,
and every tool that needs an optional hook must then say which, never a traceback.
(The other-process save check of the conformance suite is left out: a fresh process
does not see a test's registry.)
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

import test_conformance as conformance
from haunted_kit import games
from haunted_kit.bots import BotSpecError, default_agent, make_bot
from haunted_kit.cli import main
from haunted_kit.env import KitAECEnv, SingleSeatEnv
from haunted_kit.games import MissingHook, game_of, get_game
from haunted_kit.play import play_game
from haunted_kit.search import hints
from haunted_kit.simulate import load_dataset, schema
from haunted_kit.store import GameStore
from haunted_kit.server import Classroom, view_message
from haunted_kit import testing
from haunted_kit.testing import check_box, game_settings
from fresh_loop import run_in_fresh_loop  # noqa: E402  (a browser test may leave a loop running)

FIXTURE = Path(__file__).resolve().parent / "fourth_game"
BOX = FIXTURE / "nim" / "box"


def _register(monkeypatch, attr: str):
    monkeypatch.syspath_prepend(str(FIXTURE))
    monkeypatch.setitem(games.REGISTRY, "nim", ("nim.engine", attr))  # the one registry line
    return get_game("nim")


@pytest.fixture
def nim(monkeypatch):
    return _register(monkeypatch, "GAME")


@pytest.fixture
def minimal(monkeypatch):
    return _register(monkeypatch, "MINIMAL")


def _record(g, s) -> list:
    return [[e.player, e.action if e.chance else g.action_to_dict(e.action)] for e in s.history()]


# ============================================================================ the toy with its optional hooks


def test_the_conformance_suite_serves_it(nim):
    settings = game_settings("nim")
    assert settings == [{"players": 2}, {"players": 3}]
    for setting in settings:
        conformance.test_legal_accepted_illegal_and_malformed_refused_state_unchanged("nim", setting)
        conformance.test_copies_are_independent("nim", setting)
        conformance.test_observation_hides_what_it_must("nim", setting)
    conformance.test_seeds_k_and_minus_k_give_different_games("nim")
    conformance.test_every_decision_kind_is_reached_and_checked("nim")


def test_the_game_of_a_state_is_found_by_its_package(nim):
    s = nim.new_game(players=2, seed=1)
    assert not hasattr(nim, "state_type") and game_of(s) is nim
    assert s.history()[0].chance and s.history()[1].chance and s.current_player() == 0  # the deal: one card each


def test_play_save_replay(nim, tmp_path, capsys):
    save, log = tmp_path / "g.json", tmp_path / "g.jsonl"
    assert main(["play", "--game", "nim", "--players", "2", "--seed", "3", "--agents", "greedy,random",
                 "--save", str(save), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    ref, names = play_game(nim, players=2, seed=3, agents=["greedy", "random"])
    made = [sum(1 for e in ref.history() if not e.chance and e.player == p) for p in range(2)]
    won = ref.returns().index(1.0)
    line = (f"Toy Nim, 2 players, over. P1 (greedy): score {float(won == 0):g}, rank {1 + (won != 0)}, {made[0]} decisions; "
            f"P2 (random): score {float(won == 1):g}, rank {1 + (won != 1)}, {made[1]} decisions.")
    assert out.splitlines()[0] == line
    assert _record(nim, nim.from_dict(json.loads(save.read_text()))) == _record(nim, ref)
    assert [json.loads(x)["text"] for x in log.read_text().splitlines()][-1].endswith("took the last stone and wins.")
    assert main(["replay", str(save)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == line.replace(" (greedy)", "").replace(" (random)", "")


def test_check_box(nim, tmp_path, capsys):
    assert main(["check-box", str(BOX), "--game", "nim", "--games", "2", "--no-progress"]) == 0
    report = check_box(BOX, game="nim", games=2)
    assert report.ok and report.games == 4 and report.finished == 4
    (tmp_path / "nim.toml").write_text("min_players = 2\n")
    assert main(["check-box", str(tmp_path), "--game", "nim"]) == 1
    assert "the box does not load: nim.toml: needs exactly" in capsys.readouterr().err


def test_simulate_in_this_process(nim, tmp_path, capsys):
    out = tmp_path / "runs"
    assert main(["simulate", "--out", str(out), "--game", "nim", "--games", "3", "--players", "2,3",
                 "--agents", "greedy,random", "--workers", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "6 games (15 rows)" in text
    frame = load_dataset(out)
    assert len(frame) == 15 and frame.groupby("game_id").won.sum().tolist() == [1] * 6
    assert not frame.collective_loss.any() and sorted(frame.score.unique()) == [0.0, 1.0]
    meaning = {m["name"]: m["meaning"] for m in frame.attrs["metadata"]["schema"]}
    assert meaning["score"] == "final score, as the game's seat_results give it"
    results = json.dumps([meaning[c] for c in ("score", "rank", "won", "collective_loss", "returns", "quests")])
    assert "Haunted" not in results and "valor" not in results and "Kalena" not in results


def test_the_environments(nim):
    aec = KitAECEnv("nim", players=2)
    aec.reset(seed=4)
    assert aec.state_.current_player() == 0 and len(aec.catalogue) == 3 * 3 + 3
    env = SingleSeatEnv("nim", players=2, seat=0, opponents=["greedy"])
    obs, info = env.reset(seed=4)
    done, steps = False, 0
    while not done:
        action = int(info["action_mask"].nonzero()[0][0])
        obs, reward, done, _, info = env.step(action)
        steps += 1
    assert steps > 0 and reward == env.aec.state_.returns()[0]


def test_search_hints_and_bot(nim):
    s = nim.new_game(players=2, seed=1)
    s.heaps = [0, 0, 2]  # P1 wins by taking the last 2 stones
    found = hints(s, playouts=40, top=3, seed=2)
    assert any(h.action == nim.action_from_dict({"type": "take", "heap": 2, "count": 2}) for h in found)
    for h in found:
        t = s.copy()
        t.apply_action(h.action)
        assert ("(score +1 at once)" in h.sentence) == t.is_terminal(), h.sentence
    state, names = play_game(nim, players=2, seed=5, agents=["search[playouts=10]", "greedy"])
    assert state.is_terminal() and names == ["search", "greedy"]


def test_the_classroom_store(nim, tmp_path):
    with GameStore(tmp_path / "c.db") as store:
        t = store.create_table(game="nim", players=2, seed=3, bots={1: "greedy"})
        mover = t.state.current_player()
        with pytest.raises(Exception, match=r"it is P1's decision, not P2's \(kit: whose turn it is\)"):
            t.decide(1, t.state.legal_actions()[0])
        t.decide(mover, {"type": "take", "heap": 0, "count": 1})
        assert t.state.heaps == [2, 4, 5] and t.seq == 1
        saved = json.loads(t.export(tmp_path / "t.json").read_text())
        assert _record(nim, nim.from_dict(saved)) == _record(nim, t.state)
        assert store.table(t.id).state.heaps == [2, 4, 5]
        # no classroom module: the generic page, the observation as tables and the legal actions as buttons
        seat = view_message(t, 1, 30)
        assert seat["type"] == "view" and seat["title"] == f"Toy Nim · {t.name} · P2" and seat["turn"]
        assert [a["label"] for a in seat["actions"]] == [a.describe() for a in t.state.legal_actions()]
        assert ">2, 4, 5<" in seat["board"] and f">hidden, {t.state.bonus[1]}<" in seat["board"]
        projector = view_message(t, -1, 30)
        assert projector["actions"] == [] and ">hidden, hidden<" in projector["board"]  # the declared instead

        async def bots():
            room = Classroom(store, bot_delay=0)
            room.schedule_bots(t.id)
            try:
                for _ in range(1200):  # bounded poll (at most a minute): the bot thinks in a worker process
                    if t.seq == 2:
                        break
                    await asyncio.sleep(0.05)
            finally:
                room.close()
        run_in_fresh_loop(bots)
        assert store.table(t.id).state.current_player() == 0  # the bot seat played its move


# ============================================================================ the toy with only the required members


def test_play_and_replay_need_no_optional_hook(minimal, tmp_path, capsys):
    save = tmp_path / "g.json"
    assert main(["play", "--game", "nim", "--players", "3", "--seed", "1", "--agents", "random", "--save", str(save)]) == 0
    out = capsys.readouterr().out.splitlines()[0]
    assert out.startswith("Toy Nim, 3 players, over. P1 (random): returns ") and out.count("decisions") + out.count(
        "decision;") + out.count("decision.") == 3
    assert main(["replay", str(save)]) == 0
    assert capsys.readouterr().out.startswith("Toy Nim, 3 players, over. P1: returns ")
    assert main(["simulate", "--out", str(tmp_path / "runs"), "--game", "nim", "--games", "2", "--players", "2",
                 "--agents", "random", "--workers", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "2 games (4 rows)" in text and "collective_loss" not in text  # scored by returns: no collective loss
    assert {c["name"]: c["meaning"] for c in schema("nim")}["score"] == (
        "the game's returns() for this player (the game has no seat_results)")


@pytest.mark.parametrize("argv,message", [
    (["play", "--game", "nim", "--players", "2", "--box", str(BOX)],
     "--box needs the game's load_box hook; Toy Nim (--game nim) has none"),
    (["check-box", str(BOX), "--game", "nim"], "check-box needs the game's load_box hook; Toy Nim (--game nim) has none"),
    (["play", "--game", "nim", "--players", "2", "--agents", "search[playouts=5]"],
     "the search agent needs the game's determinise hook; Toy Nim (--game nim) has none"),
    (["play", "--game", "nim", "--players", "2", "--agents", "greedy"],
     "unknown agent 'greedy' for 'nim' (known: random, search)"),
    (["handout", "--game", "nim"], "handout is not available for --game nim"),
    (["simulate", "--out", "x", "--game", "nim", "--box", str(BOX), "--agents", "random", "--workers", "1"], "--box needs the game's load_box hook"),
])
def test_a_tool_that_needs_a_missing_hook_says_which(minimal, argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and "Traceback" not in err


def test_a_game_without_a_greedy_agent_gets_random_bots_where_none_are_named(minimal, tmp_path, capsys):
    # play, the server's --bots and the store's list of bot seats seat the game's default agent
    assert default_agent(minimal) == "random" and default_agent("haunted") == "greedy"
    assert main(["play", "--game", "nim", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "P1 (random)" in out and "P2 (random)" in out
    state, names = play_game(minimal, players=2, seed=3)  # the library's default too
    assert state.is_terminal() and names == ["random", "random"]
    assert play_game("haunted", players=2, seed=3)[1] == ["greedy", "greedy"]
    with GameStore(tmp_path / "c.db") as store:
        t = store.create_table(game="nim", players=2, seed=3, bots=[1])
        assert {s.seat: s.agent for s in t.seats if s.agent} == {1: "random"}
        t = store.create_table(game="haunted", players=2, seed=3, bots=[0])
        assert {s.seat: s.agent for s in t.seats if s.agent} == {0: "greedy"}


def test_other_games_error_paths_walk_past_it(minimal, tmp_path, capsys):
    assert main(["check-box", str(tmp_path), "--game", "landmarks"]) == 1
    err = capsys.readouterr().err
    assert "the box does not load" in err and "AttributeError" not in err
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--game", "landmarks", "--box", str(tmp_path)])
    assert exit_.value.code == 2 and "AttributeError" not in capsys.readouterr().err


def test_the_library_tools_name_the_missing_hook(minimal, tmp_path):
    s = minimal.new_game(players=2, seed=1)
    with pytest.raises(MissingHook, match="hints needs the game's determinise hook"):
        hints(s, playouts=5)
    with pytest.raises(BotSpecError, match="the search agent needs the game's determinise hook"):
        make_bot("search", 0, "nim")
    with pytest.raises(MissingHook, match="the environment \\(a fixed action encoding\\) needs the game's action_catalogue hook; Toy Nim"):
        SingleSeatEnv("nim", players=2)
    with pytest.raises(AssertionError, match="hides information .* has no determinise"):
        conformance.test_observation_hides_what_it_must("nim", {"players": 2})
    with pytest.raises(MissingHook, match="the conformance suite needs the game's action_types hook; Toy Nim"):
        conformance.test_every_decision_kind_is_reached_and_checked("nim")
    with GameStore(tmp_path / "c.db") as store:
        t = store.create_table(game="nim", players=2, seed=3)  # no box at all
        t.decide(0, {"type": "take", "heap": 2, "count": 3})
        assert store.table(t.id).state.heaps == [3, 4, 2]
        with pytest.raises(MissingHook, match="a table's house-rule box needs the game's load_box hook"):
            store.create_table(game="nim", players=2, box=BOX)


# ============================================================================ the decision kinds


def test_the_kinds_test_fails_naming_a_kind_never_reached_or_not_declared(nim, monkeypatch):
    """A declared kind that no seeded game reaches is named (here a made-up ``Pass``
    that Nim never lists), and so is a listed class the declaration leaves out (``Bonus``)."""
    import nim.engine as ne  # the registered toy's module (tests/fourth_game on sys.path)

    class Pass:
        pass

    monkeypatch.setattr(type(nim), "action_types", {"take": ne.Take, "pass": Pass})
    conformance.kind_steps.cache_clear()
    reached, missing = conformance.kind_steps(nim)
    assert missing == ["pass"] and sorted(reached) == ["take", "undeclared Bonus"]
    assert reached["undeclared Bonus"].where == "seed 1 (players=2), step 0"  # both bonus cards are dealt before move 1
    with pytest.raises(AssertionError, match=r"never legal in 40 seeded games .*: pass \("):
        conformance.test_every_decision_kind_is_reached_and_checked("nim")
    conformance.kind_steps.cache_clear()


def test_a_game_need_not_be_hashable(nim):
    """A Game is any object with the members (docs/NEW_GAME.md): the same members in a
    SimpleNamespace, which cannot be hashed, reach the same kinds."""
    import types

    bare = types.SimpleNamespace(**{k: getattr(nim, k) for k in dir(nim) if not k.startswith("_")})
    reached, missing = conformance.kind_steps(bare)
    assert missing == [] and sorted(reached) == ["bonus", "take"]
    assert conformance.kind_steps(bare)[0] is reached  # played once


def test_a_fault_at_a_kinds_step_is_named(nim, monkeypatch):
    """The per-kind checks find a save that forgets part of the position: a Nim whose
    loader deals bonus cards again from another seed continues differently."""
    import nim.engine as ne

    reached, _ = conformance.kind_steps(nim)
    step = reached["bonus"]
    assert testing.kind_problems(nim, step, [step.action]) == []
    real = ne.from_dict
    monkeypatch.setattr(ne, "from_dict", lambda data, box=None: real(dict(data, seed=data["seed"] + 1), box))
    problems = testing.kind_problems(nim, step, [step.action])
    assert problems and all(p.startswith("bonus at seed 1 (players=2), step 0: ") for p in problems)
    assert any("the save does not round-trip (fields seed change)" in p or "does not take" in p for p in problems)


# ============================================================================ defaults, options and registration


def test_a_game_without_declared_defaults_plays_its_fewest_players(minimal, tmp_path, capsys):
    """No ``default_players`` and no ``options``: ``play`` without ``--players`` seats ``min_players``."""
    assert games.default_players(minimal) == 2 and games.game_options(minimal) == () and games.option_defaults(minimal) == {}
    assert main(["play", "--game", "nim", "--seed", "2", "--agents", "random"]) == 0
    assert capsys.readouterr().out.startswith("Toy Nim, 2 players, over. P1 (random): returns ")


def test_compare_with_a_box_without_a_player_range_is_a_usage_error(nim, monkeypatch, capsys):
    class RangelessBox:  # a house-rule box whose loader gives no min_players / max_players
        path, fingerprint = str(BOX), "rangeless"

    monkeypatch.setattr(type(nim), "load_box", lambda self, path: RangelessBox())
    with pytest.raises(SystemExit) as exit_:
        main(["compare", "--box", str(BOX), "--game", "nim", "--games", "2", "--workers", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert (f"the Toy Nim box {BOX} declares no player range (min_players and max_players): the kit cannot tell "
            "how many players it seats") in err


def test_games_are_registered_from_the_environment_variable(monkeypatch):
    monkeypatch.setattr(games, "REGISTRY", dict(games.REGISTRY))
    monkeypatch.syspath_prepend(str(FIXTURE))
    assert games.register_from_environment(" nim2 = nim.engine:GAME , ") == ["nim2"]
    assert games.get_game("nim2").title == "Toy Nim"
    assert games.register_from_environment("nim2=nim.engine:GAME") == []  # the same entry again: nothing new
    for text, problem in [("nim3", "'nim3' is not name=module:attribute"), ("nim3=nim.engine", "is not name=module"),
                          ("haunted=nim.engine:GAME", "'haunted' is already the registered game of haunted_kit.haunted.engine")]:
        with pytest.raises(ValueError, match=f"^HAUNTED_KIT_GAMES: .*{problem}"):
            games.register_from_environment(text)


#: kit tests whose loops over the registry the toy passes, run with it registered as a maintainer
#: would (tests/conftest.py's HAUNTED_KIT_EXTRA_GAMES; the run of every looping file is not part of the
#: default command: `HAUNTED_KIT_EXTRA_GAMES=nim pytest tests/...`)
LOOPS = ["tests/test_conformance.py", "tests/test_entry_points.py", "tests/test_honest_search.py",
         "tests/test_neutral_tools.py", "tests/test_no_cyclic_garbage.py", "tests/test_compare.py"]


def test_the_kit_loops_over_games_hold_with_a_fourth_game_registered():
    """The loops' cases of the toy, in a fresh pytest process (collection reads the registry), and the
    layer test, which must still find only the kit's own game packages."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "HAUNTED_KIT_EXTRA_GAMES": "nim"}
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                           "-k", "nim or every_game_package", *LOOPS, "tests/test_layers.py"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=900)
    tail = done.stdout[-3000:]
    assert done.returncode == 0, tail
    passed = re.search(r"(\d+) passed", tail)
    assert passed and int(passed.group(1)) >= 20 and "failed" not in tail, tail  # the toy's cases ran, all green


def test_compare_names_the_box_hooks_a_game_lacks(minimal):
    from haunted_kit.compare import compare

    with pytest.raises(MissingHook, match=r"^compare needs the game's load_box hook; Toy Nim \(--game nim\) has none$"):
        compare(BOX, game="nim", games=2, workers=1, progress=False)
    with pytest.raises(MissingHook, match=r"^compare \(the reference box\) needs the game's default_box hook; Toy Nim"):
        compare(object(), game="nim", games=2, workers=1, progress=False)
