"""The import graph of haunted_kit is layered (docs/ARCHITECTURE.md, "Import layers"):
no module imports one of a higher layer, and there is no import circle. Imports are
read with ast, including those inside functions, so a lazy import counts as an arrow; and
an import inside a function must say why it is lazy (``# lazy: <reason>``), or move to the top."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "haunted_kit"

#: layer of each module (by dotted name below haunted_kit; a package name covers its modules)
LAYERS = {
    # 0: the protocol and the vocabularies, the hex grid and the box loader
    "protocol": 0, "actions": 0, "events": 0, "hexgrid": 0, "components": 0, "effects": 0, "games": 0, "fileio": 0,
    "provenance": 0, "flow": 0, "progress": 0, "notebook": 0,
    "board": 1,
    "state": 2, "serial": 2,
    "rules": 3,
    "engine": 4,
    "pathfinding": 5, "agents": 5, "sim": 5, "history": 5, "scenario": 5, "analysis": 5, "testing": 5,
    "bots": 5, "search": 5, "simulate": 5, "env": 5, "encoding": 5, "exercises": 5, "store": 5,
    "render": 6, "widgets": 6, "handout": 6,
    "cli": 7, "classroom": 7, "server": 7, "render.__main__": 7,
    # the companion rule modules stand beside the Haunted Lands rules, layer for layer
    "estate.actions": 0, "estate.box": 0, "estate.board": 1,
    "estate.state": 2, "estate.rules": 3, "estate.engine": 4, "estate": 4,
    "estate.agents": 5, "estate.sim": 5, "estate.encoding": 5, "estate.analysis": 5, "estate.scenario": 5,
    "estate.draw": 6, "estate.widgets": 6,
    "estate.cli": 7,
    "landmarks.actions": 0, "landmarks.box": 0,
    "landmarks.state": 2, "landmarks.rules": 3, "landmarks.agents": 4, "landmarks.engine": 4, "landmarks": 4,
    "landmarks.encoding": 5, "landmarks.render": 6,
    "landmarks.cli": 7,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(name: str) -> int | None:
    while name:
        if name in LAYERS:
            return LAYERS[name]
        name = name.rpartition(".")[0]
    return None


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
    assert not missing, f"modules without a layer in LAYERS: {missing}"


COMPANIONS = ("estate", "landmarks")  #: companion rule modules (checked apart below)


def is_companion(name: str) -> bool:
    return name.split(".")[0] in COMPANIONS


def upward(g: nx.DiGraph) -> list:
    return [(a, b, layer_of(a), layer_of(b)) for a, b in g.edges if (layer_of(b) or 0) > (layer_of(a) or 0)]


def describe(up) -> str:
    return "; ".join(f"{a} (layer {la}) -> {b} (layer {lb})" for a, b, la, lb in up)


def test_no_arrow_points_upward():
    g = graph()
    up = [e for e in upward(g) if not is_companion(e[0])]
    assert not up, "imports from a higher layer: " + describe(up)


def test_no_import_circle():
    g = graph()
    cycles = list(nx.simple_cycles(g.subgraph(m for m in g if not is_companion(m))))
    assert not cycles, f"import circles: {cycles}"


def test_companions_never_import_haunted_lands_rules():
    g = graph()
    bad = [(a, b) for a, b in g.edges if is_companion(a) and b in ("state", "serial", "rules", "engine", "board")]
    assert not bad, f"a companion rule module imports Haunted Lands rules: {bad}"


def test_companions_are_layered_too():
    g = graph()
    sub = g.subgraph(m for m in g if is_companion(m))
    up = [e for e in upward(g) if is_companion(e[0])]
    assert not up and not list(nx.simple_cycles(sub)), describe(up)


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
        '"""Example::\n\n    from haunted_kit import engine\n"""\n'
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
    assert layer_of("engine") > layer_of("state")  # so state -> engine points upward
    g = nx.DiGraph([("state", "engine"), ("engine", "state")])
    assert list(nx.simple_cycles(g)) == [["state", "engine"]] or list(nx.simple_cycles(g)) == [["engine", "state"]]
