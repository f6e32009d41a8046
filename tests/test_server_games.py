"""Every game of the kit at the classroom server, without a browser: a table of each game
created by the teacher's create op, decisions from seat pages applied or refused with the
reason, each seat's hidden cards on its own page only (the projector none), the hot
seat's reveal, the export as a normal save that ``haunted-kit replay`` reads, the status
lines, and the new-table form's bad values refused with a sentence naming the field.
(Clicked in Chromium in tests/browser/test_server_games_page.py.)"""

from __future__ import annotations

import json
import random
from html import escape

import pytest

from haunted_kit.bots import default_agent, make_bot
from haunted_kit.cli import main
from haunted_kit.events import cited_rulings
from haunted_kit.games import game_module, game_names, game_of, get_game
from haunted_kit.haunted import actions as HA
from haunted_kit.landmarks import rules as LR
from haunted_kit.landmarks.actions import Acquire, Build, ChooseBuilding
from haunted_kit.server import PUBLIC, Classroom, Connection, classroom_games, option_fields, view_message
from haunted_kit.store import GameStore
from haunted_kit.tableview import help_html
from test_server import FakeSocket, run  # the same fake socket and fresh event loop as the server's own tests

#: per game: the create request's settings, and how far greedy bots play before the checks
CREATE = {
    "haunted": {"players": 4, "seed": 11, "options": {"mode": "wanderer", "ghost_cards": [2]}},
    "estate": {"players": 3, "seed": 5, "options": {"connection": "line", "third_marked": "exchange_wood"}},
    "landmarks": {"players": 3, "seed": 1, "options": {"rounds": 2, "castle_grounds": True}},
}


def secrets(state, p: int) -> list[str]:
    """What only seat ``p`` may see now, as its page writes it: Haunted Lands' quest texts
    held by no other player (rulebook "Quests"), a Landmarks hand's card names that are nowhere public (nor in
    another hand) and the architect's name; nothing in the estate."""
    name = game_of(state).name
    if name == "haunted":
        others = {q for o in range(state.players) if o != p for q in state.quests[o]}   # each player has a quest deck
        if state.current_player() not in (None, p):  # another player choosing a quest reads the cards' texts on their page
            others |= {a.quest for a in state.legal_actions() if hasattr(a, "quest")}
        # a list of quests drops each text's full stop but the last's
        return [escape(state.config.box.quests[q].text.rstrip(".")) for q in state.quests[p] if q not in others]
    if name == "landmarks":
        box = state.box
        public = {k for q in range(state.players) for k in (*state.villages[q], *state.developed[q])}
        others = {k for q in range(state.players) if q != p for k in state.hands[q]}
        out = [box.cards[k].name for k in state.hands[p] if k not in public | others]
        if state.architects[p] and not state.is_terminal():
            out.append(box.architects[state.architects[p]].name)
        return out
    return []


#: the games whose hidden cards :func:`secrets` and :func:`names_hidden` know (worked out from
#: each game's rules); the hidden-card tests run for these
SECRET_HELPERS = ("haunted", "estate", "landmarks")


def names_hidden(name: str, action) -> bool:
    """Whether ``action`` names a hidden card of its player (the hot seat holds it back until revealed)."""
    if name == "haunted":
        return isinstance(action, HA.ChooseQuest)
    if name == "landmarks":
        return isinstance(action, (Build, ChooseBuilding)) or (isinstance(action, Acquire) and bool(action.discards))
    return False


def other_settings(name: str) -> dict:
    """A game not in :data:`CREATE`: 3 players brought into its range (a human besides the
    mover and the bot), seed 1, its declared options' defaults."""
    g = get_game(name)
    return {"players": min(max(3, g.min_players), g.max_players), "seed": 1}


def created(name: str):
    """A classroom with one table of ``name`` made by the teacher's create op (seat 2 a bot)."""
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    settings = CREATE.get(name, other_settings(name))
    reply = run(lambda: c.teacher_op({"op": "create", "game": name, "bots": [2], **settings}))
    assert reply == {"ok": "Table 1 created."}
    return c, store.table(1)


def page_actions(c: Classroom, pages: dict):
    """``act(seat, **msg)``: the seat page's decision message handled, the page's last message returned."""
    def act(p, **msg):
        run(lambda: c.act(pages[p], {"type": "act", **msg}))
        return pages[p].socket.sent[-1]
    return act


