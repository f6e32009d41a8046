"""Running a notebook in the Lab leaves no diff in what the tests compare: `bootstrap.py lab`
opens the user's copies in my_notebooks/ (ignored by git), made from notebooks/, whose
executed outputs nbval compares. Executed as the Lab executes it (a kernel started in the
notebook's folder, every cell run) and saved as the Lab saves it (jupyter_server's contents
manager), a notebook leaves `git status` of the checkout empty."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import bootstrap  # noqa: E402

START = "00_start_here.ipynb"


def _git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def checkout(tmp_path):
    """A checkout with the start notebook, the notebooks' data, a teacher copy and the
    repository's .gitignore, committed."""
    nb = tmp_path / "notebooks"
    (nb / ".teacher").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / START, nb / START)
    shutil.copytree(ROOT / "notebooks" / "data", nb / "data")
    (nb / ".teacher" / START).write_text("{}\n")
    shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return tmp_path


def test_the_lab_opens_copies_and_keeps_a_users_saved_work(checkout):
    start = bootstrap.ensure_workspace(checkout)
    assert start == checkout / bootstrap.WORKSPACE / START
    copies = sorted(p.relative_to(start.parent).as_posix() for p in start.parent.rglob("*") if p.is_file())
    assert START in copies and any(c.startswith("data/") for c in copies)
    assert not any(c.startswith(".teacher") for c in copies)  # the answers stay one folder away
    start.write_text("my own work\n")
    bootstrap.ensure_workspace(checkout)  # again: the user's file is kept
    assert start.read_text() == "my own work\n"
    start.unlink()
    assert bootstrap.ensure_workspace(checkout).read_bytes() == (checkout / "notebooks" / START).read_bytes()


def test_a_run_saved_in_the_lab_leaves_the_compared_outputs_unchanged(checkout):
    from jupyter_server.services.contents.filemanager import FileContentsManager

    start = bootstrap.ensure_workspace(checkout)
    rel = start.relative_to(checkout).as_posix()
    contents = FileContentsManager(root_dir=str(checkout))
    nb = nbformat.from_dict(contents.get(rel)["content"])
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(start.parent)}}).execute()
    contents.save({"type": "notebook", "format": "json", "content": nb}, rel)  # what the Lab's Save does

    saved = json.loads(start.read_text())
    tracked = json.loads((checkout / "notebooks" / START).read_text())
    counts = [c.get("execution_count") for c in saved["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1))  # the run is in the saved copy
    assert saved != tracked
    assert _git(checkout, "status", "--porcelain") == ""  # notebooks/ as the tests compare it; copies ignored
    assert _git(checkout, "check-ignore", rel).strip() == rel
