"""haunted-kit handout: HTML always, a PDF printed by Debian's chromium; the rules summary
fits one page on A4 and on Letter, and the box's numbers (house rules too) are in the PDF."""

from __future__ import annotations

import re
import shutil
from html import escape
from pathlib import Path

import pytest
from pypdf import PdfReader

import haunted_kit as hk
from haunted_kit.haunted import handout as HO
from haunted_kit.cli import game_cli, main
from haunted_kit.games import game_names
from haunted_kit.landmarks.box import default_box as landmarks_box
from ruletools import DATA, copy_data, edit

#: the registered games whose cli module writes a handout (``handout`` is not available for the others)
HANDOUT_GAMES = [n for n in game_names() if getattr(game_cli(n), "handout", None) is not None]

POINTS_PER_MM = 72 / 25.4


def pages(pdf: Path) -> list[str]:
    return [p.extract_text() for p in PdfReader(pdf).pages]


def filled(pdf: Path) -> list[float]:
    """How far down each page its text reaches, as a share of the page height."""
    out = []
    for page in PdfReader(pdf).pages:
        ys = []
        page.extract_text(visitor_text=lambda text, cm, tm, _f, _s: ys.append(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])
                          if text.strip() else None)
        out.append(1 - min(ys) / float(page.mediabox.height))
    return out


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
    # three sheets, the first filled (it was 40% blank), no on-screen text on the board page
    assert len(text) == 3 and filled(pdf)[0] > 0.8, filled(pdf)
    assert "to move" not in text[-1] and "P1 sensor" in text[-1]
    for t in text:                                         # a legend on every page with a mark
        assert ("*" in t) == ("a kit default: the rules text does not give this value" in t), t[:60]
    assert "4 players (this game)" in flat


def test_house_rules_print_as_played_and_are_marked(tmp_path, capsys):
    d = copy_data(tmp_path)
    mountain = (d / "terrain.toml").read_text()
    assert "explore_cost = 3" in mountain
    edit(d / "terrain.toml", "explore_cost = 3", "explore_cost = 4")
    out = tmp_path / "house.html"
    assert main(["handout", "--out", str(out), "--box", str(d), "--paper", "letter"]) == 0
    text = pages(out.with_suffix(".pdf"))
    flat = " ".join(text[0].split())
    assert "mountain 4† (house rule; rulebook 3)" in flat and "mountain 3" not in flat
    assert "House rules" in flat and "box): terrain.toml mountain explore cost: 3 -> 4 (rulebook)" in flat
    assert len(text) == 3 and all(("†" in t) == ("House rules" in t) for t in text)
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


# ----------------------------------------------------------------------------- telling the truth

KD = '<sup class="kd">*</sup>'
HR = '<sup class="hr">†</sup>'


def html_of(tmp_path, *extra, game="haunted") -> str:
    out = tmp_path / f"{game}.html"
    assert main(["handout", "--game", game, "--out", str(out), "--no-pdf", *extra]) == 0
    return out.read_text(encoding="utf-8")


def sections(html: str) -> list[str]:
    return html.split("<section")[1:]


def test_kit_default_numbers_carry_the_mark(tmp_path):
    """The numbers the rulebook does not give (box provenance "kit default") are marked *."""
    b = hk.default_box()
    prov = {(f, e, k): p for f, e, k, p in b.provenance}
    html = html_of(tmp_path)
    for name, t in b.tracks.items():
        assert prov[("player_board.toml", f"tracks.{name}", "training_costs")] == "kit default"
        costs = " · ".join(str(c) for c in t.training_costs[t.start_tokens:])
        assert f"<td>{costs}{KD}</td>" in html and f"+{t.last_slot_valor}{KD} valor" in html
    assert f"<td>{b.tracks['exploration'].start_tokens}</td>" in html        # a rulebook number: no mark
    for c in b.bonus_cards.values():
        assert prov[("bonus_cards.toml", f"bonus_cards.{c.season}", "contact_cost")] == "kit default"
        assert f"season {c.season}: {c.contact_cost}{KD}" in html and f"<td>{c.contact_cost}{KD}</td>" in html
        assert all(f"{escape(r.describe())}{KD}" in html for r in c.rewards)
    assert b.skill_slot_valor == (3, 2, 1, 0)
    assert f"(valor 3, 2, 1, 0{KD})" in html                                  # marker-slot valor
    for bld in b.buildings.values():                                          # building production
        assert f"produces {bld.production}{KD} {bld.income}" in html
    assert "mountain 3;" in html and "House rules" not in html                # rulebook numbers: no mark


def test_players_2_shows_the_two_player_changes_and_every_count(tmp_path):
    html = html_of(tmp_path, "--players", "2")
    rows = dict(re.findall(r"<tr(?: class=\"chosen\")?><td>(\d players(?: \(this game\))?)</td><td>(.*?)</td></tr>", html))
    assert list(rows) == ["2 players (this game)", "3 players", "4 players"]
    two = rows["2 players (this game)"]
    assert "counter markers cover marker slots 1, 4 of every skill card (setup step 16)" in two
    assert "each player returns quest cards 3 and 4 to the box" in two
    assert "wanderer, end of season 2: the trailing player chooses 1 quest card, not 2" in two
    assert rows["3 players"] == "counter markers cover marker slot 1 of every skill card (setup step 16)"
    assert rows["4 players"] == "nothing changes"
    assert '<tr class="chosen"><td>2 players (this game)</td>' in html
    three = html_of(tmp_path, "--players", "3")
    assert '<tr class="chosen"><td>3 players (this game)</td>' in three and "2 players (this game)" not in three
    assert "Counter markers cover marker slot 1 of every skill card." in sections(three)[2]   # the board page too


