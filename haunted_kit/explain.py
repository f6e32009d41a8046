"""A key for every code a board draws, "what is this?" for each one, and a game's settings in words.

Each game declares once, in its optional ``board_key(state)`` hook (a function of its package's
``draw`` module, or a member of its Game; docs/NEW_GAME.md), every
code, letter, mark or number its board or panel writes: a list of :class:`KeyEntry`, each
with its words, the rule section that governs it and, where the box holds a number for it,
that number as the box in play has it (a house-rule box shows its own value). The kit draws
that declaration once, for every page that shows a board:

- :func:`key_html`: the key as an HTML ``<details>`` list (opens by click, tap or keyboard; no
  hover needed, so it works on a phone), shown with the board by the table server's pages
  (:func:`keyed_board`) and under every notebook board (Haunted Lands' field, the estate's
  land board, the Landmarks panel: :class:`haunted_kit.widgets.whatis.WhatIsThis`, so the
  play views, step-throughs and the tutorial show it; an exercise's board withholds it);
- :func:`shown_key`: the entries a drawn board's key lists (a ``drawn_only`` name only when
  that board writes it: a seat's key never names a card it cannot see); :func:`texts_svg`
  reads a canvas board's drawn words as an SVG's, :func:`entries_of` gives each drawn
  text's entries;
- :func:`what_is`: the answer to "What is this?" for one spot of a board (a cell, a word):
  its name, the game's words about it and each drawn code's entry, for the notebook boards'
  "What is this?" line; the handouts print the key beside their board through
  :func:`haunted_kit.handout.board_with_key`;
- :func:`annotate_svg`: every ``<text>`` of a drawn board whose words are a declared code gets
  a ``<title>`` saying what it is (its rule section and box value): a tooltip on a desktop and
  the element's name for a screen reader;
- :func:`drawn_codes`: the codes a drawn SVG writes, as the kit's tests read them (every code
  drawn must have an entry, :func:`missing_codes`);
- :func:`settings_sentence`: a table's settings (``new_game`` keywords) as a sentence from the
  game's :class:`~haunted_kit.protocol.GameOption` declarations, never raw keys or JSON.

No game's rules live here: the words, sections and values are the game's.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from html import escape

from . import games
from .hexgrid import name_cells
from .render.style import PLAYER_MARKS
from .tableview import choice_label


@dataclass(frozen=True)
class KeyEntry:
    """One code of a board's key.

    Attributes:
        codes: the marks as the board writes them (``("Lq",)``, ``("1", "2", "3", "4")``); a
            mark drawn as a shape only (a white dot, a dashed outline) is written in words
            (``"white dot"``) and never matched against drawn text.
        what: what it is, in a player's words (``"limestone quarry land tile"``).
        section: the rule section that governs it (``"Expand the lands"``).
        value: the box's number(s) for it in words, from the box in play (``"raises 1
            limestone a season"``); ``""`` when the box holds none.
        drawn_only: listed in a page's key only when the board draws it (a card's name: the
            key never lists a card the viewer cannot see, and stays short).
    """

    codes: tuple[str, ...]
    what: str
    section: str
    value: str = ""
    drawn_only: bool = False

    def __post_init__(self):
        if isinstance(self.codes, str):
            object.__setattr__(self, "codes", (self.codes,))
        if not self.codes or not self.what or not self.section:
            raise ValueError(f"KeyEntry {self.codes!r}: codes, what and section must all be given")

    def sentence(self) -> str:
        """``"Lq: limestone quarry land tile; raises 1 limestone a season (rule: Expand the lands)."``"""
        value = f"; {self.value}" if self.value else ""
        return f"{', '.join(self.codes)}: {self.what}{value} (rule: {self.section})."


def player_marks(players: int, piece: str, section: str) -> KeyEntry:
    """The entry for the player numbers drawn on pieces (``"1"`` .. ``"N"``; ``piece``: what
    carries them, e.g. ``"a sensor"``); every game writes its players so (``render.style.PLAYER_MARKS``)."""
    return KeyEntry(tuple(PLAYER_MARKS[:players]), f"the number of the player who owns {piece} (1 is P1, ...)", section)


def board_key(game, state) -> list[KeyEntry]:
    """The key of ``state``'s board as ``game`` declares it: its ``board_key(state)`` hook, a
    member of the Game or else a function of its package's ``draw`` module.

    Raises:
        games.MissingHook: the game declares no key.
        ValueError: the hook returned something other than :class:`KeyEntry` items.
    """
    found = getattr(game, "board_key", None)
    if found is None:
        try:
            draw = games.game_module(game.name, "draw")
        except (games.UnknownGame, ModuleNotFoundError):
            draw = None
        found = getattr(draw, "board_key", None)
    if found is None:
        games.hook(game, "board_key", "the board's key")  # raises MissingHook naming the game
    entries = list(found(state))
    for e in entries:
        if not isinstance(e, KeyEntry):
            raise ValueError(f"{game.title}'s board_key returned {e!r}, not a haunted_kit.explain.KeyEntry")
    return entries


def key_html(entries, title: str = "Key: what the board's codes mean", open_: bool = False) -> str:
    """The key as HTML: a ``<details class="hk-key">`` whose summary is ``title`` and whose
    body is a definition list, one entry a row (the codes in bold, then the words, the box
    value and the rule section). Empty for no entries."""
    if not entries:
        return ""
    rows = []
    for e in entries:
        value = f'; <span class="hk-key-value">{escape(e.value)}</span>' if e.value else ""
        rows.append(f"<dt><b>{escape(', '.join(e.codes))}</b></dt><dd>{escape(e.what)}{value} "
                    f'<span class="hk-key-rule">(rule: {escape(e.section)})</span></dd>')
    return (f'<details class="hk-key"{" open" if open_ else ""}><summary>{escape(title)}</summary>'
            f'<dl>{"".join(rows)}</dl></details>')


def key_text(entries) -> str:
    """The key as plain lines (one :meth:`KeyEntry.sentence` a line), for text outputs and handouts."""
    return "\n".join(e.sentence() for e in entries)


_TEXT = re.compile(r"(<text\b[^>]*>)(.*?)(</text>)", re.S)
_TITLE = re.compile(r"<title>.*?</title>", re.S)
_MARKED = re.compile(r"^([A-Z][a-z]?)(\d)$")  # a two-letter mark followed by a player's number: "Ml1"
_TOKEN = re.compile(r"[A-Za-z0-9+]+(?:'[a-z]+)?")
#: short words of English the boards write in sentences: never codes
WORDS = frozenset("a an of to in on at by or and the for is it its no up as if be we you any not all kit".split())


def _text_tokens(svg: str):
    """The words of every ``<text>`` element of ``svg`` (its ``<title>`` left out)."""
    for m in _TEXT.finditer(svg):
        body = m.group(2)
        yield html.unescape(_TITLE.sub("", body) if "<title>" in body else body).strip()


def _codes_of(words: str) -> set[str]:
    """The codes one text writes (see :func:`drawn_codes`)."""
    if re.fullmatch(r"\d", words):  # a number alone on a piece: a player's mark, a count
        return {words}
    out: set[str] = set()
    for t in _TOKEN.findall(words):
        m = _MARKED.match(t)
        if m and not t.startswith("P"):  # "P1" is the kit's name of a player, not a code
            out |= {m.group(1), m.group(2)}
        elif re.fullmatch(r"[A-Za-z]{1,3}", t) and t.lower() not in WORDS:
            out.add(t)
    return out


def _names(entries) -> list[tuple[str, KeyEntry]]:
    """The entries' codes of more than three characters (names: "Village Square", "lower"),
    longest first, each with its entry."""
    return sorted(((c, e) for e in entries for c in e.codes if len(c) > 3), key=lambda ce: -len(ce[0]))


@functools.lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern:
    """A declared name as a whole word (not inside a longer word or a possessive)."""
    return re.compile(r"(?<![\w'])" + re.escape(name) + r"(?![\w'])")


def _explained(words: str, entries, names) -> tuple[list[KeyEntry], set[str]]:
    """``(entries that explain words of this text, codes of the text no entry explains)``:
    declared names are found as whole words first and taken out, then the rest is read
    as codes (:func:`_codes_of`)."""
    found: list[KeyEntry] = []
    rest = words
    for name, e in names:
        if name not in rest:  # a quick test before the whole-word one
            continue
        pattern = _name_pattern(name)
        if pattern.search(rest):
            rest = pattern.sub(" ", rest)
            if e not in found:
                found.append(e)
    missing = set()
    for code in sorted(_codes_of(rest.strip())):
        hits = [e for e in entries if code in e.codes]
        if not hits:
            missing.add(code)
        for e in hits:
            if e not in found:
                found.append(e)
    return found, missing


class _Explainer:
    """:func:`_explained` over one list of entries, each distinct text read once (a board
    writes the same words on many cells, and a page both titles and keys them); at most
    :data:`MEMO_TEXTS` texts are kept (then the memo starts afresh), so memory stays flat."""

    def __init__(self, entries):
        self.entries = list(entries)
        self.names = _names(self.entries)
        self.memo: dict[str, tuple[list[KeyEntry], set[str]]] = {}
        self.titles: dict[str, str] = {}
        self.parts: dict[str, tuple[str, frozenset]] = {}  # oldest first: a board's groups, see board()
        self.keys: dict[frozenset, str] = {}  # ids of the entries drawn -> the key's HTML (key_of)

    def title(self, body: str) -> str:
        """The ``<title>`` element for a ``<text>`` whose inner text is ``body`` (its
        entries' sentences), or ``""`` when no entry explains its words; each body once."""
        got = self.titles.get(body)
        if got is None:
            if len(self.titles) >= MEMO_TEXTS:
                self.titles.clear()
            found = self(html.unescape(body).strip())[0]
            got = self.titles[body] = f"<title>{escape(' '.join(e.sentence() for e in found))}</title>" if found else ""
        return got

    def board(self, svg: str) -> tuple[str, frozenset]:
        """``(annotate_svg(svg), ids of drawn_entries(svg))`` over these entries, worked out
        per group of the drawing (the text between two ``"<g "``): a group drawn the same
        as before (the terrain of a board, every position alike) is read once; the
        :data:`PARTS_KEPT` groups used last are kept. A drawing whose texts a group
        boundary would cut is read whole."""
        titled, shown = [], set()
        for piece in svg.split("<g "):
            got = self.parts.pop(piece, None)
            if got is None:
                if piece.count("<text") != piece.count("</text>"):  # a text across groups: the drawing whole
                    return annotate_svg(svg, self.entries, self), frozenset(map(id, drawn_entries(svg, self.entries, self)))
                got = (annotate_svg(piece, self.entries, self),
                       frozenset(map(id, drawn_entries(piece, self.entries, self))))
                while len(self.parts) >= PARTS_KEPT:
                    del self.parts[next(iter(self.parts))]
            self.parts[piece] = got  # the most recently used last
            titled.append(got[0])
            shown |= got[1]
        return "<g ".join(titled), frozenset(shown)

    def key_of(self, shown: frozenset) -> str:
        """:func:`key_html` of these entries that are listed always or drawn (``shown``: the
        ids of the entries a drawing writes), each set of drawn entries once."""
        got = self.keys.get(shown)
        if got is None:
            if len(self.keys) >= PARTS_KEPT:
                self.keys.clear()
            got = self.keys[shown] = key_html([e for e in self.entries if not e.drawn_only or id(e) in shown])
        return got

    def __call__(self, words: str) -> tuple[list[KeyEntry], set[str]]:
        got = self.memo.get(words)
        if got is None:
            if len(self.memo) >= MEMO_TEXTS:
                self.memo.clear()
            got = self.memo[words] = _explained(words, self.entries, self.names)
        return got


MEMO_TEXTS = 4096  #: the most texts one :class:`_Explainer` keeps read
PARTS_KEPT = 32  #: the most groups of drawings one :class:`_Explainer` keeps titled
KEYS_KEPT = 16  #: the most keys (lists of entries) whose explainers :func:`_explainer_of` keeps
_EXPLAINERS: dict[tuple, _Explainer] = {}


def _explainer_of(entries: list) -> _Explainer:
    """The explainer of ``entries``, shared by every position whose key is the same list
    (a game's key changes only with the box in play and what the board shows, so the texts
    read for one decision are read once for the whole game). The :data:`KEYS_KEPT` most
    recently used are kept."""
    key = tuple(entries)
    found = _EXPLAINERS.pop(key, None)
    if found is None:
        found = _Explainer(entries)
        while len(_EXPLAINERS) >= KEYS_KEPT:
            del _EXPLAINERS[next(iter(_EXPLAINERS))]
    _EXPLAINERS[key] = found  # the most recently used last
    return found


def drawn_codes(svg: str) -> set[str]:
    """Every code ``svg`` writes: a text that is one digit (a player's number on a piece, a
    count), and every word of at most three letters that is not a short English word
    (:data:`WORDS`); a mark with a player's number (``"Ml1"``) counts as both (``"Ml"``,
    ``"1"``). ``P1`` .. names a player and is not a code; cell names (``2,-1``) and longer
    words are not codes."""
    out: set[str] = set()
    for words in _text_tokens(svg):
        out |= _codes_of(words)
    return out


def missing_codes(svg: str, entries) -> set[str]:
    """The codes ``svg`` draws that no entry of ``entries`` explains (empty: the key is
    whole). A declared name of more than three characters (a card's "Alchemist's Hut") is
    read whole, so its short words are not taken for codes."""
    explain = _Explainer(entries)
    out: set[str] = set()
    for words in _text_tokens(svg):
        out |= explain(words)[1]
    return out


def annotate_svg(svg: str, entries, _explain: _Explainer | None = None) -> str:
    """``svg`` with a ``<title>`` in every ``<text>`` that writes a declared code or name
    (the entries' :meth:`KeyEntry.sentence`), so pointing at it (or a screen reader) says
    what it is; a text that already has a title is left as it is. Same input, same bytes."""
    explain = _explain or _Explainer(entries)
    if not explain.entries:
        return svg

    def one(m):
        head, body, tail = m.groups()
        if "<title>" in body:
            return m.group(0)
        title = explain.title(body)
        return f"{head}{title}{body}{tail}" if title else m.group(0)

    return _TEXT.sub(one, svg)


def keyed_board(game, state, board: str) -> tuple[str, str]:
    """``(board, key)`` for a page: the drawn ``board`` (SVG or HTML text) with its codes
    titled (:func:`annotate_svg`) and the key's HTML (:func:`key_html`); ``(board, "")``
    unchanged for a game that declares no key (``board_key``). Every ``<title>`` of the board
    and every key entry write a cell as the boards do (:func:`named_titles`), so "What is
    this?" and a tooltip say ``1,0`` as the board's label does. :class:`BoardKeys` gives
    the same for many pages of one position, the game's key read once."""
    return BoardKeys(game, state)(board)


class BoardKeys:
    """:func:`keyed_board` for the pages of one position: ``BoardKeys(game, state)(board)``
    is ``keyed_board(game, state, board)``, byte for byte, but the game's key
    (``board_key(state)``) is read once, on the first call, and each distinct ``board``
    text is titled and keyed once (the pages of the seats not to move draw the same
    board). Keep one only while ``state`` stays at the position it was made for."""

    def __init__(self, game, state):
        self.game, self.state = game, state
        self._explain: _Explainer | None = None
        self._declared = True  # False once the game is found to declare no key
        self._boards: dict[str, tuple[str, str]] = {}

    def __call__(self, board: str) -> tuple[str, str]:
        hit = self._boards.get(board)
        if hit is not None:
            return hit
        if self._declared and self._explain is None:
            try:
                self._explain = _explainer_of(board_key(self.game, self.state))
            except games.MissingHook:
                self._declared = False
        if not self._declared:
            return board, ""
        explain = self._explain
        titled, shown = explain.board(named_titles(board))  # cells written as the boards write them
        hit = self._boards[board] = (titled, named_titles(explain.key_of(shown), _ANY_TEXT))
        return hit


_TITLES = re.compile(r"(<title>)(.*?)(</title>)", re.S)
_ANY_TEXT = re.compile(r"()([^<]+)()")  # every text between tags (a key's entries)


def named_titles(markup: str, where: re.Pattern = _TITLES) -> str:
    """``markup`` (SVG or HTML text) with every axial pair written in its ``<title>``s (or,
    with ``where=_ANY_TEXT``, in any of its texts) renamed as the boards write a cell
    (:func:`haunted_kit.hexgrid.name_cells`: ``"suburb (1, 0) on Kalena"`` -> ``"suburb
    cell 1,0 on Kalena"``); the rest byte for byte."""
    if "(" not in markup:
        return markup
    return where.sub(lambda m: m.group(1) + name_cells(m.group(2)) + m.group(3), markup)


def shown_key(board: str, entries, _explain: _Explainer | None = None) -> list[KeyEntry]:
    """The entries a page's key lists for the drawn ``board`` (SVG text, or any text of
    ``<text>`` elements): every entry but a ``drawn_only`` one (a card's name) the board does
    not write, so the key of a seat's board never names a card that seat cannot see."""
    explain = _explain or _Explainer(entries)
    shown = drawn_entries(board, explain.entries, explain)
    return [e for e in explain.entries if not e.drawn_only or e in shown]


def entries_of(texts, entries) -> dict[str, list[KeyEntry]]:
    """``{text: the entries explaining it}`` for each distinct drawn text (strings, as a
    canvas board writes them), read as :func:`drawn_entries` reads an SVG's texts, with one
    reading of the entries for them all."""
    explain = _Explainer(entries)
    return {t: explain(t)[0] for t in dict.fromkeys(texts)}


def texts_svg(texts) -> str:
    """Drawn words (an iterable of strings: a canvas board's text primitives) as the
    ``<text>`` elements :func:`shown_key`, :func:`drawn_entries` and :func:`missing_codes`
    read, so a board drawn on a canvas is keyed exactly as its SVG would be."""
    return "".join(f"<text>{escape(t)}</text>" for t in texts)


def what_is(entries, texts, where: str = "", words: str = "") -> str:
    """The answer to "What is this?" for one spot of a board, in words.

    Args:
        entries: the board's key (:func:`board_key`).
        texts: the words the board draws at that spot (strings, as drawn).
        where: the spot's name (``"cell 2,-1"``, from :func:`haunted_kit.hexgrid.cell_name`).
        words: the game's own words about the spot (its terrain, a piece drawn as a shape);
            a shape's declared name in them (``"white dot"``) brings its entry too.

    Returns:
        ``"What is this? Cell 2,-1: forest. F: forest cell; ... (rule: ...)."``: the spot,
        then each entry explaining a drawn code there (:meth:`KeyEntry.sentence`, its rule
        section and its value in the box in play), each once; a spot with no code the key
        explains is named with the game's words about it alone.
    """
    explain = _Explainer(entries)
    found: list[KeyEntry] = [e for name, e in explain.names if words and _name_pattern(name).search(words)]
    found = list(dict.fromkeys(found))
    for t in texts:
        for e in explain(t)[0]:
            if e not in found:
                found.append(e)
    head = where[:1].upper() + where[1:] if where else "Here"
    head = f"What is this? {head}" + (f": {words.rstrip('.')}." if words else ".")
    if not found:
        return head
    return f"{head} " + " ".join(e.sentence() for e in found)


def drawn_entries(svg: str, entries, _explain: _Explainer | None = None) -> list[KeyEntry]:
    """The entries whose codes or names ``svg``'s texts write, in the entries' order."""
    explain = _explain or _Explainer(entries)
    found: set[int] = set()  # the explainer's own entries, by identity
    for words in _text_tokens(svg):
        found.update(map(id, explain(words)[0]))
    return [e for e in explain.entries if id(e) in found]


# ------------------------------------------------------------------------ settings in words
def _value_words(value) -> str:
    """A setting's value in words: ``True`` "on", ``[]`` "none", ``[2, 3]`` "2, 3",
    ``"exchange_wood"`` "exchange wood"."""
    if value is None or value == () or value == []:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_words(v) for v in value)
    return str(value).replace("_", " ")


