"""Find the runs of words the kit's shipped texts share with the rule texts.

House rule: the kit's data, docs and messages are written in the kit's own words; facts
and numbers carry over from the rule texts, their sentences do not. This script lists
every run of ``--words`` (8 by default) or more consecutive words that a rule text and a
shipped text have in common, compared without case and punctuation (``Trade 2 wood, 2
limestone`` and ``trade 2 wood 2 limestone`` are the same six words).

Shipped texts: every text file under ``data/`` and ``docs/``, ``README.md``, the markdown
cells and stored outputs of ``notebooks/*.ipynb`` (HTML tags dropped), the string literals
of ``haunted_kit/**/*.py`` (docstrings, messages, refusals; each literal on its own, the
literal pieces of an f-string joined) and the other text files under ``haunted_kit/``.

The rule texts are not in the repository; give their folder (every ``*.txt`` in it)::

    python scripts/rule_text_overlap.py /work/shared/rules
    python scripts/rule_text_overlap.py RULES_DIR --words 10 --root CHECKOUT

Output: one line per run, ``path:line: N words, RULEFILE line M: "the words"``, longest
runs first within a file, then a summary. Runs inside a passage listed in :data:`KEPT`
(section titles, price lists) are counted as kept, not reported. Exit status: 0 when no run is left to
reword, 1 when some are, 2 for bad arguments (no traceback).
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

@dataclass(frozen=True)
class Kept:
    """A passage of a rule text whose words may stay in the kit, named by where it is
    rather than by its words (so this script does not carry the rule text either): in the
    rule text ``rule``, the ``words`` words from the first place its words read ``anchor``
    (a short label, lower case, no punctuation), kept for ``reason``."""

    rule: str
    anchor: str
    words: int
    reason: str


#: The shared runs that may stay: a run is kept when its words lie inside one of these passages.
KEPT: list[Kept] = [
    Kept("haunted-lands-rulebook.txt", "valor points and the valor track", 8,
         "two Haunted Lands rulebook section titles (its contents list), cited one after the other"),
    Kept("haunted-lands-rulebook.txt", "card 1 1 resource", 22,
         "Haunted Lands Market card 1's price list (numbers; written from the box by haunted.box)"),
    Kept("haunted-lands-rulebook.txt", "card 2 1 resource", 22,
         "Haunted Lands Market card 2's price list (numbers; written from the box by haunted.box)"),
]

#: Text files read whole (by suffix); anything else under the scanned folders is skipped.
TEXT_SUFFIXES = frozenset({".toml", ".csv", ".md", ".txt", ".json", ".html", ".js", ".css", ".cfg", ".yml", ".yaml"})

WORD = re.compile(r"[a-z0-9]+")
APOSTROPHES = re.compile(r"['\u2019]")
TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class Segment:
    """One piece of shipped text: where it is (``path``, the ``line`` its text starts on)
    and the text itself."""

    path: str
    line: int
    text: str


@dataclass(frozen=True)
class Run:
    """A run of ``len(words)`` consecutive words shared by a shipped text and a rule text."""

    path: str
    line: int
    rule: str
    rule_line: int
    words: tuple[str, ...]


def words_of(text: str) -> list[tuple[str, int]]:
    """The words of ``text`` as (word, line offset from the text's first line): lower case,
    apostrophes dropped (``player's`` is one word), every other non-alphanumeric character
    a break."""
    out = []
    for i, line in enumerate(APOSTROPHES.sub("", text.lower()).split("\n")):
        out.extend((w, i) for w in WORD.findall(line))
    return out


def literal_segments(path: str, source: str) -> list[Segment]:
    """The string literals of a Python source, one segment each (an f-string's literal
    pieces joined with a break where a value goes)."""
    tree = ast.parse(source)
    inside_fstring = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = " | ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            out.append(Segment(path, node.lineno, text))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside_fstring:
            out.append(Segment(path, node.lineno, node.value))
    return out


def notebook_segments(path: str, text: str) -> list[Segment]:
    """A notebook's markdown cells and stored outputs (text, HTML without its tags), each
    named ``PATH cell N`` (cells counted from 1); ``line`` counts within that text."""
    nb = json.loads(text)
    out = []
    for n, cell in enumerate(nb.get("cells", []), 1):
        where = f"{path} cell {n}"
        if cell.get("cell_type") == "markdown":
            out.append(Segment(where, 1, joined(cell.get("source", ""))))
        for o in cell.get("outputs", []):
            if "text" in o:
                out.append(Segment(f"{where} output", 1, joined(o["text"])))
            for kind, value in o.get("data", {}).items():
                if kind in ("text/plain", "text/markdown"):
                    out.append(Segment(f"{where} output", 1, joined(value)))
                elif kind == "text/html":
                    out.append(Segment(f"{where} output", 1, html.unescape(TAG.sub(" ", joined(value)))))
    return out


def joined(source) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


def shipped_segments(root: Path) -> tuple[list[Segment], list[str]]:
    """Every shipped text under ``root`` (see the module's docstring), and the problems met
    (a file that does not parse is named and skipped)."""
    segments, problems = [], []

    def add(path: Path, reader) -> None:
        rel = path.relative_to(root).as_posix()
        try:
            segments.extend(reader(rel, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as e:
            problems.append(f"{rel}: skipped, {type(e).__name__}: {e}")

    def whole(rel, text):
        return [Segment(rel, 1, text)]

    files = [root / "README.md"] if (root / "README.md").is_file() else []
    for folder in ("data", "docs", "haunted_kit"):
        files += sorted(p for p in (root / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        if path.suffix == ".py":
            add(path, literal_segments)
        elif path.suffix in TEXT_SUFFIXES:
            add(path, whole)
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        add(path, notebook_segments)
    return segments, problems


def shared_runs(rules: dict[str, str], segments: list[Segment], least: int = 8) -> list[Run]:
    """Every maximal run of ``least`` or more consecutive words that a segment shares with
    one of ``rules`` (name -> text). A run found at several places of the rule texts is
    reported once, at its first."""
    index: dict[tuple[str, ...], list[tuple[str, int]]] = {}
    rule_words = {}
    for name, text in rules.items():
        ws = words_of(text)
        rule_words[name] = ws
        for j in range(len(ws) - least + 1):
            index.setdefault(tuple(w for w, _ in ws[j:j + least]), []).append((name, j))
    runs = []
    for seg in segments:
        ws = words_of(seg.text)
        covered = -1  # shipped words up to here already belong to a reported run
        for i in range(len(ws) - least + 1):
            hits = index.get(tuple(w for w, _ in ws[i:i + least]))
            if not hits or i + least - 1 <= covered:
                continue
            best = None
            for name, j in hits:
                rw = rule_words[name]
                k = least
                while i + k < len(ws) and j + k < len(rw) and ws[i + k][0] == rw[j + k][0]:
                    k += 1
                if best is None or k > best[2]:
                    best = (name, j, k)
            name, j, k = best
            covered = i + k - 1
            runs.append(Run(seg.path, seg.line + ws[i][1], name, rule_words[name][j][1] + 1,
                            tuple(w for w, _ in ws[i:i + k])))
    return runs


def kept_passages(rules: dict[str, str], kept: list[Kept]) -> tuple[dict[str, str], list[str]]:
    """The words of each of ``kept`` found in ``rules`` (name -> text), as ``{passage: reason}``
    (words joined by single spaces), and a problem line for each passage whose rule text or
    anchor is not there (its runs are then reported, not kept)."""
    out, problems = {}, []
    for k in kept:
        if k.rule not in rules:
            problems.append(f"kept passage {k.anchor!r}...: no rule text {k.rule}")
            continue
        ws = [w for w, _ in words_of(rules[k.rule])]
        anchor = k.anchor.split()
        at = next((j for j in range(len(ws) - len(anchor) + 1) if ws[j:j + len(anchor)] == anchor), None)
        if at is None:
            problems.append(f"kept passage {k.anchor!r}...: not found in {k.rule}")
            continue
        out[" ".join(ws[at:at + k.words])] = k.reason
    return out, problems


def kept_reason(run: Run, passages: dict[str, str]) -> str | None:
    """Why ``run`` may stay (its words lie inside one of ``passages``, :func:`kept_passages`), or None."""
    text = " ".join(run.words)
    for phrase, reason in passages.items():
        if f" {text} " in f" {phrase} ":
            return reason
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rules", type=Path, help="folder of the rule texts (every *.txt in it)")
    parser.add_argument("--words", type=int, default=8, help="least run length reported, in words (default 8)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout to scan (default: the one holding this script)")
    parser.add_argument("--show-kept", action="store_true", help="list the kept runs too, with their reasons")
    args = parser.parse_args(argv)
    if args.words < 2:
        parser.error(f"--words must be a whole number of at least 2, got {args.words}")
    if not args.rules.is_dir():
        parser.error(f"the rules folder {args.rules} is not a folder")
    texts = sorted(args.rules.glob("*.txt"))
    if not texts:
        parser.error(f"the rules folder {args.rules} holds no *.txt rule text")
    if not (args.root / "haunted_kit").is_dir():
        parser.error(f"--root {args.root} is not a checkout of the kit (no haunted_kit/ folder)")
    rules = {}
    for p in texts:
        try:
            rules[p.name] = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            parser.error(f"cannot read the rule text {p}: {e}")
    segments, problems = shipped_segments(args.root)
    passages, missing = kept_passages(rules, KEPT)
    problems += missing
    runs = shared_runs(rules, segments, args.words)
    left = kept = 0
    for run in sorted(runs, key=lambda r: (r.path, r.line, -len(r.words))):
        reason = kept_reason(run, passages)
        if reason is not None:
            kept += 1
            if not args.show_kept:
                continue
        else:
            left += 1
        tail = f"  [kept: {reason}]" if reason is not None else ""
        print(f'{run.path}:{run.line}: {len(run.words)} words, {run.rule} line {run.rule_line}: '
              f'"{" ".join(run.words)}"{tail}')
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{left} run(s) of {args.words}+ words to reword, {kept} kept, "
          f"in {len(segments)} shipped texts against {len(rules)} rule text(s).")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
