"""Deterministic SVG text of drawing primitives (:mod:`haunted_kit.render.primitives`).

Fixed float formatting (2 decimals) and a stable element order, no ids taken from memory:
the same primitives give the same bytes on every machine, so pictures serve docs and
nbval-checked notebook outputs. Each game draws its own pictures with these pieces.
"""

from __future__ import annotations

import base64
import re
from xml.sax.saxutils import escape, quoteattr

from ..fileio import atomic_write
from ..hexgrid import cell_name, name_cells
from . import style as S
from .primitives import Circle, Poly, Polyline, Rect, Segments, Text, bbox


def _f(v: float) -> str:
    """Fixed formatting: 2 decimals, no negative zero."""
    s = f"{v:.2f}"
    return "0.00" if s == "-0.00" else s


def _pts(points) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _paint(fill, stroke, width, alpha=1.0, dash=()) -> str:
    out = f' fill="{fill}"' if fill else ' fill="none"'
    if fill and alpha != 1.0:
        out += f' fill-opacity="{_f(alpha)}"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{_f(width)}"'
        if dash:
            out += f' stroke-dasharray="{" ".join(_f(d) for d in dash)}"'
    return out


def primitive_svg(p) -> str:
    """One primitive as one SVG element (text, no trailing newline)."""
    if isinstance(p, Poly):
        el = f'<polygon points="{_pts(p.points)}"{_paint(p.fill, p.stroke, p.width, p.alpha, p.dash)} stroke-linejoin="round"'
        if p.title:
            return el + f"><title>{escape(name_cells(p.title))}</title></polygon>"  # cells as the boards write them
        return el + "/>"
    if isinstance(p, Segments):
        d = " ".join(f"M{_f(a[0])} {_f(a[1])}L{_f(b[0])} {_f(b[1])}" for a, b in p.segments)
        return f'<path d="{d}" fill="none" stroke="{p.stroke}" stroke-width="{_f(p.width)}" stroke-linecap="round"/>'
    if isinstance(p, Polyline):
        return (f'<polyline points="{_pts(p.points)}"{_paint(None, p.stroke, p.width, 1.0, p.dash)} '
                'stroke-linecap="round" stroke-linejoin="round"/>')
    if isinstance(p, Circle):
        return f'<circle cx="{_f(p.x)}" cy="{_f(p.y)}" r="{_f(p.r)}"{_paint(p.fill, p.stroke, p.width)}/>'
    if isinstance(p, Rect):
        return (f'<rect x="{_f(p.x)}" y="{_f(p.y)}" width="{_f(p.w)}" height="{_f(p.h)}"'
                f'{_paint(p.fill, p.stroke, p.width)}/>')
    if isinstance(p, Text):
        weight = ' font-weight="bold"' if p.bold else ""
        return (f'<text x="{_f(p.x)}" y="{_f(p.y)}" font-size="{_f(p.size)}" fill="{p.fill}"{weight} '
                f'text-anchor="{p.anchor}" dominant-baseline="central">{escape(p.text)}</text>')
    raise TypeError(f"not a scene primitive: {p!r}")


def text_width(text: str, size: float) -> float:
    """Estimated width in pixels of ``text`` at font size ``size`` (0.6 em a character)."""
    return len(text) * size * 0.6