def play_until(t, done, limit: int = 600):
    """Greedy decisions (seeded per seat) on table ``t`` until ``done(state)``."""
    bots = {p: make_bot(default_agent(t.game), 90 + p, t.game) for p in range(len(t.seats))}
    for _ in range(limit):
        if done(t.state):
            return
        p = t.state.current_player()
        t.decide(p, bots[p].act(t.state.copy()))
    raise AssertionError("the position was not reached")


def refused_now(t, mover: int):
    """An action of ``mover`` the rules refuse at ``t``'s position: the first that a later
    position of the default agent's play allows (up to 40 decisions on); if the game ends
    first, one from a determinisation of the position from another seat's view (a game
    whose every later move is legal now, e.g. plays from a hand, is given another hand)."""
    bot = make_bot(default_agent(t.game), 3, t.game)
    starts = [t.state.copy()]
    if getattr(t.game, "determinise", None) is not None:
        other = next(p for p in range(len(t.seats)) if p != mover)
        starts += [t.game.determinise(t.state, other, random.Random(k)) for k in range(20)]
    for later in starts:
        for _ in range(40):
            if later.is_terminal():
                break
            a = bot.act(later.copy())
            if later.current_player() == mover and t.state.why_not(a) is not None:
                return a
            later.apply_action(a)
            while later.is_chance_node():
                later.apply_chance(later.chance_outcomes()[0][0])
    raise AssertionError(f"no action of P{mover + 1} that the rules refuse now")


def with_secrets(state) -> bool:
    return sum(bool(secrets(state, p)) for p in range(state.players)) >= 2


@pytest.mark.parametrize("name", game_names())
def test_the_teacher_creates_a_table_of_each_game_with_its_options(name):
    c, t = created(name)
    want = CREATE.get(name, other_settings(name))
    assert t.game.name == name and t.config["players"] == want["players"] and t.config["seed"] == want["seed"]
    assert [s.agent for s in t.seats] == [None, default_agent(name)] + [None] * (want["players"] - 2)
    config = {"haunted": lambda: (t.state.config.mode, t.state.config.extra_ghost_cards),
              "estate": lambda: (t.state.config.connection, t.state.config.third_marked),
              "landmarks": lambda: (t.state.rounds, t.state.modules["castle_grounds"])}
    if name in CREATE:  # the options the request gave, read back from each kit game's state
        assert config[name]() == {"haunted": ("wanderer", (2,)), "estate": ("line", "exchange_wood"),
                                  "landmarks": (2, True)}[name]
    games = {g["name"]: g for g in c.teacher_message()["games"]}
    assert set(games) == set(game_names())
    views = game_module(name, "classroom")
    assert games[name]["players"] == [get_game(name).min_players, get_game(name).max_players]
    assert games[name]["title"] == get_game(name).title
    # the game's own form, else the fields of its declared options; a field citing a kit ruling carries its words
    fields = views.FORM if views is not None else option_fields(get_game(name))
    assert [{k: v for k, v in f.items() if k != "rulings"} for f in games[name]["fields"]] == fields
    for f, sent in zip(fields, games[name]["fields"]):
        cited = cited_rulings(f.get("help", ""))
        assert [rid for rid, _, _ in cited] == [rid for rid, _, _ in cited_rulings(sent.get("rulings", ""))]
        assert all(escape(reading) in sent["rulings"] for _, _, reading in cited)
    if views is not None:
        assert games[name]["players"] == list(views.PLAYERS)


@pytest.mark.parametrize("name", game_names())
def test_decisions_from_seat_pages_are_applied_or_refused_with_the_reason(name):
    c, t = created(name)
    mover = t.state.current_player()
    other = next(p for p in range(len(t.seats)) if p != mover and t.seats[p].agent is None)  # a human not to move
    pages = {p: Connection(FakeSocket(), t.id, p, "seat") for p in range(len(t.seats))}
    c.connections.update(pages.values())
    act = page_actions(c, pages)

    assert act(other, seq=0, i=0) == {"type": "refused", "text": f"Not allowed: it is P{mover + 1}'s decision, not "
                                                                  f"P{other + 1}'s."}
    # an action the rules refuse now (one a later position allows), sent in its JSON form
    a = refused_now(t, mover)
    reason = t.state.why_not(a)
    assert reason is not None
    assert act(mover, seq=0, action=t.game.action_to_dict(a)) == {"type": "refused", "text": f"Not allowed: {reason.text}."}
    assert t.seq == 0
    first = t.state.legal_actions()[0]
    view = act(mover, seq=0, i=0)
    assert view["type"] == "view" and view["seq"] == 1 and t.applied[-1][2] == first
    assert all(pages[p].socket.sent[-1]["seq"] == 1 for p in pages)
    now = t.state.current_player()   # the seat to move now, clicking on the page of the old position
    if t.seats[now].agent is not None:  # a bot's seat: its page's clicks are refused whatever they show
        assert act(now, seq=0, i=0)["text"] == "A bot plays this seat now; ask the teacher to give it back."
    else:
        assert act(now, seq=0, i=0)["text"].startswith("Not allowed: the table moved on since your page showed it")
    assert t.seq == 1


