"""The notebooks' cross-references follow the files: 00's "Where to go next" lists every
notebook, and every ruling a notebook or the README cites exists in docs/RULINGS.md,
with a cited range covering exactly the section it names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
RULINGS = (ROOT / "docs" / "RULINGS.md").read_text()


def sources(path: Path) -> str:
    """A notebook's cell sources (not its outputs), one text."""
    return "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])


def ruling_sections() -> dict[str, list[str]]:
    """``{"": ["1", ...], "E": ["E1", ...], "L": [...]}``: the ids of docs/RULINGS.md's
    tables in file order, by prefix."""
    out: dict[str, list[str]] = {}
    for rid in re.findall(r"^\| ([EL]?\d+) \|", RULINGS, flags=re.M):
        out.setdefault(rid.rstrip("0123456789"), []).append(rid)
    return out


ITEM = r"[EL]?\d+(?:\s*[-–]\s*[EL]?\d+)?"
CITE = re.compile(rf"\b[Rr]ulings?\s+({ITEM}(?:\s*(?:,|and)\s*{ITEM})*)")


def cites(text: str) -> list[str]:
    """Every ruling id or range cited as "ruling 8", "rulings 1 and 2", "rulings E1-E19"."""
    out = []
    for m in CITE.finditer(text):
        out += re.findall(ITEM, m.group(1))
    return out


def test_where_to_go_next_links_every_notebook():
    text = sources(ROOT / "notebooks" / "00_start_here.ipynb")
    section = text[text.index("## Where to go next"):]
    linked = re.findall(r"\]\((\d\d_[a-z_]+\.ipynb)\)", section)
    assert linked == [p.name for p in NOTEBOOKS if p.name != "00_start_here.ipynb"]


def test_the_ruling_parser_reads_single_ids_lists_and_ranges():
    assert cites("ruling 8; rulings 1 and 2, rulings 13, 22, 30 and rulings E1-E19 (ruling L4)") == \
        ["8", "1", "2", "13", "22", "30", "E1-E19", "L4"]
    assert set(ruling_sections()) == {"", "E", "L"} and ruling_sections()[""][:3] == ["1", "2", "3"]


@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "README.md"], ids=lambda p: p.name)
def test_every_cited_ruling_exists_and_ranges_match_the_file(path):
    text = sources(path) if path.suffix == ".ipynb" else path.read_text()
    sections = ruling_sections()
    known = {rid for ids in sections.values() for rid in ids}
    for item in cites(text):
        ends = [e.strip() for e in re.split(r"[-–]", item)]
        for rid in ends:
            assert rid in known, f"{path.name} cites ruling {rid}, which docs/RULINGS.md does not hold"
        if len(ends) == 2:
            ids = sections[ends[0].rstrip("0123456789")]
            assert ends == [ids[0], ids[-1]], \
                f"{path.name} cites rulings {item}; docs/RULINGS.md holds {ids[0]}-{ids[-1]}"