def fitted_text(x: float, y: float, text: str, width: float, size: float, fill: str = S.INK, bold: bool = False,
                anchor: str = "middle", *, min_size: float = S.MIN_TEXT_PX, max_lines: int = 2) -> list:
    """``text`` whole, within ``width`` pixels, as :class:`Text` primitives centred on ``y``:
    one line at ``size`` when it fits, else one line at the largest size down to
    ``min_size`` that fits, else up to ``max_lines`` lines broken at spaces (each line
    shrunk to fit, never below ``min_size``, by default :data:`~haunted_kit.render.style.MIN_TEXT_PX`).
    Nothing is ever cut (a single word wider than ``width`` at ``min_size`` stays whole, so
    callers size their boxes for their longest word). Lines are ``1.15 * size`` apart.
    Widths by :func:`text_width`."""
    def fit(s: str, start: float) -> float:
        return max(min_size, min(start, width / (len(s) * 0.6))) if s else start

    one = fit(text, size)
    if text_width(text, one) <= width or " " not in text or max_lines < 2:
        return [Text(x, y, text, one, fill, bold, anchor)]
    words, lines = text.split(" "), []
    for k in range(1, max_lines + 1):  # the fewest lines whose widest line fits at the largest size
        per = -(-len(words) // k)
        lines = [" ".join(words[i:i + per]) for i in range(0, len(words), per)]
        if all(text_width(line, fit(line, size)) <= width for line in lines):
            break
    s = min(fit(line, size) for line in lines)
    step = s * 1.15
    top = y - step * (len(lines) - 1) / 2
    return [Text(x, top + i * step, line, s, fill, bold, anchor) for i, line in enumerate(lines)]


def text_box(p: Text) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)``: the box a :class:`Text` covers, by its anchor (start, middle,
    end), its width by :func:`text_width` and its height its font size (it is drawn
    centred on ``y``)."""
    w = text_width(p.text, p.size)
    x0 = p.x if p.anchor == "start" else p.x - w if p.anchor == "end" else p.x - w / 2
    return x0, p.y - p.size / 2, x0 + w, p.y + p.size / 2


def boxes_overlap(a, b) -> bool:
    """Whether two ``(x0, y0, x1, y1)`` boxes share any area (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def extent(prims):
    """``(x0, y0, x1, y1)``: the bounding box of primitives, text boxes (:func:`text_box`) included."""
    boxes = [text_box(p) for p in prims if isinstance(p, Text)]
    others = [p for p in prims if not isinstance(p, Text)]
    if not others and not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    if others:
        boxes.append(bbox(others))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


#: an SVG's own width and its texts' sizes, as the kit's SVG writers put them
_SVG_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="([\d.]+)"')
_FONT_SIZE = re.compile(r'font-size="([\d.]+)"')


def least_font(svg: str) -> float | None:
    """The least ``font-size`` of the texts of ``svg`` (the kit's SVG text), or ``None``."""
    sizes = [float(v) for v in _FONT_SIZE.findall(svg)]
    return min(sizes) if sizes else None


def readable_width(svg: str) -> tuple[float, float]:
    """``(width, readable)``: the SVG's own width and the least width (CSS px) it may be shown
    at so that no text is under :data:`~haunted_kit.render.style.READABLE_PX` (its own width
    when it has no text)."""
    width = float(_SVG_WIDTH.search(svg).group(1))
    least = least_font(svg)
    return width, (width if least is None else width * S.READABLE_PX / least)


def readable_html(svg: str, alt: str, css_class: str = "", hidden: bool = False) -> str:
    """A drawing for a notebook or a Voila page: the SVG as an image (a data URI: JupyterLab
    keeps it in a notebook's stored, untrusted outputs, where it drops inline SVG and
    ``<style>``) at its own width, scaled down to a narrower output area but never so small
    that a text is under 12 CSS px (:func:`readable_width`); shown larger than its own size
    when its text is smaller, it pans sideways in its box (``hk-pan``: a named region Tab
    reaches, so the arrow keys pan it). Inline styles only (a stored output keeps those).
    ``hidden``: ``display: none`` until a stylesheet shows it (a layout for other widths)."""
    width, readable = readable_width(svg)
    src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    shown = max(width, readable)
    box = "overflow-x:auto;max-width:100%" + (";display:none" if hidden else "")
    classes = " ".join(["hk-pan", "hk-drawing", *css_class.split()])
    return (f'<div class="{classes}" role="region" tabindex="0" '
            f'aria-label={quoteattr(alt + " (a drawing; the arrow keys pan it)")} style="{box}">'
            f'<img src="{src}" alt={quoteattr(alt)} style="display:block;width:{shown:.0f}px;max-width:100%;'
            f'min-width:{readable:.0f}px;height:auto"></div>')


#: at most this many marked cells are named in a drawing's title; the rest are counted
MARKS_NAMED = 6


def marks_words(marked=(), path=(), noun: str = "cell", verb: str = "Marked") -> str:
    """What a drawing marks, in words for its title (so two drawings of one position get
    distinct accessible names): ``marked`` cells ``(q, r)`` (a mapping also gives each cell's
    label; ``noun`` and ``verb`` name them and how they are marked) and a ``path`` of cells;
    ``""`` when it marks nothing.
    ``marks_words({(2, -1): 3}, [(0, 0), (1, 0)])`` -> ``" Marked: cell 2,-1 (3). Path from 0,0 to 1,0, 2 cells."``"""
    words = ""
    if marked:
        labels = marked if isinstance(marked, dict) else {}
        named = [cell_name(c) + (f" ({labels[c]})" if labels.get(c) not in (None, "") else "")
                 for c in sorted(marked)]
        more = len(named) - MARKS_NAMED
        listed = "; ".join(named[:MARKS_NAMED]) + (f" and {more} more" if more > 0 else "")
        words += f" {verb}: {noun if len(named) == 1 else noun + 's'} {listed}."
    if len(path) > 1:
        words += f" Path from {cell_name(path[0])} to {cell_name(path[-1])}, {len(path)} cells."
    return words


class BoardSVG:
    """An SVG picture that Jupyter displays inline as HTML (``_repr_html_``: the SVG as an
    image, never under 12 CSS px text, :func:`readable_html`); ``data`` and ``str()`` are the
    SVG text; its text form is the picture's title (no memory address), so notebook outputs
    stay deterministic."""

    def __init__(self, text: str):
        self.data = text

    def _repr_html_(self) -> str:
        return readable_html(self.data, self.title)

    @property
    def title(self) -> str:
        start, end = self.data.find("<title>"), self.data.find("</title>")
        return self.data[start + 7:end] if 0 <= start < end else "board"

    def __repr__(self) -> str:
        return f"<{self.title}>"

    def __str__(self) -> str:
        return self.data

    def save(self, path) -> None:
        """Write the SVG to ``path`` atomically. Raises OSError."""
        atomic_write(path, self.data)