@pytest.mark.parametrize("name", [n for n in game_names() if game_module(n, "classroom") is not None])
def test_every_games_pages_have_a_help_panel_explaining_the_phase(name):
    """The phase sentence is the game's ``classroom.phase_sentence``: games with that module."""
    _c, t = created(name)
    play_until(t, lambda s: s.current_player() == 0 and len(t.applied) >= 3)
    s = t.state
    phase = game_module(name, "classroom").phase_sentence(s)
    now = f"<p><b>Now:</b> {escape(phase)}</p>"
    mover, waiting, public = (view_message(t, v, 30)["help"] for v in (0, 1, PUBLIC))
    assert mover.startswith(now + "<p>It is your decision: ") and mover.count("<p>") == 3, mover
    assert waiting.startswith(now + "<p>Wait for the player to move; the board updates by itself.</p>"), waiting
    assert public.startswith(now + "<p>Wait for the player to move") and public == waiting
    hot = view_message(t, PUBLIC, 30, hot_seat=True, revealed=True)["help"]   # the hot seat: the mover acts there
    assert hot == mover


def test_the_help_panel_says_what_a_page_can_do_now():
    class Over:
        def is_terminal(self):
            return True

    class Playing(Over):
        def is_terminal(self):
            return False

    kw = {"act": "Click a cell.", "end": "See the ranking & scores.", "notes": "<p>Cells: <b>q,r</b>.</p>"}
    assert help_html(Playing(), "Turns <now>", 2, **kw) == ("<p><b>Now:</b> Turns &lt;now&gt;</p><p>Click a cell.</p>"
                                                            "<p>Cells: <b>q,r</b>.</p>")
    assert help_html(Playing(), "Turns", None, **kw) == ("<p><b>Now:</b> Turns</p><p>Wait for the player to move; the "
                                                         "board updates by itself.</p><p>Cells: <b>q,r</b>.</p>")
    assert help_html(Over(), "Game over.", None, **kw) == ("<p><b>Now:</b> Game over.</p><p>See the ranking &amp; "
                                                           "scores.</p><p>Cells: <b>q,r</b>.</p>")


@pytest.mark.parametrize("name", [n for n in game_names() if n in SECRET_HELPERS])
def test_each_seat_sees_its_own_hidden_cards_and_the_projector_none(name):
    _c, t = created(name)
    play_until(t, with_secrets if name != "estate" else lambda s: True)
    s = t.state
    pages = {p: json.dumps(view_message(t, p, 30)) for p in range(s.players)}
    public = json.dumps(view_message(t, PUBLIC, 30))
    if name == "estate":  # nothing of an estate is hidden: every seat and the projector see the same boards
        boards = [view_message(t, p, 30)["players"] for p in (*range(s.players), PUBLIC)]
        assert all(b == boards[0] for b in boards) and "holds: " in boards[0][0]
        return
    for p in range(s.players):
        mine = secrets(s, p)
        for text in mine:
            assert text in pages[p], (p, text)
            assert text not in public, (p, text)
            for q in range(s.players):
                if q != p:
                    assert text not in pages[q], (p, q, text)
    assert "face down" in public


