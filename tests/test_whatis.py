"""The key and "What is this?" of every notebook board (haunted_kit.widgets.whatis), as kinds
over every registered game with a play view: the board a play view draws shows the key of
the codes it draws, each answer names the entry's rule section and the value of the box in
play (a house rule's own), the keyboard list answers as a click does, and a seat's key never
names what that seat cannot see (issue 29, item 3)."""

from __future__ import annotations

import pytest

from haunted_kit import explain
from haunted_kit.bots import default_agent, make_bot
from haunted_kit.games import game_module, get_game
from haunted_kit.widgets.whatis import PICK_PROMPT, WhatIsThis
from ruletools import games_with_module
from test_explain import declares_key, house_rule_box


def keyed_views() -> list[str]:
    """The registered games with a play view (the ``widgets`` module's ``play_view`` hook)
    and a key (a ``board_key`` hook)."""
    return [n for n in games_with_module("widgets")
            if getattr(game_module(n, "widgets"), "play_view", None) is not None and declares_key(n)]


VIEWS = keyed_views()


def players_of(g) -> int:
    return min(max(3, g.min_players), g.max_players)


def view_of(name: str, state, seat: int | None = 0):
    """The game's play view of ``state``: ``seat`` human and the others bots (``None``: every
    seat a bot, so the board shows everyone's side)."""
    bots = [p for p in range(state.players) if p != seat]
    return game_module(name, "widgets").play_view(state, bots=bots, hints=False)


def boards(widget) -> list:
    """Every board widget under ``widget``: one with a :class:`WhatIsThis` as ``whatis`` and ``update(state)``."""
    out, todo, seen = [], [widget], set()
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        if isinstance(getattr(w, "whatis", None), WhatIsThis) and callable(getattr(w, "update", None)):
            out.append(w)
        todo.extend(getattr(w, "children", ()) or ())
    return out


def board_of(view):
    found = boards(view)
    assert len(found) == 1, f"{type(view).__name__} shows {len(found)} boards with a key"
    return found[0]


def drawn(w: WhatIsThis) -> list[str]:
    return [p.text for p, _c in w._texts]


def played(name: str, decisions: int, seed: int = 2, box=None):
    """A greedy game of ``name`` after ``decisions`` decisions (chance resolved on the way)."""
    from haunted_kit.protocol import sample_chance
    g = get_game(name)
    state = g.new_game(players=players_of(g), seed=seed, **({"box": box} if box is not None else {}))
    bots = {p: make_bot(default_agent(g), 50 + p, g) for p in range(state.players)}
    for _ in range(decisions):
        while state.is_chance_node() and not state.is_terminal():
            state.apply_chance(sample_chance(state, 7))
        if state.is_terminal():
            break
        state.apply_action(bots[state.current_player()].act(state.copy()))
    return state


def until_drawn(name: str, code: str, box=None, steps: int = 400):
    """A greedy game of ``name`` (``box``: a house-rule box) played until its board (every
    seat's side) draws ``code``, on the first of seeds 3.. where it does; returns the board."""
    from haunted_kit.protocol import sample_chance
    g = get_game(name)
    for seed in range(3, 13):
        state = g.new_game(players=players_of(g), seed=seed, **({"box": box} if box is not None else {}))
        board = board_of(view_of(name, state.copy(), seat=None))
        bots = {p: make_bot(default_agent(g), 50 + p, g) for p in range(state.players)}
        for _ in range(steps):
            board.update(state)
            if code in explain.drawn_codes(explain.texts_svg(drawn(board.whatis))):
                return board
            if state.is_terminal():
                break
            state.apply_action(bots[state.current_player()].act(state.copy()))
            while state.is_chance_node() and not state.is_terminal():
                state.apply_chance(sample_chance(state, 7))
    raise AssertionError(f"{name}: {code!r} not drawn in greedy games of seeds 3 to 12")


