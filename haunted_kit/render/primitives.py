"""Drawing primitives: the shapes every picture of the kit is made of.

One description, two back ends: :mod:`haunted_kit.render.svg` writes primitives as SVG
text and :mod:`haunted_kit.widgets.canvas` sends them to an ipycanvas layer, so a static
picture and a live widget of the same thing always agree. Coordinates are pixels, y down.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import style as S

Point = tuple[float, float]


# ----------------------------------------------------------------------------- primitives
@dataclass(frozen=True, slots=True)
class Poly:
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    alpha: float = 1.0  #: fill opacity
    dash: tuple[float, ...] = ()
    title: str | None = None  #: tooltip (SVG only)


@dataclass(frozen=True, slots=True)
class Segments:
    segments: tuple[tuple[Point, Point], ...]
    stroke: str
    width: float


@dataclass(frozen=True, slots=True)
class Polyline:
    points: tuple[Point, ...]
    stroke: str
    width: float
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    fill: str = S.INK
    bold: bool = False
    anchor: str = "middle"  #: "start", "middle" or "end"



def bbox(prims) -> tuple[float, float, float, float]:
    """Bounding box of primitives (for tests and legends)."""
    xs, ys = [], []
    for p in prims:
        if isinstance(p, (Poly, Polyline)):
            for x, y in p.points:
                xs.append(x)
                ys.append(y)
        elif isinstance(p, Circle):
            xs += [p.x - p.r, p.x + p.r]
            ys += [p.y - p.r, p.y + p.r]
        elif isinstance(p, Rect):
            xs += [p.x, p.x + p.w]
            ys += [p.y, p.y + p.h]
        elif isinstance(p, Text):
            xs.append(p.x)
            ys.append(p.y)
        elif isinstance(p, Segments):
            for a, b in p.segments:
                xs += [a[0], b[0]]
                ys += [a[1], b[1]]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return min(xs), min(ys), max(xs), max(ys)
