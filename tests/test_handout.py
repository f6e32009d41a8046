"""haunted-kit handout: HTML always, a PDF printed by Debian's chromium; the rules summary
fits one page on A4 and on Letter, and the box's numbers (house rules too) are in the PDF."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

import haunted_kit as hk
from haunted_kit.haunted import handout as HO
from haunted_kit.cli import main
from ruletools import copy_data, edit

POINTS_PER_MM = 72 / 25.4


def pages(pdf: Path) -> list[str]:
    return [p.extract_text() for p in PdfReader(pdf).pages]


@pytest.mark.parametrize("paper, size_mm", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_rules_summary_fits_one_page_and_prints_the_box_numbers(tmp_path, capsys, paper, size_mm):
    out = tmp_path / f"handout-{paper}.html"
    assert main(["handout", "--out", str(out), "--paper", paper]) == 0
    said = capsys.readouterr().out
    pdf = out.with_suffix(".pdf")
    assert f"wrote {pdf}" in said and pdf.stat().st_size > 0
    reader = PdfReader(pdf)
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / POINTS_PER_MM), round(float(box.height) / POINTS_PER_MM)) == tuple(round(x) for x in size_mm)
    text = pages(pdf)
    # the whole rules summary, glossary included, is on page 1; the player aid starts page 2
    assert "rules summary" in text[0] and "Glossary" in text[0] and "End of the rules summary." in text[0]
    assert text[1].lstrip().startswith("Player aid")
    assert sum("End of the rules summary." in t for t in text) == 1
    b = hk.default_box()
    flat = " ".join(" ".join(text[0].split()).split())
    for name in ("plain", "forest", "mountain"):
        assert f"{name} {b.terrains[name].explore_cost}" in flat
    for card in b.bonus_cards.values():
        assert f"season {card.season}: {card.contact_cost}" in flat
    assert f"places {b.ghosts_per_spread} ghosts" in flat and f"At most {b.resource_cap} of each resource" in flat
    assert f"{b.buildings['mine'].valor} valor" in flat
    assert "Board · seed 1, 4 players, wanderer mode" in text[-1]


def test_house_rules_print_as_played_and_are_marked(tmp_path, capsys):
    d = copy_data(tmp_path)
    mountain = (d / "terrain.toml").read_text()
    assert "explore_cost = 3" in mountain
    edit(d / "terrain.toml", "explore_cost = 3", "explore_cost = 4")
    out = tmp_path / "house.html"
    assert main(["handout", "--out", str(out), "--box", str(d), "--paper", "letter"]) == 0
    text = pages(out.with_suffix(".pdf"))
    flat = " ".join(text[0].split())
    assert "mountain 4" in flat and "mountain 3" not in flat
    assert "House rules" in flat and "terrain.toml mountain" in flat
    assert "End of the rules summary." in text[0] and text[1].lstrip().startswith("Player aid")


def test_without_chromium_the_html_is_written_and_the_command_says_how_to_print(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(HO, "find_chromium", lambda: None)
    out = tmp_path / "h.html"
    assert main(["handout", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "open" in said and "in a browser and print it (A4, scale 100%" in said
    assert out.is_file() and not out.with_suffix(".pdf").exists()
    html = out.read_text()
    assert "@page { size: A4;" in html and '<section class="hk-rules">' in html


def test_handout_misuse_is_a_usage_error(tmp_path, capsys):
    for argv, why in ((["handout", "--paper", "a3"], "invalid choice"),
                      (["handout", "--out", str(tmp_path / "h.pdf")], "name it .html"),
                      (["handout", "--players", "9"], "invalid choice: 9")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2 and why in capsys.readouterr().err
    with pytest.raises(HO.HandoutError, match="unknown paper"):
        HO.handout_html(paper="a5")