def place_of(w: WhatIsThis, code: str):
    """A place of the board (a cell, or a drawn word of a panel) where ``code`` is drawn."""
    for p, cell in w._texts:
        if code in explain._codes_of(p.text) or p.text == code:
            return cell if cell is not None else p.text
    raise AssertionError(f"{code!r} is not drawn")


def ask(w: WhatIsThis, place) -> str:
    """Choose ``place`` in the keyboard list, as a keyboard user would; returns the answer."""
    w.pick.value = None
    w.pick.value = place
    return w.last


def test_every_game_with_a_play_view_has_a_keyed_board():
    assert len(VIEWS) >= 3  # the three games of the kit draw a board in their play views


@pytest.mark.parametrize("name", VIEWS)
def test_the_board_shows_the_key_of_what_it_draws_and_each_answer_names_its_section(name):
    g = get_game(name)
    view = view_of(name, played(name, 40))
    w = board_of(view).whatis
    entries = explain.board_key(g, view.state)
    assert w.entries == entries and w.layout.display != "none"
    assert w.key.value.endswith(explain.key_html(w.shown)) and "<details class=\"hk-key\"" in w.key.value
    # every code the board draws is in the key it shows, with its section
    texts = explain.texts_svg(drawn(w))
    assert explain.missing_codes(texts, entries) == set(), name
    for e in explain.drawn_entries(texts, entries):
        assert e in w.shown and f"(rule: {escape_(e.section)})" in w.key.value
    # the keyboard list names every place, and each answer says each drawn code's entry
    places = [v for _label, v in w.pick.options]
    assert places[0] is None and w.pick.options[0][0] == PICK_PROMPT and len(places) > 5
    answered = 0
    for place in places[1:]:
        said = ask(w, place)
        assert said.startswith("What is this? ")
        here = [p.text for p, c in w._texts if (c == place if isinstance(place, tuple) else p.text == place)]
        for e in explain.drawn_entries(explain.texts_svg(here), entries):
            assert e.sentence() in said, (name, place, said)
            answered += 1
    assert answered >= 4, f"{name}: too few drawn codes answered"
    assert w.pick.description == "What is at" and w.toggle.description == "What is this?"  # accessible names


def escape_(text: str) -> str:
    from html import escape
    return escape(text)


@pytest.mark.parametrize("name", [n for n in VIEWS if house_rule_box(n) is not None])
def test_a_house_rule_box_changes_the_value_the_answer_says(name):
    box, code, old, new = house_rule_box(name)
    said = {}
    for which, b in (("own", None), ("house", box)):
        board = until_drawn(name, code, b)
        w = board.whatis
        place = place_of(w, code)
        said[which] = ask(w, place)
        entry = next(e for e in w.entries if code in e.codes)
        assert entry.sentence() in said[which] and f"(rule: {entry.section})" in said[which]
        assert (new if b is not None else old).strip() in w.key.value.replace("&#x27;", "'")
    assert old in said["own"] and new not in said["own"]
    assert new in said["house"] and old not in said["house"]


@pytest.mark.parametrize("name", VIEWS)
def test_a_seats_key_never_names_what_it_cannot_see(name):
    g = get_game(name)
    state = g.new_game(players=players_of(g), seed=5)
    seat = board_of(view_of(name, state.copy(), seat=0)).whatis
    everyone = board_of(view_of(name, state.copy(), seat=None)).whatis
    hidden = [e for e in everyone.shown if e not in seat.shown]
    # a name listed only when drawn is listed only when this seat's board draws it
    seat_drawn = explain.drawn_entries(explain.texts_svg(drawn(seat)), seat.entries)
    assert all(e in seat_drawn for e in seat.shown if e.drawn_only)
    for e in hidden:
        assert e.drawn_only and e not in seat_drawn
        assert all(f"<b>{escape_(c)}</b>" not in seat.key.value for c in e.codes), (name, e.codes)
        # asked about it by name, the seat's board says it is not drawn there
        assert all(c not in drawn(seat) for c in e.codes)