@pytest.mark.parametrize("name", [n for n in game_names() if n in SECRET_HELPERS])
def test_the_hot_seat_shows_the_movers_hidden_cards_only_once_revealed(name):
    _c, t = created(name)
    bots = {1: default_agent(name)}

    def choice_names_cards(s):
        p = s.current_player()
        return p not in (None, 1) and bool(secrets(s, p)) and any(names_hidden(name, a) for a in s.legal_actions())

    if name != "estate":
        play_until(t, choice_names_cards)
    s = t.state
    mover = s.current_player()
    covered = view_message(t, PUBLIC, 30, hot_seat=True, bots=bots)
    shown = view_message(t, PUBLIC, 30, hot_seat=True, revealed=True, bots=bots)
    legal = s.legal_actions()
    assert shown["acting"] == mover and shown["revealed"] and not shown["needs_reveal"]
    assert [a["i"] for a in shown["actions"]] == list(range(len(legal)))
    if name == "estate":  # no estate choice names a hidden card: the covered screen offers them all
        assert not covered["needs_reveal"] and covered["actions"] == shown["actions"]
        return
    assert covered["needs_reveal"] and not covered["revealed"]
    assert all(not names_hidden(name, legal[a["i"]]) for a in covered["actions"])   # e.g. decline stays a button
    hidden = json.dumps(covered)
    assert all(text not in hidden for p in range(s.players) for text in secrets(s, p))
    revealed = json.dumps(shown)
    assert secrets(s, mover) and all(text in revealed for text in secrets(s, mover))
    assert all(text not in revealed for p in range(s.players) if p != mover for text in secrets(s, p))


@pytest.mark.parametrize("name", game_names())
def test_an_exported_table_is_a_save_that_replay_reads(name, tmp_path, capsys):
    _c, t = created(name)
    play_until(t, lambda s: s.is_terminal() or len(t.applied) >= 12)
    path = t.export(tmp_path / f"{name}.json")
    download = tmp_path / f"{name}-download.json"   # what the teacher page's "save file" link sends
    download.write_text(json.dumps(t.state.to_dict()))
    assert main(["replay", str(download)]) == 0
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    first = {"haunted": "Haunted Lands: 4 players, wanderer mode, ghost cards 1, 2, seed 11",
             "estate": "Estate and Market", "landmarks": "Landmarks & Architects, 3 players, 2 turns"
             }.get(name, get_game(name).title)  # any other game: its title
    assert first in out
    again = get_game(name).load(path) if hasattr(get_game(name), "load") else None
    if again is not None:
        assert [e.action for e in again.history()] == [e.action for e in t.state.history()]


@pytest.mark.parametrize("name", game_names())
def test_a_rollback_takes_every_page_of_the_table_back(name):
    c, t = created(name)
    play_until(t, lambda s: len(t.applied) >= 6)
    before = t.state.copy()
    first = [entry for entry in t.state.history() if not entry.chance][:2]
    page = Connection(FakeSocket(), t.id, 0, "seat")
    c.connections.add(page)
    now = len(t.applied)
    assert run(lambda: c.teacher_op({"op": "rollback", "table": t.id, "to": 2})) == {
        "ok": f"Table {t.id}: The teacher took the game back to decision 2: decisions 3 to {now} are set aside "
              "(the teacher can bring them back)."}
    assert [e.action for e in t.state.history() if not e.chance] == [e.action for e in first]
    assert page.socket.sent[-1]["type"] == "view" and page.socket.sent[-1]["seq"] == t.seq
    assert len(before.history()) > len(t.state.history())


def test_status_lines_say_where_the_game_stands():
    _c, t = created("landmarks")
    views = game_module("landmarks", "classroom")
    assert views.status(t.state) == "Turn 1 of 2, lead: P1 to move."
    assert view_message(t, 0, 30)["status"] == "Turn 1 of 2, lead: P1 (you) to move."
    t.decide(0, next(a for a in t.state.legal_actions() if a.describe() == "lead harvest"))
    assert views.status(t.state) == "Turn 1 of 2, follow, harvest led by P1: P2 to move."
    play_until(t, lambda s: s.is_terminal())
    points = LR.totals(t.state)
    assert views.status(t.state) == "Game over: module points " + ", ".join(
        f"P{p + 1} {points[p]}" for p in range(3)) + "."
    _c, e = created("estate")
    estate = game_module("estate", "classroom")
    assert estate.status(e.state) == "Season 1 of 3, turns: P1 to move."
    play_until(e, lambda s: s.is_terminal())
    values = ", ".join(f"P{p + 1} {e.state.gold_value(p)}" for p in range(3))
    assert estate.status(e.state) == f"Game over after season 3: gold values {values} (a kit measure, not a rule)."
    assert "hk-ranking" in view_message(e, PUBLIC, 30)["ranking"]


