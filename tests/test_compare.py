"""The house-rule impact report (haunted_kit.compare and ``haunted-kit compare``)."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from haunted_kit import cli
from haunted_kit import compare as C
from haunted_kit.games import game_options, default_players, game_names, get_game
from haunted_kit.simulate import Grid, play_one
from ruletools import games_with_box

DATA = Path(__file__).resolve().parents[1] / "data"
#: where each game's box lives in the kit's data/
def box_dir(game: str) -> Path:
    """The folder of ``game``'s reference box (its ``default_box().path``), for any registered game."""
    return Path(get_game(game).default_box().path)


def house_box(tmp_path: Path, game: str, file: str, old: str, new: str) -> Path:
    """A copy of ``game``'s box with the first ``old`` in ``file`` replaced by ``new``."""
    out = tmp_path / f"{game}_house"
    shutil.copytree(box_dir(game), out, ignore=shutil.ignore_patterns("estate", "landmarks"))
    text = (out / file).read_text()
    assert old in text
    (out / file).write_text(text.replace(old, new, 1))
    return out


# ============================================================================ statistics


def test_wilson_interval_known_values():
    # Wilson score interval, z = 1.959964: 0 of 10 -> [0, 0.2775]; 5 of 10 -> [0.2366, 0.7634]
    assert C.wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-4)
    assert C.wilson_interval(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-4)


def test_newcombe_interval_matches_newcombe_1998():
    # Newcombe (1998), example (a): 56/70 against 48/80, difference 0.2, method 10: [0.0524, 0.3339]
    assert C.newcombe_interval(48, 80, 56, 70) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_t_quantiles_and_p_values():
    assert C.t_quantile(10) == pytest.approx(2.228139, abs=1e-5)
    assert C.t_quantile(1) == pytest.approx(12.7062, abs=1e-3)
    assert C.t_sf2(2.228139, 10) == pytest.approx(0.05, abs=1e-6)
    assert C.t_sf2(0.0, 7) == pytest.approx(1.0)


