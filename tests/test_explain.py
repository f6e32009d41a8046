"""The board's key, "what is this?" titles and settings in words (haunted_kit.explain), as
kinds over every registered game: every code a drawn board writes has an entry in the key
shown with it, each entry names a rule section, the seat and projector pages carry the key
and title every drawn code, and a table's settings are sentences from the game's
declarations, never raw keys or JSON (issues 29 item 3, 32 item 2)."""

from __future__ import annotations

import json
import re
from html import escape

import pytest

from haunted_kit import explain
from haunted_kit.bots import default_agent, make_bot
from haunted_kit.games import MissingHook, game_names, get_game
from haunted_kit.server import PUBLIC, Classroom, view_message
from haunted_kit.store import GameStore
from ruletools import games_with_module
from test_server import run



def declares_key(name: str) -> bool:
    """Whether the registered game ``name`` declares a key (a ``board_key`` hook)."""
    g = get_game(name)
    try:
        explain.board_key(g, g.new_game(players=max(2, g.min_players), seed=1))
    except MissingHook:
        return False
    return True


def keyed_games() -> list[str]:
    """The registered games that declare a key (a ``board_key`` hook) and have a table view."""
    return [n for n in games_with_module("classroom") if declares_key(n)]


KEYED = keyed_games()


def table_of(name: str, players: int | None = None):
    """A classroom with one table of ``name`` (every seat human), made by the teacher's create op."""
    g = get_game(name)
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    n = players or min(max(3, g.min_players), g.max_players)
    assert run(lambda: c.teacher_op({"op": "create", "game": name, "players": n, "seed": 4})) == {"ok": "Table 1 created."}
    return c, store.table(1)


def positions(t, steps=(0, 6, 25, 80)):
    """The table at several points of a greedy game (seeded per seat), the end included when reached."""
    bots = {p: make_bot(default_agent(t.game), 40 + p, t.game) for p in range(len(t.seats))}
    done = 0
    for target in steps:
        while done < target and not t.state.is_terminal():
            p = t.state.current_player()
            t.decide(p, bots[p].act(t.state.copy()))
            done += 1
        yield done


def texts_without_title(svg: str, codes: set[str]) -> list[str]:
    """The ``<text>`` elements whose words hold one of ``codes`` but carry no ``<title>``."""
    out = []
    for m in re.finditer(r"<text\b[^>]*>(.*?)</text>", svg, re.S):
        body = m.group(1)
        if "<title>" not in body and explain._codes_of(body.strip()) & codes:
            out.append(body)
    return out


def test_the_registry_has_keyed_games():
    assert len(KEYED) >= 3  # the three games of the kit declare their keys


@pytest.mark.parametrize("name", KEYED)
def test_every_code_a_page_draws_is_in_the_key_shown_with_it(name):
    c, t = table_of(name)
    seen: set[str] = set()
    for _ in positions(t):
        for viewer in (0, 1, PUBLIC):
            msg = view_message(t, viewer, 30)
            entries = explain.board_key(t.game, t.state)
            drawn = explain.drawn_codes(msg["board"])
            seen |= drawn
            assert explain.missing_codes(msg["board"], entries) == set(), (name, viewer)
            # the key the page shows holds every drawn code, in bold, with its rule section
            names = explain._names(entries)
            for words in explain._text_tokens(msg["board"]):
                for e in explain._explained(words, entries, names)[0]:
                    assert f"<dt><b>{escape(', '.join(e.codes))}</b></dt>" in msg["key"], (name, e.codes)
            assert "(rule: " in msg["key"] and msg["key"].startswith('<details class="hk-key"')
            # and each drawn code carries its explanation where it is drawn
            assert texts_without_title(msg["board"], drawn) == [], name
    assert len(seen) >= 4, f"{name}'s boards drew too few codes to test: {sorted(seen)}"


@pytest.mark.parametrize("name", KEYED)
def test_every_entry_names_a_rule_section_and_says_what_it_is(name):
    g = get_game(name)
    state = g.new_game(players=min(max(3, g.min_players), g.max_players), seed=2)
    entries = explain.board_key(g, state)
    codes = [c for e in entries for c in e.codes]
    assert entries and all(e.what and e.section and e.section not in e.codes for e in entries)
    for e in entries:
        sentence = e.sentence()
        assert sentence.startswith(", ".join(e.codes) + ": ") and f"(rule: {e.section})" in sentence
        assert "None" not in sentence and "_" not in e.what
    assert len(set(codes)) == len(codes) or name == "landmarks"  # Landmarks' digits mean a player or a count


def house_rule_box(name: str):
    """``(box, code, old words, new words)``: the game's own box with one number changed, and
    the key entry whose value must show the change."""
    import dataclasses
    g = get_game(name)
    box = g.default_box()
    if name == "haunted":
        mill = box.buildings["mill"]
        new = dict(box.buildings, mill=dataclasses.replace(mill, valor=mill.valor + 4))
        return dataclasses.replace(box, buildings=new), "Ml", f"worth {mill.valor} valor", f"worth {mill.valor + 4} valor"
    if name == "estate":
        tile = box.tiles["limestone_quarry"]
        new = dict(box.tiles, limestone_quarry=dataclasses.replace(tile, amount=tile.amount + 2))
        return (dataclasses.replace(box, tiles=new), "Lq", f"raises {tile.amount} limestone",
                f"raises {tile.amount + 2} limestone")
    if name == "landmarks":
        return (dataclasses.replace(box, most_points=box.most_points + 3), "VP", f"+{box.most_points} ",
                f"+{box.most_points + 3} ")
    return None