@pytest.mark.parametrize("msg, error", [
    ({"game": "chess"}, f"Game (game) must be one of {', '.join(game_names())}, got 'chess'."),
    ({"game": "estate", "players": 5}, "Players (players) must be a whole number from 2 to 4, got 5."),
    ({"game": "landmarks", "players": 1}, "Players (players) must be a whole number from 2 to 5, got 1."),
    ({"game": "landmarks", "players": 3, "bots": [4]},  # read against the table's own players, not the game's most
     "Bot seats (bots) must be at most 20 whole numbers from 1 to 3, separated by commas, got [4]."),
    ({"game": "estate", "seed": 2 ** 64}, "Seed (seed) must be a whole number from -9223372036854775808 to "
                                          "9223372036854775807, got 18446744073709551616."),
    ({"game": "estate", "players": float("inf")}, "Players (players) must be a whole number from 2 to 4, got inf."),
    ({"game": "haunted", "mode": "citizen"}, "A new table has no field 'mode' (its fields: game, players, seed, box, "
                                             "bots, options; a game's own settings go in options)."),
    ({"game": "haunted", "options": {"mode": "nightmare"}}, "Mode (mode) must be one of wanderer, builder, citizen, "
                                                           "got 'nightmare'."),
    ({"game": "haunted", "options": {"ghost_cards": "2,x"}}, "Extra ghost cards (ghost_cards) must be at most 20 whole "
                                                            "numbers from 1 to 3, separated by commas, got '2,x'."),
    ({"game": "estate", "options": {"marble_field": "double"}}, "Marble field (marble_field) must be one of shared, "
                                                               "single, got 'double'."),
    ({"game": "estate", "options": {"third_marked": "steal"}}, "Third marked Market action (third_marked) must be one of "
                                                              "none, sell_marble, sell_glass, sell_wood_or_limestone, "
                                                              "exchange_marble_or_glass, exchange_resources, "
                                                              "exchange_wood, hire_two, hire_one_and_take, got 'steal'."),
    ({"game": "landmarks", "options": {"rounds": 0}}, "Turns (rounds) must be a whole number from 1 to 1000, got 0."),
    ({"game": "landmarks", "options": {"architects": "maybe"}}, "Architects module (architects) must be yes or no, "
                                                               "got 'maybe'."),
    ({"game": "landmarks", "options": {"colour": "red"}}, "Landmarks & Architects has no setting 'colour' (its settings: "
                                                         "rounds, landmarks, architects, castle_grounds)."),
    ({"game": "landmarks", "options": [1]}, "The settings of Landmarks & Architects must be named values (field: value), "
                                            "got list."),
])
def test_bad_form_values_are_refused_with_a_sentence_naming_the_field(msg, error):
    store = GameStore(":memory:")
    c = Classroom(store, bot_delay=0)
    assert run(lambda: c.teacher_op({"op": "create", **msg})) == {"error": error}
    assert store.table_ids() == []   # nothing made


def test_the_teacher_message_lists_every_game_with_its_form():
    games = {g["name"]: g for g in classroom_games()}
    assert [f["name"] for f in games["haunted"]["fields"]] == ["mode", "ghost_cards"]
    assert [f["name"] for f in games["estate"]["fields"]] == ["connection", "marble_field", "improvement", "third_marked"]
    assert [f["name"] for f in games["landmarks"]["fields"]] == ["rounds", "landmarks", "architects", "castle_grounds"]
    assert games["landmarks"]["players"] == [2, 5] and games["estate"]["players"] == [2, 4]
    for g in games.values():
        for f in g["fields"]:
            assert f["kind"] in ("choice", "int", "ints", "bool") and f["label"] and f["help"]
            assert f["kind"] != "choice" or f["default"] in f["choices"]


def test_the_estates_third_marked_market_action_is_offered_by_its_rows_words():
    """The new-table form's "Third marked Market action" (ruling E11) lists each Market row
    by its text in the reference box (data/estate/market.toml), not its key, and the
    teacher's settings line writes the chosen row the same way."""
    from haunted_kit.estate.box import default_estate_box
    from haunted_kit.explain import settings_sentence
    from haunted_kit.tableview import choice_label

    third = next(f for f in next(g for g in classroom_games() if g["name"] == "estate")["fields"]
                 if f["name"] == "third_marked")
    market = default_estate_box().market
    assert [choice_label(third, c) for c in third["choices"]] == ["none", *(row.text for row in market.values())]
    assert choice_label(third, "sell_marble") == "Sell 1 marble"
    said = settings_sentence(get_game("estate"), {"third_marked": "sell_marble"}, game_module("estate", "classroom").FORM)
    assert said == "Third marked Market action: Sell 1 marble."
