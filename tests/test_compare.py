"""The house-rule impact report (haunted_kit.compare and ``haunted-kit compare``)."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from pathlib import Path

import pytest

from haunted_kit import cli
from haunted_kit import compare as C
from haunted_kit.games import default_players, game_names, get_game
from haunted_kit.simulate import Grid, play_one

DATA = Path(__file__).resolve().parents[1] / "data"
#: where each game's box lives in the kit's data/
BOX_DIR = {"haunted": DATA, "estate": DATA / "estate", "landmarks": DATA / "landmarks"}


def house_box(tmp_path: Path, game: str, file: str, old: str, new: str) -> Path:
    """A copy of ``game``'s box with the first ``old`` in ``file`` replaced by ``new``."""
    out = tmp_path / f"{game}_house"
    shutil.copytree(BOX_DIR[game], out, ignore=shutil.ignore_patterns("estate", "landmarks"))
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


# ============================================================================ comparisons


@pytest.mark.parametrize("game", game_names())
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
    # z^2 (0.25 + 0.25) / 0.05^2 = 768.3 -> 769 games per box
    assert row.games_for(0.05) == 769
    assert row.games_for(0.025) == math.ceil(C._Z ** 2 * 0.5 / 0.025 ** 2)
    with pytest.raises(ValueError, match="half_width"):
        row.games_for(0)


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
    (["--box", str(DATA), "--games", "1"], "must be at least 2"),
    (["--box", str(DATA), "--games", "x"], "expected a whole number"),
    (["--box", str(DATA), "--players", "9"], "this box plays 2..4"),
    (["--box", str(DATA), "--agents", "nobody"], "unknown agent 'nobody'"),
    (["--box", str(DATA / "estate"), "--game", "estate", "--mode", "builder"], "belong to Haunted Lands"),
    (["--box", str(DATA), "--html", "{tmp}/no/such/dir/r.html"], "--html"),
])
def test_cli_misuse_prints_usage_and_exits_2(args, message, tmp_path, capsys):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", *args, "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: haunted-kit compare" in err
    assert message in err


def test_cli_broken_box_is_one_line(tmp_path, capsys):
    box = house_box(tmp_path, "haunted", "game.toml", "ghosts_per_spread = 4", "ghosts_per_spread = -1")
    assert cli.main(["compare", "--box", str(box), "--games", "2", "--no-progress"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith(f"haunted-kit compare: the box {box} does not load: ")
    assert "ghosts_per_spread" in err
