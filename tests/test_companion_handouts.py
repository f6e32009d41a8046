"""haunted-kit handout --game estate|landmarks: a rules summary and a player aid from the box,
on the kit's print page; the box's numbers are printed, kit defaults are marked * with a
legend, house rules † and listed; the PDF is printed by Chromium as Haunted Lands' is."""

from __future__ import annotations

import re
import shutil

import pytest
from pypdf import PdfReader

from haunted_kit.games import default_players, get_game
from haunted_kit.cli import main
from haunted_kit.estate.box import load_estate_box
from haunted_kit.handout import HandoutError, ProvenanceMarks
from haunted_kit.landmarks.box import default_box as landmarks_box
from haunted_kit.landmarks.handout import handout_html as landmarks_html
from haunted_kit.widgets.text import html_text
from ruletools import DATA, edit

KD = '<sup class="kd">*</sup>'
LEGEND = "* a kit default: the rules text does not give this value (a number or a wording), the kit chose it"


def handout(tmp_path, game, *extra) -> str:
    out = tmp_path / f"{game}.html"
    assert main(["handout", "--game", game, "--out", str(out), "--no-pdf", *extra]) == 0
    return out.read_text(encoding="utf-8")


def test_the_estate_handout_names_the_boxs_numbers_and_marks_kit_defaults(tmp_path, capsys):
    box = load_estate_box()
    html = handout(tmp_path, "estate")
    assert "wrote " in capsys.readouterr().out
    assert '<section class="hk-rules">' in html and '<section class="hk-aid">' in html and "@page { size: A4;" in html
    income = ", ".join(f"{n} {r}" for r, n in box.start_income.items())
    assert income == "3 gold, 2 limestone, 2 wood, 0 marble"
    assert f"Start income: <b>{income}</b>." in html                              # printed in the rules text: no mark
    assert f"workers: {box.start_workers}{KD}" in html                            # a kit default
    assert f"A land tile costs <b>{box.tile_price}</b> gold" in html
    assert f"{box.first_visitor_actions}\ndifferent actions" in html or f"{box.first_visitor_actions} different" in html
    assert f"takes\n{box.condition_discount}{KD} off" in html
    for t in box.tiles.values():
        assert t.name.replace("_", " ") in html
    text = html_text(html)
    assert text.count(LEGEND) == 2 and "House rules" not in text               # one legend under each part


def test_the_landmarks_handout_names_the_landmark_costs_and_marks_kit_defaults(tmp_path):
    box = landmarks_box()
    html = handout(tmp_path, "landmarks", "--paper", "letter")
    assert "@page { size: letter;" in html
    for lt in box.landmarks.values():
        assert f"<b>{lt.name}</b>: {lt.cost_text()}." in html or f"<b>{lt.name}</b>: {lt.cost_text()};" in html
    assert "Silo</b>: discard 1 card showing a food icon" in html
    assert f"{box.tokens_per_type} tokens of each landmark type" in html          # rulebook: no mark
    assert f"holds {box.end_trigger_cards}{KD} cards" in html                     # a kit default
    for a in box.architects.values():
        assert a.name.replace("'", "&#x27;") in html
    assert html_text(html).count(LEGEND) == 2


@pytest.mark.parametrize("game, sub, old, new, shown", [
    ("estate", "lands.toml", "tile_price = 3", "tile_price = 4",
     "A land tile costs <b>4</b><sup class=\"hr\">†</sup> <span class=\"was\">(house rule; rulebook 3)</span> gold"),
    ("landmarks", "scoring.toml", "points = 3", "points = 5", "+5<sup class=\"hr\">†</sup>"),
])
def test_house_rules_print_as_played_marked_and_listed(tmp_path, game, sub, old, new, shown):
    d = tmp_path / game
    shutil.copytree(DATA / game, d)
    edit(d / sub, old, new)
    html = handout(tmp_path, game, "--box", str(d))
    assert shown in html
    listed = re.search(r"† House rules</b> \(differ from the kit's box\): ([^<]*)\.", html)
    assert listed and sub in listed.group(1)


def test_a_mark_for_a_value_the_box_lacks_is_an_error_not_a_silent_blank():
    marks = ProvenanceMarks(load_estate_box())
    assert marks.mark("lands.toml", "rules", "display") == KD and marks.mark("lands.toml", "rules", "tile_price") == ""
    with pytest.raises(KeyError):
        marks.mark("lands.toml", "no_such_entry")
    assert ProvenanceMarks(load_estate_box()).legend() == ""                      # no mark used: no legend


def test_handout_misuse_is_a_usage_error_for_the_companions(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["handout", "--game", "estate", "--out", str(tmp_path / "h.pdf")])
    assert exc.value.code == 2 and "name it .html" in capsys.readouterr().err
    assert not (tmp_path / "h.pdf").exists()
    with pytest.raises(HandoutError, match=r"^unknown paper 'a3' \(choose from a4, letter\)$"):
        landmarks_html(paper="a3")


@pytest.mark.parametrize("game", ["estate", "landmarks"])
def test_the_pdf_is_printed_by_chromium(tmp_path, capsys, game):
    if shutil.which("chromium") is None and not shutil.which("/usr/bin/chromium"):
        pytest.skip("no Chromium on this machine")
    out = tmp_path / f"{game}.html"
    assert main(["handout", "--game", game, "--out", str(out)]) == 0
    pdf = out.with_suffix(".pdf")
    assert f"wrote {pdf}" in capsys.readouterr().out
    text = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    # the summary, the player counts and the aid share one sheet (no half-blank pages)
    assert len(text) == 1 and "rules summary" in text[0] and "End of the rules summary." in text[0]
    players = default_players(get_game(game))   # handout's --players default: the game's own
    assert "player aid" in text[0] and "Player count" in text[0] and f"{players} players (this game)" in text[0]