def test_a_house_rule_shows_its_change_old_to_new(tmp_path):
    d = copy_data(tmp_path)
    text = (d / "terrain.toml").read_text()
    mountain = text.index("[mountain]")
    (d / "terrain.toml").write_text(text[:mountain] + text[mountain:].replace("explore_cost = 3", "explore_cost = 2", 1))
    html = html_of(tmp_path, "--box", str(d))
    assert f'mountain 2{HR} <span class="was">(house rule; rulebook 3)</span>' in html
    assert "terrain.toml mountain explore cost: 3 -&gt; 2 (rulebook)" in html
    for part in sections(html):                                                # a legend wherever a mark is
        if HR in part:
            assert "† House rules</b> (differ from the kit's box): terrain.toml mountain explore cost: 3 -&gt; 2" in part


def test_the_board_page_is_drawn_for_paper(tmp_path):
    board = sections(html_of(tmp_path, "--players", "2", "--seed", "3"))[2]
    assert "Board · seed 3, 2 players, wanderer mode" in board
    assert "to move" not in board and "places ghosts" not in board and "valor 0" not in board
    assert "<title>Haunted Lands: board</title>" in board and "P1 sensor" in board and "depletion token" in board


@pytest.mark.parametrize("game", HANDOUT_GAMES)
def test_every_page_with_a_mark_carries_its_legend(tmp_path, game):
    """Every game's handout: a section with a kit-default mark explains it; all three
    games' handouts have kit defaults."""
    html = html_of(tmp_path, game=game)
    marked = [p for p in sections(html) if KD in p]
    assert marked
    for part in sections(html):
        assert (KD in part) == ("<b>*</b> a kit default" in part)
        assert HR not in part


@pytest.mark.parametrize("game, sub, old, new, shown, listed", [
    ("estate", "lands.toml", "tile_price = 3", "tile_price = 4", "A land tile costs <b>4</b>" + HR + ' <span class="was">(house rule; rulebook 3)</span>',
     "lands.toml rules tile price: 3 -&gt; 4 (rulebook)"),
    ("landmarks", "landmarks/scoring.toml", "points = 3", "points = 5", "+5" + HR + ' <span class="was">(house rule; rulebook 3)</span>',
     "landmarks/scoring.toml sets points: 3 -&gt; 5 (rulebook)"),
])
def test_companion_house_rules_show_old_and_new(tmp_path, game, sub, old, new, shown, listed):
    d = tmp_path / game
    shutil.copytree(DATA / game, d)
    edit(d / sub.split("/")[-1], old, new)
    html = html_of(tmp_path, "--box", str(d), game=game)
    assert shown in html and listed in html
    for part in sections(html):
        assert (HR in part) <= ("† House rules" in part)


@pytest.mark.parametrize("game", HANDOUT_GAMES)
def test_every_handout_prints_each_player_count_and_highlights_the_chosen_one(tmp_path, game):
    html = html_of(tmp_path, "--players", "2", game=game)
    counts = re.findall(r"<tr(?: class=\"chosen\")?><td>(\d) players", html)
    chosen = re.findall(r'<tr class="chosen"><td>(\d) players \(this game\)</td><td>(.*?)</td>', html)
    assert [c[0] for c in chosen] == ["2"] and counts == sorted(set(counts)) and counts[0] == "2"
    said = chosen[0][1]
    if game == "landmarks":
        b = landmarks_box()
        assert counts == [str(n) for n in range(2, b.max_players + 1)]
        assert said == f"{b.two_player_removed} tokens of each landmark type go back to the box ({b.supply(2)} of each in play)"
        assert said == "2 tokens of each landmark type go back to the box (5 of each in play)"
    elif game == "estate":
        assert counts == ["2", "3", "4"] and said == "nothing changes"   # the estate text has no player-count rule
    else:
        assert counts == [str(n) for n in range(hk.default_box().min_players, hk.default_box().max_players + 1)] == ["2", "3", "4"]
        assert "each player returns quest cards 3 and 4 to the box" in said


@pytest.mark.parametrize("game", HANDOUT_GAMES)
def test_every_board_a_handout_draws_has_its_key_beside_it(tmp_path, game):
    """A handout section that draws a board prints the key of its codes next to it
    (handout.board_with_key), each line with its rule section."""
    for part in sections(html_of(tmp_path, game=game)):
        if "<svg" in part:
            assert '<div class="board-row"' in part and '<div class="hk-board-key">' in part
            key = part[part.index('<div class="hk-board-key">'):]
            assert key.count("<dt>") >= 3 and key.count("(rule: ") == key.count("<dt>")


def test_the_board_key_prints_the_house_rules_own_values(tmp_path):
    """The handout's board key reads the box in play: a mountain that costs 2 to enter
    (the rulebook's is 3) prints 2 there; the paper board draws no ring of a player to move,
    so its key leaves that out."""
    d = copy_data(tmp_path)
    text = (d / "terrain.toml").read_text()
    mountain = text.index("[mountain]")
    (d / "terrain.toml").write_text(text[:mountain] + text[mountain:].replace("explore_cost = 3", "explore_cost = 2", 1))
    own = sections(html_of(tmp_path))[2]
    house = sections(html_of(tmp_path, "--box", str(d)))[2]
    line = "<dt>M</dt><dd>mountain cell; entering it costs {} exploration tokens; gives ore"
    assert line.format(3) in own and line.format(2) not in own
    assert line.format(2) in house and line.format(3) not in house
    assert '(rule: Game Field, Tiles and Terrain Types)</span></dd>' in house
    assert "<dt>G</dt><dd>a ghost on the cell; 4 arrive at each spread" in own   # rulebook: 4 ghosts a spread
    assert "ringed disc" not in own and "to move" not in own
