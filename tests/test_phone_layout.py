"""What a phone (390x844) and a laptop's Lab beside its file browser get, checked without a
browser (tests/browser/test_phone_fit.py checks them drawn):

* every static drawing is shown as an image never under 12 CSS px text, panning in its box
  (``render.svg.readable_html``), in the notebooks' stored outputs too, and no stored output
  holds inline SVG (JupyterLab shows it as loose text in an untrusted notebook);
* every table the notebooks store reflows (``frames.reflow_table``): a sentence column gets
  the room its words need, a short column its longest word's;
* the canvas boards are never drawn under 12 CSS px text: their least text is the least any
  position draws (Haunted Lands' field with 4 sensors on a cell, a highlight's label);
* every game's play view says something on its message line from the start (no blank lines
  above its board) and lays its side panel out to fit a phone's 274 px output area.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from haunted_kit.frames import SENTENCE_CHARS, column_widths, reflow_table
from haunted_kit.haunted.draw.scene import highlight_layer, least_text, pieces_layer, terrain_layer
from haunted_kit.haunted.draw.geometry import board_geometry
from haunted_kit.haunted.scenario import place, scenario
from haunted_kit.notebook import frame_html
from haunted_kit.render import style as S
from haunted_kit.render.primitives import Text
from haunted_kit.render.svg import least_font, readable_html, readable_width
from haunted_kit.widgets.canvas import least_text_class, phone_min_width
from haunted_kit.widgets.playview import side_layout

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100">'
       '<text x="1" y="1" font-size="6.00">a</text><text x="1" y="9" font-size="10.00">b</text></svg>')


def test_a_drawing_is_shown_never_under_12_px_text():
    assert least_font(SVG) == 6.0
    assert readable_width(SVG) == (300.0, 600.0)  # 6 px text needs twice its own width
    html = readable_html(SVG, "a board")
    assert 'class="hk-pan hk-drawing"' in html and 'alt="a board"' in html
    assert "width:600px;max-width:100%;min-width:600px" in html  # drawn at 12 px text, panning where narrower
    assert "<svg" not in html and 'src="data:image/svg+xml;base64,' in html
    big = SVG.replace('font-size="6.00"', 'font-size="24.00"').replace('font-size="10.00"', 'font-size="18.00"')
    assert "width:300px;max-width:100%;min-width:200px" in readable_html(big, "big")  # may shrink to 12 px text


def _outputs(nb_path: Path):
    for cell in json.loads(nb_path.read_text())["cells"]:
        for out in cell.get("outputs", []):
            yield out.get("data", {})


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_stored_drawings_are_readable_images_and_tables_reflow(nb):
    for data in _outputs(nb):
        assert "image/svg+xml" not in data, f"{nb.name}: an SVG output (an untrusted notebook shows its text form)"
        html = "".join(data.get("text/html", ""))
        assert "<svg" not in html, f"{nb.name}: inline SVG in an HTML output (shown as loose words when untrusted)"
        for m in re.finditer(r'<img src="data:image/svg\+xml;base64,([^"]+)"[^>]*style="[^"]*min-width:(\d+)px', html):
            svg = base64.b64decode(m.group(1)).decode()
            assert int(m.group(2)) >= readable_width(svg)[1] - 0.5, f"{nb.name}: a drawing allowed under 12 px text"
        for table in re.findall(r'<table border="1" class="dataframe".*?</table>', html, re.S):
            assert '<tr style="display:flex;flex-wrap:wrap' in table, f"{nb.name}: a table that does not reflow"


def test_a_sentence_column_gets_room_and_short_ones_their_longest_word():
    frame = pd.DataFrame({"kind": ["architect_dealt", "deal"], "player": ["P1", "P2"],
                          "text": ["P1 is dealt Ysolde Quill face down: +1 per worker at the end.", "short"]})
    html = frame_html(frame)
    assert "<style" not in html.split("<table")[1]  # inline styles only: a stored, untrusted output keeps them
    cells = re.findall(r'<td style="flex:(\d) \d ([\d.]+)em[^"]*"', html)
    kind, player, text = cells[:3]
    assert kind == ("0", str(round(len("architect_dealt") * 0.6 + 0.2, 1)))
    assert player == ("0", str(round(len("player") * 0.6 + 0.2, 1)))  # the header's word is the longest
    assert text == ("1", str(round(SENTENCE_CHARS * 0.6 + 0.2, 1)))  # grows into its line, wraps its words
    assert ';text-align:left">P1 is dealt' in html and re.search(r'<th style="flex:0 0 [\d.]+em;[^"]*">0</th>', html)
    rows = [["", "a"], ["x", "a long sentence of words, longer than the sentence width"]]
    assert column_widths(rows, 1) == [(0.8, False), (round(SENTENCE_CHARS * 0.6 + 0.2, 1), True)]
    spanned = '<table><tr><th colspan="2">a</th></tr><tr><td>1</td><td>2</td></tr></table>'
    assert reflow_table(spanned) == spanned  # a table it cannot reflow is left as it is


def test_a_multi_index_frame_names_every_row_and_reflows():
    frame = pd.DataFrame({"n": [1, 2, 3]}, index=pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1)]))
    html = frame_html(frame)
    assert "rowspan" not in html and html.count(">a</th>") == 2 and "display:flex" in html


def test_the_fields_least_text_is_the_least_any_position_draws():
    s = scenario(players=4)
    for p in range(4):
        place(s, p, (1, 0))  # 4 sensors on one cell: their marks are the field's smallest
    for size in (20, 24, 34):
        geom = board_geometry(s.config.box, size)
        prims = (terrain_layer(s.field, geom, True, False) + pieces_layer(s, geom)
                 + highlight_layer(s.field, geom, {(1, 0): "3"}))
        drawn = min(p.size for p in prims if isinstance(p, Text))
        assert least_text(size) == pytest.approx(drawn)
        width = geom.width
        assert phone_min_width(width, least_text(size)).endswith(f", {round(width * 12 / drawn)}px)")
    assert least_text(34, True, True, S.MIN_TEXT_PX) <= S.MIN_TEXT_PX
    assert least_text_class(5.94) == "hk-least-text-594"


def test_a_side_panel_fits_a_phones_output_area():
    layout = side_layout()
    assert layout.min_width == "min(340px, 100%)" and layout.flex == "1 1 340px" and layout.max_width == "100%"


def test_every_play_view_says_something_before_the_first_decision():
    from haunted_kit.estate.widgets import EstatePlayView
    from haunted_kit.haunted.widgets import PlayView
    from haunted_kit.landmarks.widgets import LandmarksPlayView

    views = [EstatePlayView(players=3, seed=1, bots=[1, 2], hints=False),
             LandmarksPlayView(players=3, seed=2, rounds=3, bots=[1, 2], hints=False),
             PlayView(players=3, seed=1, bots=[1, 2], hints=False)]
    for view in views:
        assert view.message.startswith("Seats: P1 "), view.message
        buttons = getattr(view, "_choice_pool", None) or view.choices.children  # Haunted Lands' pool: made up front
        assert buttons and all("hk-wrap" in b._dom_classes for b in buttons)  # a long choice wraps on a phone
    assert views[0].message == ("Seats: P1 human, P2 bot, P3 bot. Choose under 'Your choices': a button, or an action "
                                "of the list and Do it.")


def test_drawings_of_one_position_get_distinct_accessible_names():
    from haunted_kit.estate.draw import board_svg as estate_board
    from haunted_kit.estate.scenario import position
    from haunted_kit.haunted.analysis import side_by_side
    from haunted_kit.haunted.draw.svg import board_svg

    s = scenario(players=2)
    plain, marked = board_svg(s), board_svg(s, highlight={(1, 0): "3", (0, 1): ""}, path=[(0, 0), (1, 0), (2, -1)])
    assert marked.title == plain.title + " Marked: cells 0,1; 1,0 (3). Path from 0,0 to 2,-1, 3 cells."
    assert f'alt="{marked.title}"' in marked._repr_html_()
    many = board_svg(s, highlight=list(s.field.cells[:9]))
    assert many.title.endswith(" and 3 more.") and many.title.count(";") == 5  # six named, the rest counted
    pair = side_by_side(plain, plain, captions=["before", "after"])._repr_html_()
    assert f'alt="before: {plain.title}"' in pair and f'alt="after: {plain.title}"' in pair
    e = position()
    slot = e.box.slots[0]
    assert estate_board(e).title == "Estate land board, season 1"
    assert estate_board(e, highlight=[slot], path=[slot]).title == (
        f"Estate land board, season 1. Marked: slot {slot[0]},{slot[1]}. Circled: slot {slot[0]},{slot[1]}.")