def option_label(option) -> str:
    """An option's name for people: its flag's words (``"ghost cards"``, ``"rounds"``)."""
    return option.flag.replace("-", " ").replace("_", " ")


def _declarations(game, fields) -> dict:
    """config key -> (label, help, default, words) from the game's options and its form
    fields; ``words(value)`` is a choice's words (an option's ``choices``, a field's ``labels``)."""
    out: dict = {}
    for o in getattr(game, "options", None) or ():
        entry = (option_label(o).capitalize(), o.help, o.default, o.words)
        out[o.keyword] = entry
        out.setdefault(o.flag.replace("-", "_"), entry)
    for f in fields or ():
        known = out.get(f["name"])
        entry = (f.get("label") or f["name"].replace("_", " ").capitalize(), f.get("help") or (known[1] if known else ""),
                 f.get("default"), functools.partial(choice_label, f) if f.get("labels") else
                 known[3] if known else str)
        out[f["name"]] = entry
        for o in getattr(game, "options", None) or ():  # a form field named by an option's flag
            if o.flag.replace("-", "_") == f["name"]:
                out[o.keyword] = entry
    return out


def settings_words(game, config: dict, fields=(), hidden=("players", "seed", "auto_chance", "log", "box")) -> list[dict]:
    """A table's settings, one ``{"label", "value", "help", "default"}`` per setting, in words.

    ``config``: the table's ``new_game`` keywords; labels, help and a choice's words come
    from ``game``'s :class:`~haunted_kit.protocol.GameOption` declarations (their
    ``choices``) and ``fields`` (the new-table form's fields: ``name``, ``label``, ``help``,
    ``default``, a choice's ``labels``); a nested setting (a dict of switches) is one row per
    switch; a key nothing declares is still written in words (``"Limited supplies"``).
    ``hidden`` keys are said elsewhere (players, seed)."""
    decl = _declarations(game, fields)
    rows: list[dict] = []

    def add(key, value):
        if isinstance(value, dict):
            for k, v in value.items():
                add(k, v)
            return
        label, help_, default, words = decl.get(key, (key.replace("_", " ").capitalize(), "", None, str))
        is_default = default is not None and _value_words(default) == _value_words(value)
        shown = _value_words(words(value)) if isinstance(value, str) else _value_words(value)
        rows.append({"label": label, "value": shown, "help": help_, "default": is_default})

    for key, value in config.items():
        if key not in hidden:
            add(key, value)
    return rows


def settings_sentence(game, config: dict, fields=(), hidden=("players", "seed", "auto_chance", "log", "box")) -> str:
    """A table's settings as short sentences (:func:`settings_words`):
    ``"Mode: wanderer (the default). Ghost cards: 2. Limited supplies: on."``; ``"The
    game's own settings."`` when nothing is left to say. Never raw keys or JSON."""
    rows = settings_words(game, config, fields, hidden)
    return " ".join(f"{r['label']}: {r['value']}{' (the default)' if r['default'] else ''}." for r in rows) \
        or "The game's own settings."
