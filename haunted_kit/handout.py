"""Printable handouts for any game: the print page, the provenance marks, the PDF.

Each game writes its own sections (a rules summary, a player aid...) from its box and
hands them to :func:`handout_page`; this module gives them what is not a game's:

* :data:`PAPERS` and :data:`PRINT_CSS`: plain HTML with print CSS (``@page`` size A4 or
  Letter, black ink on white); each ``<section>`` starts a new sheet;
* :class:`ProvenanceMarks`: the mark after a value from the box: ``†`` a house rule (differs
  from the box the kit ships), ``*`` a kit default (the rules text is silent, the kit chose:
  ``docs/RULINGS.md``), nothing for a value the rules text prints; :meth:`ProvenanceMarks.legend`
  says so on the page;
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
h1 {{ font-size: 13pt; margin: 0 0 2pt 0; border-bottom: 1.2pt solid #000; }}
h2 {{ font-size: 9.6pt; margin: 5pt 0 2pt 0; break-after: avoid; }}
p, ul, ol {{ margin: 2pt 0; }} ul, ol {{ padding-left: 13pt; }} li {{ margin: 1pt 0; }}
.sub {{ font-style: italic; }}
.hk-rules .cols {{ column-count: 2; column-gap: 7mm; column-rule: 0.4pt solid #888; }}
.gloss dt {{ font-weight: bold; display: inline; }} .gloss dt::after {{ content: ": "; }}
.gloss dd {{ display: inline; margin: 0; }} .gloss dd::after {{ content: ""; display: block; }}
table {{ border-collapse: collapse; width: 100%; margin: 1pt 0 3pt 0; }}
th, td {{ border: 0.5pt solid #000; padding: 1.2pt 3pt; text-align: left; vertical-align: top; }}
th {{ background: #e6e6e6; }}
sup.hr, sup.kd {{ font-weight: bold; }}
.house {{ border: 0.8pt dashed #000; padding: 2pt 4pt; }}
.legend {{ border-top: 0.6pt solid #000; margin-top: 4pt; padding-top: 2pt; font-size: 7.6pt; }}
.end {{ font-size: 7pt; color: #444; text-align: right; }}
.svg svg {{ width: 100%; height: auto; }}
.hk-aid {{ font-size: 7.8pt; line-height: 1.18; }} .hk-aid h2 {{ margin: 3pt 0 1pt 0; }} .hk-aid td, .hk-aid th {{ padding: 0.8pt 2.5pt; }}
@media screen {{ body {{ max-width: {width}mm; margin: 8mm auto; }} section {{ border-bottom: 2px dashed #999; padding-bottom: 8mm; margin-bottom: 8mm; }} }}
"""


def paper_size(paper: str) -> tuple:
    """``(css size, width mm, height mm)`` of ``paper``; raises :class:`HandoutError` for an unknown one."""
    if paper not in PAPERS:
        raise HandoutError(f"unknown paper {paper!r} (choose from {', '.join(PAPERS)})")
    return PAPERS[paper]


def handout_page(title: str, sections, paper: str = "a4") -> str:
    """One HTML page with the print CSS for ``paper`` and the ``sections`` (HTML strings,
    each a ``<section>``). Raises :class:`HandoutError` for an unknown paper."""
    size, width, _height = paper_size(paper)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)} ({size})</title><style>{PRINT_CSS.format(size=size, width=width)}</style></head><body>"
            + "".join(sections) + "</body></html>\n")


def table(head, rows) -> str:
    """An HTML table: ``head`` (column names, escaped) and ``rows`` (cells as HTML)."""
    out = "<tr>" + "".join(f"<th>{escape(str(h))}</th>" for h in head) + "</tr>"
    for r in rows:
        out += "<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>"
    return f"<table>{out}</table>"


class ProvenanceMarks:
    """The marks of a box's values by their provenance rows ``(file, entry, field, provenance)``
    (every box of the kit has them as ``box.provenance``).

    Args:
        box: the box.
        kit_defaults: mark kit defaults with ``*`` too (house rules are always marked ``†``).
    """

    def __init__(self, box, kit_defaults: bool = True):
        self.kit_defaults = kit_defaults
        self.rows = {}
        for f, e, k, p in box.provenance:
            self.rows.setdefault((f, e), {})[k] = p
        self.house = {(f, e) for (f, e), fields in self.rows.items() if "house rule" in fields.values()}
        self.used: set[str] = set()

    def provenance(self, file: str, entry: str, field: str | None = None) -> set:
        """The provenances of entry ``entry`` of ``file`` (of one ``field``, or of all);
        raises KeyError for an entry the box does not have (a handout names only real values)."""
        fields = self.rows[(file, entry)]
        return {fields[field]} if field is not None else set(fields.values())

    def mark(self, file: str, entry: str, field: str | None = None) -> str:
        """``†`` (HTML) when the value is a house rule, ``*`` when it is a kit default (and
        ``kit_defaults``), else ``""``."""
        found = self.provenance(file, entry, field)
        if "house rule" in found:
            self.used.add(HOUSE_MARK)
            return f'<sup class="hr">{HOUSE_MARK}</sup>'
        if self.kit_defaults and "kit default" in found:
            self.used.add(KIT_MARK)
            return f'<sup class="kd">{KIT_MARK}</sup>'
        return ""

    def legend(self) -> str:
        """The legend of the marks used so far (call it after the marked sections), and
        the house rules by name; ``""`` when no mark was used."""
        parts = []
        if KIT_MARK in self.used:
            parts.append(f"<b>{KIT_MARK}</b> a kit default: the rules text does not give this number, the kit chose it "
                         "(docs/RULINGS.md says why); every unmarked number is printed in the rules text.")
        if HOUSE_MARK in self.used or self.house:
            listed = ", ".join(f"{escape(f)} {escape(e)}" for f, e in sorted(self.house)[:12])
            parts.append(f"<b>{HOUSE_MARK} House rules</b> (differ from the kit's box): {listed or 'none'}.")
        return f'<p class="legend">{" ".join(parts)}</p>' if parts else ""


# --------------------------------------------------------------------------- printing

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