def test_some_game_hides_a_name_from_a_seat():
    """At least one game's seat board leaves out names everyone's board draws (a hand of
    cards), so the test above is not empty."""
    hid = 0
    for name in VIEWS:
        g = get_game(name)
        state = g.new_game(players=players_of(g), seed=5)
        seat = board_of(view_of(name, state.copy(), seat=0)).whatis
        everyone = board_of(view_of(name, state.copy(), seat=None)).whatis
        hid += len([e for e in everyone.shown if e not in seat.shown])
    assert hid > 0


def test_what_is_says_the_spot_then_each_entry_once():
    entries = [explain.KeyEntry("Lq", "limestone quarry land tile", "Expand the lands", "raises 2 limestone"),
               explain.KeyEntry(("1", "2"), "a player's marker", "Expand the lands"),
               explain.KeyEntry(("white dot",), "a white-dotted outer land", "Expand the lands", "1 gold off")]
    said = explain.what_is(entries, ["Lq", "1", "2", "Lq"], "slot 2,-1", "a forest tile; a white-dotted land (white dot)")
    assert said == ("What is this? Slot 2,-1: a forest tile; a white-dotted land (white dot). "
                    "white dot: a white-dotted outer land; 1 gold off (rule: Expand the lands). "
                    "Lq: limestone quarry land tile; raises 2 limestone (rule: Expand the lands). "
                    "1, 2: a player's marker (rule: Expand the lands).")
    assert explain.what_is(entries, ["2,-1"], "cell 2,-1") == "What is this? Cell 2,-1."


@pytest.mark.parametrize("name", [n for n in games_with_module("widgets", "exercises")
                                  if getattr(game_module(n, "widgets"), "exercise_view", None) is not None])
def test_an_exercise_board_withholds_its_key(name):
    """An exercise's board shows no key and answers no click: the key's numbers (what entering
    a cell costs) would answer the question."""
    shown = 0
    for key in list(game_module(name, "exercises").EXERCISES.entries)[:4]:
        ex = game_module(name, "widgets").exercise_view(key, 1)
        for board in boards(ex):
            shown += 1
            w = board.whatis
            assert w.withheld and w.layout.display == "none" and not w.take_click(1.0, 1.0)
            board.update(ex.ex.state)                      # a redraw keeps it withheld
            assert w.layout.display == "none"
    assert shown >= 1


@pytest.mark.parametrize("name", VIEWS)
def test_the_tutorial_shows_the_games_keyed_board(name, tmp_path):
    """The tutorial plays in the game's own play view, so its board has the key and answers."""
    from haunted_kit.widgets.tutorial import TutorialView
    view = TutorialView(name, seed=1, progress=tmp_path / "t.json")
    w = board_of(view).whatis
    assert w.shown and "<details class=\"hk-key\"" in w.key.value and not w.withheld
    place = w._places[0]
    said = ask(w, place)
    assert said.startswith("What is this? ") and said == w.last


@pytest.mark.parametrize("name", VIEWS)
def test_an_answer_is_cleared_when_the_position_changes(name):
    """A newcomer's wrong click filled the answer line, which then stayed for the whole round
    about a position long gone: a new position puts the prompt back; a redraw of the same
    position keeps the answer."""
    g = get_game(name)
    state = g.new_game(players=players_of(g), seed=2)
    while state.is_chance_node():
        from haunted_kit.protocol import sample_chance
        state.apply_chance(sample_chance(state, 1))
    view = view_of(name, state, seat=state.current_player())
    w = board_of(view).whatis
    said = ask(w, w._places[0])
    assert said.startswith("What is this? ") and w.last == said
    view.refresh()   # the same position drawn again: the answer stays
    assert w.last == said
    assert view.attempt(view.state.legal_actions()[0])
    assert w.last == "" and "What is this? " in w.answer.value and said not in w.answer.value