@pytest.mark.parametrize("name", [n for n in KEYED if n in ("haunted", "estate", "landmarks")])
def test_a_house_rule_box_changes_the_value_the_key_shows(name):
    box, code, old, new = house_rule_box(name)
    g = get_game(name)
    players = min(max(3, g.min_players), g.max_players)
    own = {c: e for e in explain.board_key(g, g.new_game(players=players, seed=3)) for c in e.codes}[code]
    house = {c: e for e in explain.board_key(g, g.new_game(players=players, seed=3, box=box)) for c in e.codes}[code]
    assert old in own.value and new not in own.value
    assert new in house.value and old not in house.value
    assert new.strip() in explain.key_html([house])


def test_drawn_codes_reads_marks_names_and_numbers():
    svg = ('<svg><text x="1">Lq</text><text>Ml1</text><text>F 2,-1</text><text>3</text><text>P2 to move</text>'
           '<text>6 left - 1 VP each</text><text><title>x</title>G</text><text>Alchemist&#x27;s Hut</text></svg>')
    assert explain.drawn_codes(svg) == {"Lq", "Ml", "1", "F", "3", "VP", "G", "Hut"}
    entries = [explain.KeyEntry("Lq", "limestone quarry", "Expand the lands", "raises 1 limestone"),
               explain.KeyEntry(("Ml",), "mill", "Buildings: Mill"), explain.KeyEntry(("1", "3"), "player", "Turns"),
               explain.KeyEntry("VP", "victory points", "Scoring"), explain.KeyEntry("Alchemist's Hut", "a card", "Build")]
    assert explain.missing_codes(svg, entries) == {"F", "G"}
    out = explain.annotate_svg(svg, entries)
    assert ('<text x="1"><title>Lq: limestone quarry; raises 1 limestone (rule: Expand the lands).</title>Lq</text>'
            in out)
    assert "<title>1, 3: player (rule: Turns). Ml: mill (rule: Buildings: Mill).</title>Ml1" in out
    assert "<text>F 2,-1</text>" in out and "<text><title>x</title>G</text>" in out  # no entry; a title kept
    assert "(rule: Build).</title>Alchemist&#x27;s Hut" in out
    assert explain.annotate_svg(svg, entries) == out  # same input, same bytes


def test_a_key_entry_needs_its_words_and_section():
    with pytest.raises(ValueError, match="codes, what and section"):
        explain.KeyEntry("Lq", "", "Expand the lands")
    with pytest.raises(ValueError, match="codes, what and section"):
        explain.KeyEntry((), "x", "y")


def test_a_game_without_a_key_is_told_so_and_its_board_is_left_alone():
    from types import SimpleNamespace
    toy = SimpleNamespace(name="toy-without-key", title="Toy")
    with pytest.raises(MissingHook, match="board_key hook; Toy"):
        explain.board_key(toy, None)
    assert explain.keyed_board(toy, None, "<svg/>") == ("<svg/>", "")


# ------------------------------------------------------------------------ settings in words
@pytest.mark.parametrize("name", game_names())
def test_every_option_of_every_game_is_a_sentence_on_the_teacher_page(name):
    g = get_game(name)
    for o in getattr(g, "options", None) or ():
        value = {"int": (o.low or 0) + 1, "ints": [2, 3], "str": "some_word"}[o.kind]
        sentence = explain.settings_sentence(g, {"players": 2, "seed": 1, o.keyword: value})
        label = explain.option_label(o).capitalize()
        words = {"int": str(value), "ints": "2, 3", "str": "some word"}[o.kind]
        assert sentence == f"{label}: {words}.", sentence
        rows = explain.settings_words(g, {o.keyword: value})
        assert rows == [{"label": label, "value": words, "help": o.help, "default": False}]
        if o.default is not None:
            assert explain.settings_sentence(g, {o.keyword: o.default}).endswith("(the default).")


@pytest.mark.parametrize("name", games_with_module("classroom"))
def test_the_teacher_message_writes_each_tables_settings_in_words(name):
    c, t = table_of(name)
    msg = c.teacher_message()
    row = next(x for x in msg["tables"] if x["id"] == t.id)
    fields = {f["name"]: f for f in c.form_fields(t.game)}
    text = row["settings"]
    assert text and "{" not in text and "[" not in text and "true" not in text.lower().split() and "_" not in text
    for f in fields.values():  # every form setting is written with its label
        assert f"{f['label']}: " in text, (f["label"], text)
    assert "{" not in row["settings_help"]
    json.dumps(row)


def test_settings_in_words_for_nested_and_undeclared_keys():
    from types import SimpleNamespace
    toy = SimpleNamespace(name="toy", options=())
    text = explain.settings_sentence(toy, {"players": 3, "seed": 1, "extra_ghost_cards": [], "limited_supplies": True,
                                           "modules": {"architects": False}})
    assert text == "Extra ghost cards: none. Limited supplies: on. Architects: off."
    assert explain.settings_sentence(toy, {"players": 3, "seed": 2}) == "The game's own settings."


def test_a_card_is_in_the_key_only_when_the_board_draws_it(monkeypatch):
    from types import SimpleNamespace
    entries = [explain.KeyEntry("VP", "victory points", "Scoring"),
               explain.KeyEntry("Village Square", "holy building card", "Build", "2 VP", drawn_only=True),
               explain.KeyEntry("Crypt", "shadow building card", "Build", "2 VP", drawn_only=True)]
    toy = SimpleNamespace(name="toy", title="Toy", board_key=lambda state: entries)
    board, key = explain.keyed_board(toy, None, "<svg><text>Village Square</text><text>2 VP</text></svg>")
    assert "<b>Village Square</b>" in key and "<b>VP</b>" in key and "Crypt" not in key  # a hidden card stays hidden
    assert "<title>Village Square: holy building card; 2 VP (rule: Build).</title>Village Square" in board
