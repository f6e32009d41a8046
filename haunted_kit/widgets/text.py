"""A kit view's plain-text form is the text it shows.

A displayed ipywidget is saved in a notebook as a widget reference (a random model id,
which the notebook tests never compare) and a plain-text fallback, ipywidgets' own repr
cut at 110 characters (``PlayView(children=(HTML(value='<div style=...``): markup, not
content. :class:`ShownText` replaces that fallback by :func:`visible_text`, the words the
view shows (its status line, question, explanation, buttons, slider value...), so the
notebook tests (nbval) compare what a student would read and fail when a view shows
something else. The board canvases carry no text; the status and explanation lines
around them name the position they draw.
"""

from __future__ import annotations

import html
import re

import ipywidgets as W

_MARKUP = re.compile(r"<(style|script)\b.*?</\1\s*>|<[^>]*>", re.S | re.I)
#: an innermost ``<details>`` (one holding no other): its opening tag, summary and the rest
_DETAILS = re.compile(r"<details\b([^>]*)>\s*(<summary\b(?:(?!<details\b).)*?</summary>)((?:(?!<details\b).)*?)"
                      r"</details\s*>", re.S | re.I)


def _shown_details(m) -> str:
    """An innermost ``<details>`` as it shows: closed (no ``open``), its summary alone."""
    shown = m.group(3) if re.search(r"\bopen\b", m.group(1)) else ""
    return f" {m.group(2)} {shown} "


def html_text(markup: str) -> str:
    """The words of an HTML fragment: tags, ``<style>`` and ``<script>`` blocks removed,
    a closed ``<details>`` cut to its summary (the rest is not shown until opened; a
    ``<details>`` inside a closed one shows nothing, not even its summary), entities
    decoded, runs of white space made one space."""
    while True:  # innermost first, so a closed one takes the details inside it away whole
        markup, n = _DETAILS.subn(_shown_details, markup)
        if not n:
            break
    return " ".join(html.unescape(_MARKUP.sub(" ", markup)).split())


def visible_text(widget) -> str:
    """The text ``widget`` and its children show, in display order, parts joined by
    `` | ``: the words of HTML and Label values, button descriptions (a toggle button's
    with "(pressed)" while it is), and
    ``description value`` for other value widgets (sliders, dropdowns, checkboxes).
    Hidden widgets (``layout.display == "none"``) and canvases give nothing; an
    accordion or tabs give their titles and the open section only (the closed ones are
    not shown)."""
    parts: list[str] = []

    def walk(w) -> None:
        if getattr(getattr(w, "layout", None), "display", None) == "none":
            return
        if isinstance(w, (W.Accordion, W.Tab)):
            titles = [t for t in w.titles if t]
            if titles:
                parts.append(" / ".join(titles))
            if w.selected_index is not None:
                walk(w.children[w.selected_index])
            return
        if isinstance(w, W.Box):
            for child in w.children:
                walk(child)
            return
        if isinstance(w, (W.HTML, W.HTMLMath, W.Label)):
            text = html_text(w.value)
        elif isinstance(w, W.Button):
            text = w.description
        elif isinstance(w, W.ToggleButton):
            text = w.description + (" (pressed)" if w.value else "")
        elif isinstance(getattr(w, "value", None), (str, int, float, bool)):
            text = " ".join(str(p) for p in (getattr(w, "description", ""), w.value) if p != "")
        else:
            text = ""
        if text.strip():
            parts.append(text.strip())

    walk(widget)
    return " | ".join(parts)


class ShownText:
    """Mixin for a kit view (before the ipywidgets base class): its plain-text form is
    ``"<ClassName>: <visible_text>"`` (or its ``plain_text()``, when the view has one) instead
    of ipywidgets' cut repr; the widget itself is displayed as before."""

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, dict):
            plain = getattr(self, "plain_text", None)
            data["text/plain"] = plain() if plain is not None else f"{type(self).__name__}: {visible_text(self)}"
        return data
