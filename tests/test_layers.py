"""The import graph of haunted_kit is layered (docs/ARCHITECTURE.md, "Rules of the house"):
no module imports one of a higher layer, and there is no import circle. Imports are
read with ast, including those inside functions, so a lazy import counts as an arrow; and
an import inside a function must say why it is lazy (``# lazy: <reason>``), or move to the top."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

from haunted_kit.games import REGISTRY

PACKAGE = Path(__file__).resolve().parents[1] / "haunted_kit"

#: the game packages of the kit: the registry's entries inside haunted_kit (a game registered from
#: outside, e.g. tests/fourth_game's, is no package of the kit)
GAMES = tuple(sorted({module.split(".")[1] for module, _ in REGISTRY.values() if module.startswith("haunted_kit.")}))

#: layer of each kit module (dotted below haunted_kit; a package name covers its modules)
KIT_LAYERS = {
    # 0: the protocol, vocabularies, file I/O, the box folder, hex grids
    "protocol": 0, "events": 0, "hexgrid": 0, "games": 0, "fileio": 0, "limits": 0, "saves": 0, "provenance": 0, "progress": 0,
    "notebook": 0, "frames": 0, "boxfile": 0, "boxschema": 0, "workers": 0, "visibility": 0,
    # 1: shared drawing, search over any game, the printed handout's page, the table server's game side
    "render": 1, "explain": 1, "search": 1, "handout": 1, "tableview": 1,
    # 2: agents by spec, shared widget pieces, exercises for any game
    "bots": 2, "widgets": 2, "play": 2, "exercises": 2, "tutorial": 2,
    # 3: tools that take a Game
    "testing": 3, "simulate": 3, "env": 3, "store": 3, "review": 3,
    "widgets.box_editor": 3,  # the house-rule editor: a widget that plays its box with testing.check_box
    # 4: the front doors, and reports built on the tools (compare plays grids with simulate)
    "cli": 4, "classroom": 4, "server": 4, "compare": 4, "__main__": 4, "lesson": 4,
}

#: layer of each module inside a game package (the same table for every game)
GAME_LAYERS = {
    "actions": 0, "box": 0, "boxmodels": 0, "effects": 0, "flow": 0,
    "board": 1,
    "state": 2, "serial": 2,
    "rules": 3,
    "agents": 4, "encoding": 4,  # what the Game's hooks hand out: its bots, the environment's encodings
    "engine": 5, "": 5,
    "sim": 6, "history": 6, "scenario": 6, "analysis": 6, "exercises": 6, "pathfinding": 6, "tutorial": 6,
    "draw": 7, "widgets": 7, "handout": 7, "classroom": 7,
    "cli": 8,
}

#: kit modules that still reach a game directly (to be emptied: the kit never imports a game)
KIT_TO_GAME_ALLOWED: set[str] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def game_of_module(name: str) -> str | None:
    """The game package a module belongs to, or None for a kit module."""
    top = name.split(".")[0]
    return top if top in GAMES else None


def layer_of(name: str) -> int | None:
    """Kit modules by :data:`KIT_LAYERS`; a game's modules by :data:`GAME_LAYERS` (offset
    by 10, so a game sits above every kit module and may use any of them)."""
    game = game_of_module(name)
    table, rest = (GAME_LAYERS, name.split(".", 1)[1] if "." in name else "") if game else (KIT_LAYERS, name)
    while True:
        if rest in table:
            return table[rest] + (10 if game else 0)
        if not rest:
            return None
        rest = rest.rpartition(".")[0]


def imports_of(path: Path, name: str, package: Path = PACKAGE) -> set[str]:
    """haunted_kit modules imported by the module at ``path`` (dotted, below haunted_kit)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("haunted_kit."):
                    out.add(a.name[len("haunted_kit."):])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                mod = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("haunted_kit"):
                mod = node.module[len("haunted_kit."):] if node.module != "haunted_kit" else ""
            else:
                continue
            for a in node.names:  # `from . import rules` names a module
                sub = f"{mod}.{a.name}" if mod else a.name
                out.add(sub if (package / sub.replace(".", "/")).with_suffix(".py").exists()
                        or (package / sub.replace(".", "/")).is_dir() else mod)
    out.discard("")
    out.discard(name)
    return out


def graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        if not name:
            continue  # haunted_kit/__init__.py re-exports the public API from every layer
        g.add_node(name)
        for target in imports_of(path, name):
            g.add_edge(name, target)
    return g


def test_every_module_has_a_layer():
    missing = [m for m in graph() if layer_of(m) is None]
    assert not missing, f"modules without a layer in KIT_LAYERS / GAME_LAYERS: {missing}"


def upward(g: nx.DiGraph) -> list:
    return [(a, b, layer_of(a), layer_of(b)) for a, b in g.edges if (layer_of(b) or 0) > (layer_of(a) or 0)]


def describe(up) -> str:
    return "; ".join(f"{a} (layer {la}) -> {b} (layer {lb})" for a, b, la, lb in up)


def test_no_arrow_points_upward():
    """Inside the kit and inside each game, every import points to the same layer or below."""
    up = [e for e in upward(graph()) if not (game_of_module(e[0]) is None and game_of_module(e[1]))]  # kit -> game: below
    assert not up, "imports from a higher layer: " + describe(up)


def test_no_import_circle():
    cycles = list(nx.simple_cycles(graph()))
    assert not cycles, f"import circles: {cycles}"


def test_the_kit_never_imports_a_game():
    """The kit reaches a game only through the registry (``games.get_game``), so a fourth
    game is one folder and one registry line."""
    bad = sorted((a, b) for a, b in graph().edges if game_of_module(a) is None and game_of_module(b) is not None
                 and a.split(".")[0] not in KIT_TO_GAME_ALLOWED)
    assert not bad, f"kit modules importing a game: {bad}"


def test_games_never_import_each_other():
    bad = sorted((a, b) for a, b in graph().edges
                 if game_of_module(a) and game_of_module(b) and game_of_module(a) != game_of_module(b))
    assert not bad, f"a game imports another game: {bad}"


def test_every_game_package_is_registered():
    """Every package of the kit holding a rule module (an ``engine.py``) is registered, so the
    layer table's game packages (read from the registry) are all of them."""
    packages = {p.parent.name for p in PACKAGE.glob("*/engine.py")}
    assert packages == set(GAMES) and len(GAMES) >= 3


def test_importing_a_companion_loads_nothing_of_haunted_lands():
    """``import haunted_kit.landmarks`` (or the estate) loads no Haunted Lands module: the
    package's short names are loaded on first use."""
    import subprocess
    import sys

    for game in ("estate", "landmarks"):
        code = (f"import sys, haunted_kit.{game}; "
                "print(sorted(m for m in sys.modules if m.startswith('haunted_kit.haunted')))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        assert out.strip() == "[]", (game, out)


LAZY_REASON = "# lazy:"  #: how a reason for an import inside a function starts


def function_local_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, source)`` of every import statement inside a function or method of ``path``
    that carries no reason: a ``# lazy: ...`` comment on its own line, or on the comment
    line directly above the run of consecutive imports it belongs to. Any imported module
    counts (the kit's own, third-party or standard library): a lazy import hides a dependency,
    so it has to say why it is lazy (e.g. it pulls pandas, which ``haunted-kit --help`` must
    not load)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    bad = []

    def has_reason(node) -> bool:
        if LAZY_REASON in lines[node.lineno - 1]:
            return True
        above = node.lineno - 2  # walk up over the run of imports this one belongs to
        while above >= 0 and lines[above].lstrip().startswith(("import ", "from ")):
            above -= 1
        return above >= 0 and lines[above].lstrip().startswith(LAZY_REASON)

    def visit(node, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)) and not has_reason(child):
                bad.append((child.lineno, lines[child.lineno - 1].strip()))
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return bad


