"""scripts/rule_text_overlap.py on a small made-up checkout and rule text (the real rule
texts are not in the repository, so nothing here reads them)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "rule_text_overlap.py"

#: a made-up rule text: line 2 holds the sentence the checkout below copies
RULE = ("Made-up rules\n"
        "Each sailor rows the blue boat across the quiet lake before the bell rings twice.\n"
        "Pay 4 shells to moor.\n")
#: the words of line 2 the copies share: 14 of them from "sailor" to "twice"
SHARED = "sailor rows the blue boat across the quiet lake before the bell rings twice"


def load_script():
    """The script as a module (it is a maintainer script, not a package module)."""
    spec = importlib.util.spec_from_file_location("rule_text_overlap", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rto():
    return load_script()


def make_checkout(root: Path) -> None:
    """A checkout with one copied run in each kind of shipped text, and near misses."""
    (root / "haunted_kit").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "docs").mkdir()
    (root / "notebooks").mkdir()
    (root / "haunted_kit" / "mod.py").write_text(
        '"""A module."""\n\n'
        "def f(x):\n"
        '    """Docstring line one.\n\n'
        '    EACH SAILOR -- rows the blue boat, across the quiet lake (before the bell) rings twice!"""\n'
        '    return f"{x}: the quiet lake before the bell rings"  # 7 words of the run: not reported\n',
        encoding="utf-8")
    (root / "data" / "boats.toml").write_text(
        "[boat]\nprice = 4  # shells to moor\n"
        'text = "A sailor rows the blue boat across the quiet lake before the bell rings twice"\n', encoding="utf-8")
    (root / "docs" / "NOTES.md").write_text("Nothing copied: the bell rings, the lake is quiet.\n", encoding="utf-8")
    (root / "README.md").write_text("# Kit\n\nEach sailor's boat is blue.\n", encoding="utf-8")
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "Plain words.\n"]},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["show()"],
         "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                      "data": {"text/html": ["<td>the blue</td><td>boat across the quiet lake before the bell</td>"]}}]},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "notebooks" / "01_demo.ipynb").write_text(json.dumps(nb), encoding="utf-8")


def test_words_ignore_case_punctuation_and_apostrophes(rto):
    assert [w for w, _ in rto.words_of("Trade 2 wood, 2 LIMESTONE; player's\nturn")] == \
        ["trade", "2", "wood", "2", "limestone", "players", "turn"]
    assert [line for _, line in rto.words_of("a b\nc\n\nd")] == [0, 0, 1, 3]


def test_every_kind_of_shipped_text_is_searched_and_runs_are_maximal(rto, tmp_path):
    make_checkout(tmp_path)
    segments, problems = rto.shipped_segments(tmp_path)
    assert problems == []
    runs = rto.shared_runs({"rules.txt": RULE}, segments, 8)
    found = sorted((r.path, r.line, r.rule_line, " ".join(r.words)) for r in runs)
    assert found == [
        ("data/boats.toml", 3, 2, SHARED),                                              # 14 words
        ("haunted_kit/mod.py", 6, 2, "each " + SHARED),                                 # a docstring, 15 words
        ("notebooks/01_demo.ipynb cell 2 output", 1, 2,
         "the blue boat across the quiet lake before the bell"),                        # HTML tags dropped: 10
    ]
    # the f-string's 7 shared words, the docs' and README's few words are below 8
    assert rto.shared_runs({"rules.txt": RULE}, segments, 15)[0].path == "haunted_kit/mod.py"
    assert len(rto.shared_runs({"rules.txt": RULE}, segments, 7)) == 4


