"""docs/NEW_GAME.md stays true to the code: every optional hook a kit tool looks up on a
Game (``games.hook(game, "name", tool)``, ``getattr(game, "name", ...)``,
``hasattr(game, "name")``) is documented there, and the walk-through's list of the toy
Nim's optional hooks is exactly what ``tests/fourth_game/nim``'s ``GAME`` adds to its
required core ``MINIMAL``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "NEW_GAME.md").read_text(encoding="utf-8")
#: kit modules (the top level of haunted_kit/ and its shared widgets and drawing), not a game's
KIT = sorted([*ROOT.glob("haunted_kit/*.py"), *ROOT.glob("haunted_kit/widgets/*.py"), *ROOT.glob("haunted_kit/render/*.py")])
GAME_NAMES = {"game", "g"}  #: how the kit's tools name a Game object


def looked_up_hooks(path: Path) -> set[str]:
    """The member names ``path`` looks up on a Game by a string: ``hook(game, "x", ...)``
    (also imported as ``game_hook``), ``getattr(game, "x"...)`` and ``hasattr(game, "x")``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)):
            continue
        f = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        target = node.args[0]
        on_game = isinstance(target, ast.Name) and target.id in GAME_NAMES
        if f in ("hook", "game_hook") or (f in ("getattr", "hasattr") and on_game):
            found.add(node.args[1].value)
    return found


def test_every_hook_the_kit_looks_up_is_documented():
    hooks = set().union(*(looked_up_hooks(p) for p in KIT))
    assert {"start_of", "determinise", "load_box", "action_types"} <= hooks  # the finder finds them
    missing = sorted(h for h in hooks if f"`{h}`" not in DOC)
    assert missing == [], f"hooks the kit looks up that docs/NEW_GAME.md does not name: {missing}"


def test_the_finder_reads_the_three_forms(tmp_path):
    mod = tmp_path / "m.py"
    mod.write_text("def f(game, g, state):\n"
                   "    hook(game, 'start_of', 'review')\n"
                   "    getattr(g, 'evaluate', None)\n"
                   "    hasattr(game, 'settings')\n"
                   "    getattr(state, 'log', None)\n")  # a state's member: not a Game hook
    assert looked_up_hooks(mod) == {"start_of", "evaluate", "settings"}


def test_the_walk_through_names_nims_optional_hooks(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "fourth_game"))
    from nim.engine import NimCore, NimGame

    added = {k for k in vars(NimGame) if not k.startswith("_")}
    said = re.search(r"Nim's `GAME` adds ([^)]*)\)", DOC.replace("\n", " ")).group(1)
    assert set(re.findall(r"`(\w+)`", said)) == added
    required = {"name", "title", "min_players", "max_players", "new_game", "from_dict", "action_to_dict",
                "action_from_dict"}
    assert {k for k in vars(NimCore) if not k.startswith("_")} == required