def test_welch_known_value_and_no_spread():
    # a = 1..5, b = 2,4,..10: difference 3, se sqrt(2.5/5 + 10/5) = 1.5811, t = 1.8974,
    # df = 2.5^2 / (0.5^2/4 + 2^2/4) = 5.882 -> two-sided p = 0.1075 (checked by integrating
    # the t density numerically)
    d, lo, hi, p = C.welch([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    assert d == 3
    assert p == pytest.approx(0.1075, abs=2e-4)
    assert lo < 0 < hi
    assert C.welch([3, 3, 3], [3, 3, 3]) == (0, 0, 0, 1.0)
    assert C.welch([3, 3, 3], [4, 4, 4]) == (1, 1, 1, 0.0)


def test_two_proportion_z_and_holm():
    # 30/100 against 45/100: pooled 0.375, se 0.06847, z = 2.191 -> p = 0.0285
    assert C.two_proportion_z(30, 100, 45, 100) == pytest.approx(0.0285, abs=2e-4)
    assert C.two_proportion_z(0, 50, 0, 50) == 1.0
    # Holm at 5%: 0.005 <= 0.0125 and 0.01 <= 0.05/3 pass; 0.03 > 0.025 stops
    assert C.holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]


def test_holm_adjusted_p_values_worked_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> running max
    # 0.02, 0.03, 0.06, 0.06, back in the given order
    assert C.holm_adjusted([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # capped at 1; ties keep their order; one p-value is its own adjustment
    assert C.holm_adjusted([0.5, 0.4, 0.9]) == pytest.approx([1.0, 1.0, 1.0])
    assert C.holm_adjusted([0.04]) == [0.04]
    assert C.holm_adjusted([]) == []
    # 0.012 and 0.013 of 4 rows: 0.048 passes, 0.039 would too but the running max keeps 0.048
    assert C.holm_adjusted([0.013, 0.012, 0.2, 0.3]) == pytest.approx([0.048, 0.048, 0.4, 0.4])


# ============================================================================ comparisons


@pytest.mark.parametrize("game", games_with_box())
def test_a_box_against_itself_differs_in_nothing(game):
    g = get_game(game)
    c = C.compare(g.default_box(), game=game, games=12, workers=1, progress=False)
    assert c.identical_games()
    assert c.significant() == []
    assert all(r.diff[0] == 0 and r.p == 1.0 for r in c.rows)
    names = [r.name for r in c.rows]
    players = default_players(g)  # compare's default: the game's own player count
    assert names[:players] == [f"seat {s} wins" for s in range(1, players + 1)]
    assert ("collective-loss rate" in names) == (game == "haunted")
    assert (f"{getattr(g, 'length_name', 'turns')} per game" in names) == hasattr(g, "game_length")
    assert "(same data as the reference box)" in c.house_name


@pytest.mark.parametrize("game", games_with_box())
def test_the_report_says_what_a_win_is_and_how_often_nobody_won(game, tmp_path):
    """The seats' win rates need not add to 100% (a tie at the top, a collective loss): the
    report gives the game's meaning of "won" and the share of games nobody won, which with
    the seats' rates makes 100%."""
    g = get_game(game)
    c = C.compare(g.default_box(), game=game, games=12, workers=1, progress=False)
    ref, house = c.no_winner_shares()
    assert ref == house  # the same box, the same seeds
    per_game = c.reference_rows.groupby("game_id")
    lost = per_game["collective_loss"].any()
    sole_first = per_game["rank"].apply(lambda r: int((r == 1).sum()) == 1)
    assert ref == pytest.approx(float((lost | ~sole_first).mean()))  # worked out from the ranks, not from "won"
    seats = sum(r.ref[0] for r in c.rows if r.name.startswith("seat ") and r.name.endswith(" wins"))
    assert seats + ref == pytest.approx(1.0)
    meaning = getattr(g, "result_meanings", {}).get("won", "this player won")  # optional on a Game
    line = f"won = {meaning}. No seat won {100 * ref:.1f}% of the reference games"
    assert line in str(c)
    assert C.escape(line) in c.html()


@pytest.mark.parametrize("game", game_names())
def test_score_parts_add_up_to_the_score(game):
    """Every game's score_parts hook explains its whole score (the dataset's new columns); a game
    without the hook has no parts (the dataset's documented fallback)."""
    g = get_game(game)
    grid = Grid(game=game, players=(min(3, g.max_players),), games=1)
    rows, _ = play_one(game, grid.tasks()[0])
    for r in rows:
        parts = json.loads(r["score_parts"])
        if getattr(g, "score_parts", None) is None:
            assert parts == {}
            continue
        assert parts, "the game gives its score by source"
        assert sum(parts.values()) == r["score"]
        assert r["game_turns"] >= 1


def test_more_ghosts_per_spread_raise_the_collective_loss_rate(tmp_path):
    box = house_box(tmp_path, "haunted", "game.toml", "ghosts_per_spread = 4", "ghosts_per_spread = 10")
    c = C.compare(box, games=30, workers=1, progress=False)
    r = c.row("collective-loss rate")
    assert r.diff[0] > 0 and r.diff[1] > 0  # the whole interval above no difference
    assert r.significant and r.p < 0.05
    assert not c.identical_games()
    assert c.house_name == box.name


def test_a_higher_start_gold_raises_estate_scores(tmp_path):
    box = house_box(tmp_path, "estate", "game.toml", "hand = { gold = 0,", "hand = { gold = 20,")
    c = C.compare(box, game="estate", games=10, workers=1, progress=False)
    total = c.row("gold value per player (total)")
    gold = c.row("gold value: gold")
    assert total.significant and total.diff[1] > 0
    assert gold.significant and gold.diff[1] > 0


def test_more_points_for_the_most_tokens_raise_landmarks_scores(tmp_path):
    box = house_box(tmp_path, "landmarks", "scoring.toml", "points = 2", "points = 5")
    c = C.compare(box, game="landmarks", games=10, workers=1, progress=False)
    total = c.row("module points per player (total)")
    assert total.significant and total.diff[1] > 0
    most = [r for r in c.rows if r.name.startswith("module points: most ")]
    assert most and all(r.diff[0] >= 0 for r in most)


def test_games_needed_for_a_width():
    row = C._rate_row("g", "r", [1, 0] * 50, [1, 0] * 50)  # p = 0.5 on both sides
    # Wilson at p = 1/2 is centred, half-width z / (2 sqrt(n + z^2)); Newcombe's is sqrt(2)
    # times that: z / sqrt(2 (n + z^2)) <= w  <=>  n >= z^2 (1 / (2 w^2) - 1) = 764.4 -> 765
    assert row.games_for(0.05) == 765
    assert row.games_for(0.025) == math.ceil(C._Z ** 2 * (1 / (2 * 0.025 ** 2) - 1))  # 3070
    assert row.half_width(100) == pytest.approx((row.diff[2] - row.diff[1]) / 2)  # the width shown
    with pytest.raises(ValueError, match="half_width"):
        row.games_for(0)


def test_games_needed_when_two_games_show_no_spread():
    """``--games 2`` with no win in either box: the interval shown is Newcombe's
    +-z^2 / (2 + z^2) = +-65.8 pts, and the games-needed line uses that same interval:
    +-w needs z^2 (1 / w - 1) games (+-5 pts: 72.99 -> 73; +-2 pts: 188.2 -> 189), not the
    2 games a zero variance would give."""
    row = C._rate_row("g", "seat 1 wins", [0, 0], [0, 0])
    assert (row.diff[2] - row.diff[1]) / 2 == pytest.approx(C._Z ** 2 / (2 + C._Z ** 2))
    assert row.games_for(0.05) == 73 and row.games_for(0.02) == 189
    assert row.games_for(0.7) == 2  # already narrower than +-70 pts
    c = C.Comparison(game=game_names()[0], title="T", reference_name="a", house_name="b", fingerprints=("x", "y"),
                     players=2, agents="greedy", games=2, seed=0, rows=[row])
    precision = c.notes()[-1]
    assert "+-65.8 pts with 2 games per box" in precision
    assert "+-5 pts needs 73 games per box; +-2 pts needs 189 games per box" in precision


def test_games_needed_for_a_mean_use_welch():
    # variances 1 and 1: half-width t(df) sqrt(2 / n) with df = 2 (n - 1); n = 32: t(62) =
    # 1.9990 -> 0.49975 <= 0.5; n = 31: t(60) = 2.0003 -> 0.5081 > 0.5
    row = C.Row("g", "m", "mean", (0, 0, 0), (0, 0, 0), (0, 0, 0), 1.0, 10, spread=(1.0, 1.0))
    assert row.half_width(32) == pytest.approx(1.99897 * math.sqrt(2 / 32), abs=1e-5)
    assert row.games_for(0.5) == 32


def test_compare_refuses_bad_counts_and_a_wrong_box():
    with pytest.raises(ValueError, match="at least 2"):
        C.compare(get_game("haunted").default_box(), games=1, progress=False)
    with pytest.raises(ValueError):
        C.compare(DATA / "estate", game="haunted", games=2, progress=False)  # the haunted loader refuses it


# ============================================================================ the command line


@pytest.fixture(scope="module")
def ghost_box(tmp_path_factory):
    return house_box(tmp_path_factory.mktemp("ghosts"), "haunted", "game.toml", "ghosts_per_spread = 4",
                     "ghosts_per_spread = 10")


def test_cli_prints_the_table_and_writes_html_naming_both_boxes(ghost_box, tmp_path, capsys):
    out = tmp_path / "report.html"
    assert cli.main(["compare", "--box", str(ghost_box), "--games", "6", "--workers", "1", "--no-progress",
                     "--html", str(out)]) == 0
    text = capsys.readouterr().out
    assert "house rules haunted_house against reference box (data)" in text
    assert re.search(r"collective-loss rate +\d", text)
    assert "Wilson" in text and "Welch" in text and "Holm" in text
    html = out.read_text()
    assert "haunted_house" in html and "reference box (data)" in html
    assert get_game("haunted").default_box().fingerprint in html
    assert 'src="data:image/png;base64,' in html
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


def test_the_header_names_an_empty_option_list_none():
    """An option whose value is an empty list (no extra ghost card) read 'extra_ghost_cards ,'."""
    c = C.Comparison(game=game_names()[0], title="T", reference_name="ref", house_name="house", fingerprints=("a", "b"),
                     players=3, agents="greedy", games=10, seed=0, options={"cards": [], "more": [2, 3], "word": "x"})
    assert c.header()[1] == ("10 games per box, seeds 0..9, 3 players, cards none, more 2,3, word x, agents greedy "
                             "(the same seeds and bots for both boxes)")


def test_html_write_is_atomic(ghost_box, tmp_path, monkeypatch):
    c = C.compare(ghost_box, games=3, workers=1, progress=False)
    out = tmp_path / "report.html"
    out.write_text("the old report")

    def fail(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        c.write_html(out)
    assert out.read_text() == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.parametrize("args, message", [
    (["--box", "{tmp}/nowhere"], "no such folder"),
    (["--box", str(DATA / "estate")], "is the 'estate' game's box, not the 'haunted' game's: try --game estate"),
    (["--box", str(DATA), "--game", "estate"], "try --game haunted"),
    (["--box", str(DATA), "--games", "1"],
     "argument --games: the value must be a whole number from 2 to 1,000,000 (an interval needs two games), got '1'"),
    (["--box", str(DATA), "--games", "0"],
     "argument --games: the value must be a whole number from 2 to 1,000,000 (an interval needs two games), got '0'"),
    (["--box", str(DATA), "--games", "-3"], "must be a whole number from 2 to 1,000,000"),
    (["--box", str(DATA), "--games", "x"], "must be a whole number from 2 to 1,000,000 (an interval needs two games), got 'x'"),
    (["--box", str(DATA), "--games", "nan"], "got 'nan'"),
    (["--box", str(DATA), "--players", "9"], "this box plays 2..4"),
    (["--box", str(DATA), "--agents", "nobody"], "unknown agent 'nobody'"),
    (["--box", str(DATA / "estate"), "--game", "estate", "--mode", "builder"], "belong to Haunted Lands"),
    (["--box", str(DATA), "--html", "{tmp}/no/such/dir/r.html"], "--html"),
    (["--box", str(DATA), "--rows", "{tmp}/no/such/dir/r.csv"], "--rows {tmp}/no/such/dir/r.csv"),
    (["--box", str(DATA), "--rows", "{tmp}/r.html", "--html", "{tmp}/r.html"], "--rows {tmp}/r.html and --html {tmp}/r.html are the same file"),
])
def test_cli_misuse_prints_usage_and_exits_2(args, message, tmp_path, capsys):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", *args, "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: haunted-kit compare" in err
    assert message.replace("{tmp}", str(tmp_path)) in err


def test_cli_broken_box_is_one_line(tmp_path, capsys):
    box = house_box(tmp_path, "haunted", "game.toml", "ghosts_per_spread = 4", "ghosts_per_spread = -1")
    assert cli.main(["compare", "--box", str(box), "--games", "2", "--no-progress"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith(f"haunted-kit compare: the box {box} does not load: ")
    assert "ghosts_per_spread" in err


def test_no_help_text_shows_a_doubled_percent_sign(capsys):
    """argparse %-formats option help but prints descriptions as written: ``95%%`` in a
    description reached the screen. Every subcommand's help, and the top one."""
    subs = {a.dest: a for a in cli.build_parser()._actions if hasattr(a, "choices") and a.dest == "command"}
    for command in [None, *subs["command"].choices]:
        with pytest.raises(SystemExit) as exc:
            cli.main(([command] if command else []) + ["--help"])
        assert exc.value.code == 0
        text = capsys.readouterr().out
        assert "%%" not in text, command
    with pytest.raises(SystemExit):
        cli.main(["compare", "--help"])
    assert "95% intervals" in capsys.readouterr().out


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_cli_rows_writes_one_row_per_game_of_both_boxes(suffix, tmp_path, capsys):
    import pandas as pd

    game = games_with_box()[-1]  # compare needs a box
    box = tmp_path / "house"
    shutil.copytree(box_dir(game), box, ignore=shutil.ignore_patterns("estate", "landmarks"))
    out = tmp_path / f"games{suffix}"
    players = get_game(game).min_players
    assert cli.main(["compare", "--game", game, "--box", str(box), "--games", "3", "--seed", "5", "--players",
                     str(players), "--agents", "greedy,random", "--workers", "1", "--no-progress", "--rows",
                     str(out)]) == 0
    assert f"Per-game rows written to {out}" in capsys.readouterr().out
    rows = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
    assert len(rows) == 6  # 3 games per box, one row each
    assert list(rows["box"]) == ["reference"] * 3 + ["house"] * 3
    assert list(rows["seed"]) == [5, 6, 7] * 2
    seats = [f"seat{s}_{c}" for s in range(1, players + 1) for c in ("player", "agent", "score", "rank", "won")]
    assert set(seats) <= set(rows.columns)
    assert f"seat{players + 1}_score" not in rows.columns
    # the same games as the report's own rows: each seat's score, agent and result
    c = C.compare(box, game=game, games=3, seed=5, players=players, agents="greedy,random", workers=1, progress=False)
    for k, (_, g) in enumerate(c.reference_rows.groupby("game_id", sort=True)):
        for _, r in g.iterrows():
            assert rows.loc[k, f"seat{r['seat']}_score"] == r["score"]
            assert rows.loc[k, f"seat{r['seat']}_agent"] == r["agent"]
            assert bool(rows.loc[k, f"seat{r['seat']}_won"]) == bool(r["won"])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def _declared():
    """(game, option) for every whole-number option a registered game declares (``options``)."""
    return [(n, o) for n in game_names() for o in game_options(get_game(n)) if o.kind == "int"]


def test_a_declared_game_option_reaches_every_game_and_is_refused_elsewhere(tmp_path, capsys):
    declared = [(g, o) for g, o in _declared() if g in games_with_box()]  # compare needs a box
    assert declared, "a registered game declares a whole-number option (Landmarks: rounds)"
    for game, opt in declared:
        box = tmp_path / f"{game}_house"
        if not box.exists():
            shutil.copytree(box_dir(game), box, ignore=shutil.ignore_patterns("estate", "landmarks"))
        value = str(int(opt.low) + 1)
        rows = tmp_path / f"{game}.csv"
        assert cli.main(["compare", "--game", game, "--box", str(box), "--games", "2", "--workers", "1",
                         "--no-progress", "--" + opt.flag, value, "--rows", str(rows)]) == 0
        assert f", {opt.keyword} {value}," in capsys.readouterr().out  # the header says what was played
        import pandas as pd

        assert {json.loads(o)[opt.keyword] for o in pd.read_csv(rows)["options"]} == {int(value)}
        for bad in ([str(opt.low - 1)] if opt.low is not None else []) + ([str(opt.high + 1)] if opt.high is not None else []):
            with pytest.raises(SystemExit) as exc:
                cli.main(["compare", "--game", game, "--box", str(box), "--games", "2", "--" + opt.flag, bad])
            assert exc.value.code == 2
            assert f"argument --{opt.flag}: must be a whole number" in capsys.readouterr().err
        for other in games_with_box():
            if any(o.keyword == opt.keyword for o in game_options(get_game(other))):
                continue
            with pytest.raises(SystemExit) as exc:
                cli.main(["compare", "--game", other, "--box", str(box_dir(other)), "--" + opt.flag, value])
            assert exc.value.code == 2
            assert "--" + opt.flag in capsys.readouterr().err


@pytest.mark.parametrize("game, opt", _declared())
def test_a_declared_option_says_the_range_new_game_takes(game, opt):
    """The declaration and ``new_game`` agree: the bounds are taken, one beyond is refused."""
    g = get_game(game)
    players = g.min_players
    for v in (opt.low, opt.high):
        if v is not None:
            g.new_game(players=players, seed=0, **{opt.keyword: opt.check(int(v))})
    for v in ((opt.low - 1) if opt.low is not None else None, (opt.high + 1) if opt.high is not None else None):
        if v is not None:
            with pytest.raises(ValueError):
                g.new_game(players=players, seed=0, **{opt.keyword: int(v)})
            with pytest.raises(ValueError, match="must be a whole number"):
                opt.check(int(v))


def test_both_boxes_on_one_pool_give_the_rows_of_one_process(ghost_box):
    """``compare`` plays both boxes on one set of worker processes (simulate's
    ``ProcessPool``): the same games, row for row, as in this process."""
    one = C.compare(ghost_box, games=4, workers=1, progress=False)
    two = C.compare(ghost_box, games=4, workers=2, progress=False)
    assert one.reference_rows.equals(two.reference_rows) and one.house_rows.equals(two.house_rows)
    assert not two.identical_games()  # the house box was played, not the reference twice


def test_the_permutation_test_agrees_with_the_exact_count_of_relabellings():
    """[0, 1, 0, 1] against [1, 1, 1, 1]: of the C(8, 4) = 70 ways to deal the 8 values into
    two groups of 4, the difference is at least as far from 0 as 0.5 when both zeros fall in
    one group: 15 + 15 = 30, p = 30/70 = 0.4286; the test's 4,999 relabellings come within
    a Monte Carlo error (seeded: the same p every run)."""
    p = C.permutation_p([0, 1, 0, 1], [1, 1, 1, 1])
    assert abs(p - 30 / 70) < 0.02 and p == C.permutation_p([0, 1, 0, 1], [1, 1, 1, 1])
    assert C.permutation_p([2, 2, 2], [2, 2, 2]) == 1.0                 # nothing to tell apart
    # 50 of 100 against 70 of 100: Fisher's exact test gives 0.0063 (two-sided)
    assert 0.003 < C.permutation_p([0] * 50 + [1] * 50, [0] * 30 + [1] * 70) < 0.01
    # the smallest p the test can give: nothing in 4,999 relabellings is as far as 0 vs 10
    assert C.permutation_p([0] * 30, [10] * 30) == 1 / (C.SHUFFLES + 1)
