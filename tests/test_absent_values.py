"""A value absent by design (no player for a setup event, no join fee for an empty slot, no
figure for a row) shows as absent in every table the kit shows, never as ``NaN``: the
kit's frames use pandas' nullable dtypes (``<NA>``), and every table in the notebooks'
executed outputs is free of ``NaN``."""

import json
import random
import re
from pathlib import Path

import pandas as pd
import pytest

from haunted_kit.frames import nullable
from haunted_kit.games import default_players, game_names, get_game, start_game

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
NAN = re.compile(r"\bNaN\b")


def _played(name, decisions=60, seed=3):
    game = get_game(name)
    s = start_game(game, players=default_players(game), seed=seed, log=True)
    rng = random.Random(seed)
    for _ in range(decisions):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_chance(rng.choice(outcomes)[0] if isinstance(outcomes[0], tuple) else rng.choice(outcomes))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("name", game_names())
def test_every_games_event_table_shows_no_nan(name):
    df = _played(name).events()
    assert len(df) > 0
    # setup and deal events have no player: the column says so without NaN
    assert df["player"].isna().any() and df["player"].notna().any(), name
    assert str(df["player"].dtype) == "string", name
    for shown in (df.to_string(), df.to_html()):
        assert not NAN.search(shown), name
        assert "<NA>" in shown or "&lt;NA&gt;" in shown


def test_nullable_keeps_values_and_marks_only_gaps():
    df = nullable(pd.DataFrame([{"who": "P1", "fee": None, "n": 1, "cell": (0, 1)},
                                {"who": None, "fee": 2, "n": 2, "cell": None}]))
    assert list(map(str, df.dtypes)) == ["string", "Int64", "int64", "object"]
    assert df["fee"].tolist()[1] == 2 and df["fee"].isna().tolist() == [True, False]
    assert df["who"].isna().tolist() == [False, True]
    assert "NaN" not in df.to_string() and "1.0" not in df.to_string()


def _tables(nb: Path):
    """(cell number, text) of every table a notebook's stored outputs show."""
    for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/html" in data and "<table" in "".join(data["text/html"]):
                yield i, "".join(data["text/html"])
            elif "text/plain" in data:
                yield i, "".join(data["text/plain"])


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_table_in_a_notebook_shows_nan(nb):
    bad = [i for i, text in _tables(nb) if NAN.search(text)]
    assert not bad, f"{nb.name}: cells {bad} show NaN"


CUT = re.compile(r"(\.\.\.|…)</t[dh]>")  # a sentence cut short, or columns or rows left out


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_table_in_a_notebook_cuts_a_sentence(nb):
    """Every table shows its sentences whole (event texts, refusal reasons): the notebooks
    call haunted_kit.notebook.setup(), which lifts pandas' column width limit."""
    bad = [i for i, text in _tables(nb) if "<table" in text and CUT.search(text)]
    assert not bad, f"{nb.name}: cells {bad} cut a sentence"


def test_a_column_no_row_fills_keeps_its_objects_and_a_cell_column_stays_readable():
    """A column every row leaves empty (Landmarks' events have no cell) is not typed as text:
    its values stay ``None`` and code reading a cell column (``haunted-kit play --log x.csv``)
    meets no ``<NA>`` it cannot read."""
    frame = nullable(pd.DataFrame({"cell": [None, None], "player": ["P1", None]}))
    assert frame["cell"].dtype == object and frame["cell"].tolist() == [None, None]
    assert str(frame["player"].dtype) == "string" and frame["player"].isna().tolist() == [False, True]


@pytest.mark.parametrize("name", game_names())
def test_every_games_event_log_writes_as_csv(tmp_path, name):
    from haunted_kit.cli import _write_log

    s = _played(name)
    _write_log(s, tmp_path / "log.csv")
    back = pd.read_csv(tmp_path / "log.csv")
    assert len(back) == len(s.events()) > 0
    assert all(v != v or json.loads(v) for v in back["cell"])  # every written cell is a JSON pair, or empty