def test_every_lazy_import_says_why():
    """Issue 9, item 7: an import inside a function either moves to the module top or
    carries a one-line ``# lazy:`` reason next to it."""
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
             for path in sorted(PACKAGE.rglob("*.py")) for line, text in function_local_imports(path)]
    assert not found, ("imports inside functions with no '# lazy: <reason>' comment on the same line or the line "
                       "above (move them to the module top, or say why they must stay):\n" + "\n".join(found))


def test_the_lazy_import_checker_reads_reasons(tmp_path):
    """The checker itself: bare function-local imports are found with their line; a reason
    on the same line, or above a run of imports, clears them; module-level imports and
    imports quoted in docstrings are not function-local."""
    mod = tmp_path / "m.py"
    mod.write_text(
        '"""Example::\n\n    from haunted_kit.haunted import engine\n"""\n'
        "import json\n"
        "def a():\n"
        "    from . import engine\n"  # line 7: bare
        "    import pandas as pd  # lazy: pandas is heavy\n"
        "def b():\n"
        "    # lazy: both pull tornado\n"
        "    from .server import serve\n"
        "    from .store import StoreError\n"
        "    x = 1\n"
        "    import numpy\n"  # line 14: the reason above does not reach over code
        "class C:\n"
        "    def m(self):\n"
        "        import reprlib\n"  # line 17: a method counts too
    )
    assert function_local_imports(mod) == [(7, "from . import engine"), (14, "import numpy"), (17, "import reprlib")]


def test_no_private_cross_module_import():
    """Issue 9, item 7: no module imports another kit module's private name (``_name``);
    what two modules share is public and documented where it lives."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("haunted_kit")):
                found += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "private names imported from another kit module:\n" + "\n".join(found)


def test_the_checker_sees_an_upward_arrow_and_a_circle(tmp_path):
    """The checker itself: a lazy import upward (inside a function) is read as an arrow,
    and a two-module circle is a cycle of the graph."""
    (tmp_path / "engine.py").write_text("from .state import State\n")
    (tmp_path / "state.py").write_text("def copy():\n    from . import engine\n    from .engine import advance\n")
    assert imports_of(tmp_path / "state.py", "state", tmp_path) == {"engine"}
    assert imports_of(tmp_path / "engine.py", "engine", tmp_path) == {"state"}
    assert layer_of("haunted.engine") > layer_of("haunted.state")  # so state -> engine points upward
    g = nx.DiGraph([("state", "engine"), ("engine", "state")])
    assert list(nx.simple_cycles(g)) == [["state", "engine"]] or list(nx.simple_cycles(g)) == [["engine", "state"]]


#: the modules that may import by a computed name: the registry (a game's engine by its
#: REGISTRY entry, a game's optional module) and the package's short names
DYNAMIC_IMPORTS_ALLOWED = {"games", ""}


def dynamic_imports(path: Path) -> list[int]:
    """Lines of ``path`` that import by a computed name (``importlib.import_module``,
    ``__import__``): arrows this checker cannot read."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in ("import_module", "__import__"):
                found.append(node.lineno)
    return sorted(found)


def test_no_import_hides_from_the_checker():
    """Every arrow is an import statement the checker reads: a game's engine imports its
    agents and encodings (layer 4, below the engine), never by a computed name, so the
    layer table is the import graph as it is."""
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
             if module_name(path) not in DYNAMIC_IMPORTS_ALLOWED for line in dynamic_imports(path)]
    assert not found, "imports by a computed name (write an import statement):\n" + "\n".join(found)


def test_the_dynamic_import_finder_sees_both_forms(tmp_path):
    mod = tmp_path / "m.py"
    mod.write_text("import importlib\n"
                   "def f():\n"
                   "    return importlib.import_module(f'{__package__}.encoding')\n"
                   "g = __import__('json')\n"
                   "from importlib import import_module as im\n")
    assert dynamic_imports(mod) == [3, 4]
