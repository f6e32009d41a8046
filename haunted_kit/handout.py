"""Printable handouts for any game: the print page, the provenance marks, the PDF.

Each game writes its own sections (a rules summary, a player aid...) from its box and
hands them to :func:`handout_page`; this module gives them what is not a game's:

* :data:`PAPERS` and :data:`PRINT_CSS`: plain HTML with print CSS (``@page`` size A4 or
  Letter, black ink on white); each ``<section>`` starts a new sheet;
* :class:`ProvenanceMarks`: the mark after a value from the box: ``†`` a house rule (differs
  from the box the kit ships), ``*`` a kit default (the rules text is silent, the kit chose:
  ``docs/RULINGS.md``), nothing for a value the rules text prints; a house rule also shows
  what the kit's box has (``2† (house rule; rulebook 3)``); :meth:`ProvenanceMarks.legend`
  explains the marks on every page that uses one;
* :func:`player_counts`: the table of what changes with 2, 3, 4... players, the chosen
  count highlighted;
* :func:`board_with_key`: a drawn board with its key beside it, every code it draws with its
  words, rule section and value in the box in play (a house rule prints its own), from the
  game's ``board_key`` (:mod:`haunted_kit.explain`);
* :func:`find_chromium`, :func:`print_pdf`: the PDF, printed by headless Chromium
  (``--print-to-pdf``); :func:`deliver`: the command line's write-HTML-then-PDF step.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from html import escape
from pathlib import Path

from . import explain, games
from .fileio import atomic_write

#: Paper sizes: CSS ``@page`` size, width and height (mm).
PAPERS = {"a4": ("A4", 210, 297), "letter": ("letter", 215.9, 279.4)}

HOUSE_MARK = "†"
KIT_MARK = "*"


class HandoutError(ValueError):
    """A bad paper size or game setting, or a PDF that Chromium could not print."""


PRINT_CSS = """
@page {{ size: {size}; margin: 11mm 12mm; }}
* {{ box-sizing: border-box; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 8.6pt; line-height: 1.28; color: #000; background: #fff; margin: 0; }}
section {{ break-after: page; page-break-after: always; }}
section:last-child {{ break-after: auto; page-break-after: auto; }}
body.flow section {{ break-after: auto; page-break-after: auto; margin-bottom: 8pt; }}
h1 {{ font-size: 13pt; margin: 0 0 2pt 0; border-bottom: 1.2pt solid #000; }}
h2 {{ font-size: 9.6pt; margin: 5pt 0 2pt 0; break-after: avoid; }}
p, ul, ol {{ margin: 2pt 0; }} ul, ol {{ padding-left: 13pt; }} li {{ margin: 1pt 0; }}
.sub {{ font-style: italic; }}
.hk-rules {{ font-size: 9.2pt; line-height: 1.3; }}
.hk-rules .cols {{ column-count: 2; column-gap: 7mm; column-rule: 0.4pt solid #888; }}
.gloss dt {{ font-weight: bold; display: inline; }} .gloss dt::after {{ content: ": "; }}
.gloss dd {{ display: inline; margin: 0; }} .gloss dd::after {{ content: ""; display: block; }}
table {{ border-collapse: collapse; width: 100%; margin: 1pt 0 3pt 0; }}
th, td {{ border: 0.5pt solid #000; padding: 1.2pt 3pt; text-align: left; vertical-align: top; }}
th {{ background: #e6e6e6; }}
sup.hr, sup.kd {{ font-weight: bold; }}
.house {{ border: 0.8pt dashed #000; padding: 2pt 4pt; }}
.was {{ font-style: italic; }}
table.counts tr.chosen td {{ font-weight: bold; border-width: 1.4pt; }}
.legend {{ border-top: 0.6pt solid #000; margin-top: 4pt; padding-top: 2pt; font-size: 7.6pt; }}
.end {{ font-size: 7pt; color: #444; text-align: right; }}
.svg svg {{ width: 100%; height: auto; }}
.board-row {{ display: flex; gap: 4mm; align-items: flex-start; }} .board-row .svg {{ flex: 1 1 60%; min-width: 0; }}
.hk-board-key {{ flex: 1 1 40%; font-size: 7.3pt; line-height: 1.18; }} .hk-board-key h2 {{ margin-top: 0; }}
.hk-board-key dd {{ margin: 0 0 1.2pt 0; }} .hk-board-key .rule {{ font-style: italic; }}
.hk-aid {{ font-size: 7.3pt; line-height: 1.14; }} .hk-aid h2 {{ margin: 3pt 0 1pt 0; }} .hk-aid td, .hk-aid th {{ padding: 0.8pt 2.5pt; }}
@media screen {{ body {{ max-width: {width}mm; margin: 8mm auto; }} section {{ border-bottom: 2px dashed #999; padding-bottom: 8mm; margin-bottom: 8mm; }} }}
"""


def paper_size(paper: str) -> tuple:
    """``(css size, width mm, height mm)`` of ``paper``; raises :class:`HandoutError` for an unknown one."""
    if paper not in PAPERS:
        raise HandoutError(f"unknown paper {paper!r} (choose from {', '.join(PAPERS)})")
    return PAPERS[paper]


def handout_page(title: str, sections, paper: str = "a4", *, flow: bool = False) -> str:
    """One HTML page with the print CSS for ``paper`` and the ``sections`` (HTML strings,
    each a ``<section>``): each section starts a new sheet, or with ``flow`` they follow
    one another (short parts share a sheet rather than leave half of each blank).
    Raises :class:`HandoutError` for an unknown paper."""
    size, width, _height = paper_size(paper)
    body = '<body class="flow">' if flow else "<body>"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)} ({size})</title><style>{PRINT_CSS.format(size=size, width=width)}</style></head>{body}"
            + "".join(sections) + "</body></html>\n")


def table(head, rows) -> str:
    """An HTML table: ``head`` (column names, escaped) and ``rows`` (cells as HTML)."""
    out = "<tr>" + "".join(f"<th>{escape(str(h))}</th>" for h in head) + "</tr>"
    for r in rows:
        out += "<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>"
    return f"<table>{out}</table>"


def show_value(value) -> str:
    """A box value as a handout prints it (plain text): a list joined by ``", "``, a
    table as ``key value`` pairs, a truth value as yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {show_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(show_value(v) for v in value)
    return str(value)


class ProvenanceMarks:
    """The marks of a box's values by their provenance rows ``(file, entry, field, provenance)``
    (every box of the kit has them as ``box.provenance``, and ``box.values``: ``(file,
    entry, field) -> value``).

    A house rule is shown as its change: the mark ``†`` and, after the value, what the
    kit's box has (``(house rule; rulebook 3)``); the legend lists every change as
    ``file entry field: old -> new``. Call :meth:`legend` at the end of each page: it
    explains the marks used on that page (and lists the house rules whenever there are
    any), then starts counting afresh for the next page.

    Args:
        box: the box.
        kit_defaults: mark kit defaults with ``*`` too (house rules are always marked ``†``).
        shipped: the kit's own box of the same game, for the old values of house rules
            (``None``: the changes are named without their old values).
    """

    def __init__(self, box, kit_defaults: bool = True, shipped=None):
        self.kit_defaults = kit_defaults
        self.rows = {}
        for f, e, k, p in box.provenance:
            self.rows.setdefault((f, e), {})[k] = p
        self.house = {(f, e) for (f, e), fields in self.rows.items() if "house rule" in fields.values()}
        self.values = dict(getattr(box, "values", {}) or {})
        self.was = {}
        if shipped is not None:
            self.was = {(f, e, k): p for f, e, k, p in shipped.provenance}
        self.shipped_values = dict(getattr(shipped, "values", {}) or {}) if shipped is not None else {}
        self.used: set[str] = set()
        #: every ``(file, entry, field)`` a handout asked about (all fields when it named an entry)
        self.asked: set[tuple[str, str, str]] = set()

    def provenance(self, file: str, entry: str, field: str | None = None) -> set:
        """The provenances of entry ``entry`` of ``file`` (of one ``field``, or of all);
        raises KeyError for an entry the box does not have (a handout names only real values)."""
        fields = self.rows[(file, entry)]
        if field is not None and field not in fields:
            raise KeyError((file, entry, field))
        self.asked.update((file, entry, k) for k in ([field] if field is not None else fields))
        return {fields[field]} if field is not None else set(fields.values())

    def changes(self, file: str | None = None, entry: str | None = None) -> list[tuple]:
        """The house rules as ``(file, entry, field, old provenance, old, new)`` (``old``
        ``None`` when the kit's box lacks the value or was not given), of one entry or all."""
        out = []
        for (f, e), fields in sorted(self.rows.items()):
            if (file is not None and f != file) or (entry is not None and e != entry):
                continue
            for k, p in fields.items():
                if p == "house rule":
                    key = (f, e, k)
                    old = self.shipped_values.get(key)
                    out.append((f, e, k, self.was.get(key), None if old is None else show_value(old),
                                show_value(self.values[key]) if key in self.values else "?"))
        return out

    def _was(self, file: str, entry: str, field: str | None) -> str:
        parts = []
        changed = [c for c in self.changes(file, entry) if field is None or c[2] == field]
        for _f, _e, k, prov, old, _new in changed:
            said = f"{prov} {old}" if old is not None and prov else "not in the kit's box"
            parts.append(said if len(changed) == 1 else f"{k.replace('_', ' ')}: {said}")
        return escape("house rule; " + "; ".join(parts)) if parts else "house rule"

    def mark(self, file: str, entry: str, field: str | None = None) -> str:
        """``†`` (HTML) and what the kit's box has when the value is a house rule (e.g.
        ``2† (house rule; rulebook 3)``), ``*`` when it is a kit default (and
        ``kit_defaults``), else ``""``."""
        found = self.provenance(file, entry, field)
        if "house rule" in found:
            self.used.add(HOUSE_MARK)
            return f'<sup class="hr">{HOUSE_MARK}</sup> <span class="was">({self._was(file, entry, field)})</span>'
        if self.kit_defaults and "kit default" in found:
            self.used.add(KIT_MARK)
            return f'<sup class="kd">{KIT_MARK}</sup>'
        return ""

    def legend(self) -> str:
        """The legend of the marks used since the last legend (one page's), and every
        house rule as ``file entry field: old -> new``; ``""`` when there is nothing to
        say. Starts the next page's count."""
        parts = []
        if KIT_MARK in self.used:
            parts.append(f"<b>{KIT_MARK}</b> a kit default: the rules text does not give this value (a number or a wording), the kit chose it "
                         "(docs/RULINGS.md says why); every unmarked number is printed in the rules text.")
        if HOUSE_MARK in self.used or self.house:
            listed = [f"{f} {e} {k.replace('_', ' ')}: "
                      + (f"{old} -> {new} ({prov})" if old is not None and prov else f"{new} (not in the kit's box)")
                      for f, e, k, prov, old, new in self.changes()]
            shown = "; ".join(escape(x) for x in listed[:12]) + (" …" if len(listed) > 12 else "")
            parts.append(f"<b>{HOUSE_MARK} House rules</b> (differ from the kit's box): {shown or 'none'}.")
        self.used = set()
        return f'<p class="legend">{" ".join(parts)}</p>' if parts else ""


def player_counts(changes: dict, chosen: int | None = None, *, section: str = "") -> str:
    """The table of what changes with each player count: ``changes`` maps a count to its
    changes (HTML strings, marks included; none: "nothing changes"); the ``chosen``
    count's row is bold and says "this game". ``section`` names the rules section."""
    rows = []
    for n in sorted(changes):
        said = "; ".join(changes[n]) or "nothing changes"
        here = n == chosen
        label = f"{n} players" + (" (this game)" if here else "")
        cls = ' class="chosen"' if here else ""
        rows.append(f"<tr{cls}><td>{escape(label)}</td><td>{said}</td></tr>")
    where = f" ({escape(section)})" if section else ""
    return (f'<h2>Player count{where}</h2><table class="counts"><tr><th>players</th><th>what changes</th></tr>'
            + "".join(rows) + "</table>")


# --------------------------------------------------------------------------- printing

def board_key_html(game, state, board: str, leave=()) -> str:
    """The key of a drawn ``board`` (SVG text) of ``state`` for paper: a ``<div
    class="hk-board-key">`` with a heading and one line per code the key lists for that
    board (:func:`haunted_kit.explain.shown_key`: a card's name only when drawn), each with
    its words, its value in ``state``'s box (a house-rule box prints its own) and its rule
    section. ``leave``: codes of shapes this drawing does not draw (a paper board without
    the on-screen ring of the player to move). ``""`` for a game that declares no key.

    Raises:
        ValueError: the game's ``board_key`` returned something other than KeyEntry items.
    """
    try:
        entries = explain.board_key(game, state)
    except games.MissingHook:
        return ""
    rows = []
    for e in explain.shown_key(board, entries):
        if set(e.codes) & set(leave):
            continue
        value = f"; {escape(e.value)}" if e.value else ""
        rows.append(f"<dt>{escape(', '.join(e.codes))}</dt><dd>{escape(e.what)}{value} "
                    f'<span class="rule">(rule: {escape(e.section)})</span></dd>')
    return (f'<div class="hk-board-key"><h2>Key: what the board\'s codes mean</h2>'
            f'<dl class="gloss">{"".join(rows)}</dl></div>') if rows else ""


def board_with_key(game, state, board: str, max_width_mm: float, leave=()) -> str:
    """A drawn ``board`` (SVG text) with its key beside it (:func:`board_key_html`), in a
    row at most ``max_width_mm`` wide: the handout's board page of any game."""
    return (f'<div class="board-row" style="max-width:{max_width_mm:.0f}mm"><div class="svg">{board}</div>'
            f"{board_key_html(game, state, board, leave)}</div>")


def find_chromium() -> str | None:
    """Debian's chromium (``/usr/bin/chromium``) or a chromium on the PATH, else ``None``."""
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def print_pdf(html_path, pdf_path, chromium: str | None = None, timeout: float = 120) -> Path:
    """Print ``html_path`` to ``pdf_path`` with headless Chromium (the page's ``@page``
    size is used; no header or footer). The PDF is written atomically.

    Raises:
        HandoutError: no Chromium, or Chromium failed or took longer than ``timeout`` s.
    """
    chromium = chromium or find_chromium()
    if chromium is None:
        raise HandoutError("Chromium is not installed; open the HTML file in a browser and print it")
    html_path, pdf_path = Path(html_path).resolve(), Path(pdf_path)
    with tempfile.TemporaryDirectory(prefix="hk-handout-") as tmp:
        out = Path(tmp) / "handout.pdf"
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--no-first-run", f"--user-data-dir={tmp}/profile", "--no-pdf-header-footer",
               f"--print-to-pdf={out}", html_path.as_uri()]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise HandoutError(f"Chromium did not finish printing within {timeout:g} s") from None
        if not out.is_file() or out.stat().st_size == 0:
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            raise HandoutError(f"Chromium could not print the PDF (exit {run.returncode}): {' | '.join(tail)}")

        atomic_write(pdf_path, out.read_bytes())
    return pdf_path


def deliver(parser, out: Path, html: str, paper: str, no_pdf: bool, chromium: str | None) -> int:
    """The command line's last step: write ``html`` to ``out`` (an ``.html`` name, else
    ``parser.error``), then the PDF next to it with ``chromium`` (``None``: say how to
    print from a browser). Exit 0 written, 1 a failed write or print."""
    if out.suffix.lower() not in (".html", ".htm"):
        parser.error(f"--out {out}: the handout is an HTML file (name it .html); the PDF goes next to it")
    try:
        atomic_write(out, html)
    except OSError as exc:
        print(f"haunted-kit handout: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {out} ({paper.upper() if paper == 'a4' else 'Letter'})")
    if no_pdf:
        return 0
    if chromium is None:
        print(f"Chromium is not installed, so no PDF: open {out} in a browser and print it "
              f"({'A4' if paper == 'a4' else 'Letter'}, scale 100%, no headers and footers).")
        return 0
    try:
        pdf = print_pdf(out, out.with_suffix(".pdf"), chromium)
    except (HandoutError, OSError) as exc:
        print(f"haunted-kit handout: {exc}; print {out} from a browser instead", file=sys.stderr)
        return 1
    print(f"wrote {pdf} (printed by {chromium})")
    return 0


def handout_command(parser, args, make, find=find_chromium) -> int:
    """A game's ``haunted-kit handout`` hook: ``make()`` the page (a :class:`HandoutError`
    is a usage error, exit 2) and :func:`deliver` it to ``args.out`` (``args.paper``,
    ``args.no_pdf``; ``find()`` locates Chromium). An ``--out`` not named ``.html`` is a
    usage error before anything is made."""
    if args.out.suffix.lower() not in (".html", ".htm"):
        parser.error(f"--out {args.out}: the handout is an HTML file (name it .html); the PDF goes next to it")
    try:
        html = make()
    except HandoutError as exc:
        parser.error(str(exc))
    return deliver(parser, args.out, html, args.paper, args.no_pdf, None if args.no_pdf else find())
