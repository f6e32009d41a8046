"""haunted-kit play --game landmarks and replay of a Landmarks & Architects save."""

import contextlib
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haunted_kit import landmarks as lm
from haunted_kit.cli import main
from haunted_kit.play import play_game


def test_play_without_options_plays_the_declared_default_of_3_turns(tmp_path, capsys):
    """Without --players and --turns: the game's own defaults (3 players, 3 turns: every seat leads once,
    ruling L1), the same game as the kit's loop with those settings and as new_game's default (the box's)."""
    save = tmp_path / "lm.json"
    assert main(["play", "--game", "landmarks", "--seed", "7", "--agents", "greedy,random", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Landmarks & Architects, 3 players, 3 turns (")
    ref, _ = play_game("landmarks", players=3, seed=7, agents=["greedy", "random"], rounds=3)
    s = lm.LandmarksState.load(save)
    assert s.history() == ref.history() and s.is_terminal() and s.rounds == 3
    assert lm.new_game(3, seed=7).rounds == 3  # new_game's own default: the box's example_round.rounds
    leaders = [e.player for e in s.history() if type(e.action).__name__ == "Lead"]
    assert leaders == [0, 1, 2]  # every seat led once
    assert f"Decisions: {sum(1 for e in s.history() if not e.chance)};" in out
    for flag in ("--turns", "--rounds"):  # the rulebook's word, and the flag's earlier name
        with pytest.raises(SystemExit) as exit_:
            main(["play", "--game", "landmarks", flag, "0"])
        assert exit_.value.code == 2 and "argument --turns: must be a whole number from 1 to 1000, got 0" in capsys.readouterr().err


def test_play_prints_points_and_writes_save_and_log(tmp_path, capsys):
    save, log = tmp_path / "lm.json", tmp_path / "lm.csv"
    assert main(["play", "--game", "landmarks", "--players", "3", "--seed", "7", "--agents", "greedy,random",
                 "--turns", "1", "--save", str(save), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Landmarks & Architects, 3 players, 1 turn (building cards: kit example deck "
                          "(not the published cards))")
    # seat i's bot is seeded 7 * 100 + i (the kit's seat rule): P1's greedy bot leads build and builds
    # (three decisions: the lead, the card, its payment), P2 and P3 acquire instead: 5 decisions
    assert "Decisions: 5; agents: P1 greedy, P2 random, P3 greedy" in out
    record = [e.action for e in lm.LandmarksState.load(save).history() if not e.chance]
    assert [type(a).__name__ for a in record] == ["Lead", "ChooseBuilding", "Build", "Acquire", "Acquire"]
    assert record[1].card == record[2].card
    s = lm.LandmarksState.load(save)
    assert s.is_terminal() and s.players == 3
    totals = [line.split()[-1] for line in out.splitlines() if line.startswith(("P1 ", "P2 ", "P3 "))]
    assert [int(t) for t in totals] == lm.totals(s)
    assert log.read_text().startswith("seq,season,round,phase,kind,player,cell,text,data")
    assert main(["replay", str(save)]) == 0
    assert "Decisions: 5" in capsys.readouterr().out


def test_replay_of_a_corrupt_landmarks_save_fails_with_one_line(tmp_path, capsys):
    save = tmp_path / "lm.json"
    main(["play", "--game", "landmarks", "--players", "2", "--seed", "1", "--save", str(save)])
    capsys.readouterr()
    d = json.loads(save.read_text())
    d["state"]["gold"][0] = -5
    save.write_text(json.dumps(d))
    assert main(["replay", str(save)]) == 1
    err = capsys.readouterr().err
    assert err == "haunted-kit: state.gold[0]: must be between 0 and 1000000, got -5\n"


@pytest.mark.parametrize("argv, needle", [
    (["--players", "6"], "argument --players: invalid choice: 6 (this box plays 2..5)"),
    (["--mode", "citizen"], "--mode and --ghost-cards belong to Haunted Lands, not to --game landmarks"),
    (["--agents", "greedy,random,greedy"], "3 agents given for 2 players"),
    (["--box", "/nonexistent"], "--box /nonexistent: landmarks/, the folder: no such folder: /nonexistent"),
])
def test_misuse_prints_usage_and_exits_2(argv, needle, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "--game", "landmarks", "--players", "2", *argv])
    assert exc.value.code == 2
    assert needle in capsys.readouterr().err


def test_bots_by_name_for_the_kit_tools():
    from haunted_kit.bots import make_bot
    from haunted_kit.games import get_game

    g = get_game("landmarks")
    bot = make_bot("greedy", 3, g)
    s = lm.position(hands=[[], ["village_square", "tannery"]], villages=[[], []], gold=[0, 0], lead="harvest",
                    tokens=[{"statue": 1, "gate": 1, "silo": 1}, {"statue": 1}])
    # a Statue breaks the 1-1 tie: +2 for the most; a Gate only ties P1's (+1 for the token), a Silo ties too (0)
    assert bot.act(s) == lm.Acquire("statue", ("village_square",))
    with pytest.raises(ValueError, match="unknown agent 'clever' for 'landmarks' \\(known: random, greedy, search\\)"):
        make_bot("clever", 0, g)


def test_simulate_plays_landmarks_and_the_unique_best_seat_wins(tmp_path):
    from haunted_kit.simulate import Grid, load_dataset, simulate

    simulate(Grid(game="landmarks", players=(3,), lineups=("greedy,random",), games=4), tmp_path / "ds",
             workers=1, progress=False)
    rows = load_dataset(tmp_path / "ds")
    assert len(rows) == 12
    for _, g in rows.groupby("game_id"):
        best = g.score.max()
        unique = (g.score == best).sum() == 1
        # the seat with the unique highest module points wins, whatever its seat; a tie has no winner
        assert g.won.tolist() == [bool(unique and s == best) for s in g.score]
        assert g["rank"].tolist() == [sorted(set(g.score), reverse=True).index(s) + 1 for s in g.score]
    assert rows.won.sum() >= 1 and not rows[rows.won].player.eq(0).all()


@settings(max_examples=60, deadline=None)
@given(text=st.one_of(st.text(max_size=12), st.integers(-10**20, 10**20).map(str)))
def test_any_turns_text_is_read_or_refused_naming_the_flag(text):
    """Whatever is typed after --rounds (the earlier name of --turns): a whole number from 1 to 1000 is
    taken (the run then stops at the player count 99, checked after the options), anything else is
    refused naming --turns; exit 2, never a traceback."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        main(["play", "--game", "landmarks", "--players", "99", f"--rounds={text}"])
    said = err.getvalue()
    assert exit_.value.code == 2 and "Traceback" not in said
    try:
        taken = 1 <= int(text) <= 1000  # Python's whole-number reading, as every number flag of the kit
    except ValueError:
        taken = False
    assert ("argument --players: invalid choice: 99" in said) == taken, said
    assert taken or "argument --turns: " in said or "argument --turns/--rounds: " in said, said