def test_a_run_inside_a_kept_passage_is_counted_not_reported(rto):
    """A kept passage is named by its rule text, a short anchor and a length: here the 7 words
    of the made-up RULE from "the quiet lake" (line 2), "the quiet lake before the bell rings"."""
    kept = [rto.Kept("rules.txt", "the quiet lake", 7, "a made-up fixed phrase")]
    passages, problems = rto.kept_passages({"rules.txt": RULE}, kept)
    assert passages == {"the quiet lake before the bell rings": "a made-up fixed phrase"} and problems == []
    inside = rto.Run("data/x.toml", 1, "rules.txt", 2, tuple("quiet lake before the bell".split()))
    assert rto.kept_reason(inside, passages) == "a made-up fixed phrase"
    assert rto.kept_reason(inside, {}) is None
    # past the passage's end, or on part of a word, it is not kept
    longer = rto.Run("data/x.toml", 1, "rules.txt", 2, tuple("lake before the bell rings twice".split()))
    assert rto.kept_reason(longer, passages) is None
    partial = rto.Run("data/x.toml", 1, "rules.txt", 2, tuple("he quiet lake before the bell".split()))
    assert rto.kept_reason(partial, passages) is None
    # a passage whose rule text or anchor is missing is named, and keeps nothing
    passages, problems = rto.kept_passages({"rules.txt": RULE}, [rto.Kept("rules.txt", "the green lake", 3, "x"),
                                                                 rto.Kept("other.txt", "the quiet lake", 3, "y")])
    assert passages == {}
    assert problems == ["kept passage 'the green lake'...: not found in rules.txt",
                        "kept passage 'the quiet lake'...: no rule text other.txt"]


def run_script(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_the_command_reports_runs_and_exits_1(tmp_path):
    make_checkout(tmp_path / "kit")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "rules.txt").write_text(RULE, encoding="utf-8")
    done = run_script(tmp_path / "rules", "--root", tmp_path / "kit")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert f'data/boats.toml:3: 14 words, rules.txt line 2: "{SHARED}"' in lines
    assert lines[-1].startswith("3 run(s) of 8+ words to reword, 0 kept, in ")
    # reworded: nothing left, exit 0
    (tmp_path / "kit" / "data" / "boats.toml").write_text('text = "Row the blue boat over the lake before two bells"\n')
    (tmp_path / "kit" / "haunted_kit" / "mod.py").write_text('"""A module."""\n')
    (tmp_path / "kit" / "notebooks" / "01_demo.ipynb").write_text('{"cells": []}')
    done = run_script(tmp_path / "rules", "--root", tmp_path / "kit")
    assert done.returncode == 0 and done.stdout.startswith("0 run(s) of 8+ words to reword"), done.stdout


def test_a_file_that_does_not_parse_is_named_and_skipped(tmp_path):
    make_checkout(tmp_path / "kit")
    (tmp_path / "kit" / "notebooks" / "02_broken.ipynb").write_text("{not json", encoding="utf-8")
    (tmp_path / "kit" / "haunted_kit" / "bad.py").write_text("def (:\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "rules.txt").write_text(RULE, encoding="utf-8")
    done = run_script(tmp_path / "rules", "--root", tmp_path / "kit")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "notebooks/02_broken.ipynb: skipped, JSONDecodeError" in done.stderr
    assert "haunted_kit/bad.py: skipped, SyntaxError" in done.stderr


@pytest.mark.parametrize("args, says", [
    (["{missing}"], "is not a folder"),
    (["{empty}"], "holds no *.txt rule text"),
    (["{rules}", "--words", "1"], "--words must be a whole number of at least 2, got 1"),
    (["{rules}", "--words", "x"], "invalid int value: 'x'"),
    (["{rules}", "--root", "{empty}"], "is not a checkout of the kit"),
])
def test_bad_arguments_get_usage_and_exit_2(tmp_path, args, says):
    (tmp_path / "empty").mkdir()
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "rules.txt").write_text(RULE, encoding="utf-8")
    names = {"missing": tmp_path / "missing", "empty": tmp_path / "empty", "rules": tmp_path / "rules"}
    done = run_script(*(a.format(**names) for a in args))
    assert done.returncode == 2 and says in done.stderr and "usage:" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
