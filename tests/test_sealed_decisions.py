"""Another seat's decision is told to a viewer by the events it made as that viewer may see
them, never by the action's own words (haunted_kit.visibility.decision_words): a bot's sealed
bid or face-down card is not named to the human who decides after it.

The kind, over every registered game and the toy Secret Bid of tests/fourth_game (a bid is
its bidder's until every seat has bid): in the notebook play views (the kit's GamePlayView,
each game's own ``play_view`` hook, the tutorial's), the server's generic page and each
game's own table page, and the review's decision texts of a game stopped mid-round. A bot
decision is *hidden* when one of the events it made reads otherwise to the viewer than it
happened; its words (``describe``) must then not be shown, unless the viewer reads them in
what they may see anyway (a reveal)."""

from __future__ import annotations

from pathlib import Path

import pytest

from haunted_kit import games
from haunted_kit.bots import seat_bot
from haunted_kit.games import MissingHook, game_module, game_names, get_game
from haunted_kit.protocol import describe_action, sample_chance
from haunted_kit.review import review
from haunted_kit.tableview import generic_table_view
from haunted_kit.visibility import PUBLIC, decision_words, seen_events
from haunted_kit.widgets.playview import GamePlayView, game_seed
from haunted_kit.widgets.tutorial import TutorialView

FOURTH = Path(__file__).resolve().parent / "fourth_game"
GAMES = [*game_names(), "bid"]
#: bot decisions watched per game (Haunted Lands' rounds are long; enough to meet hidden ones)
WATCHED = 40


@pytest.fixture
def game(request, monkeypatch):
    name = request.param
    if name == "bid" and name not in games.REGISTRY:
        monkeypatch.syspath_prepend(str(FOURTH))
        monkeypatch.setitem(games.REGISTRY, "bid", ("bid.engine", "GAME"))  # the toy's one registry line
    return get_game(name)


def _hidden(game, state, since: int, viewer) -> bool:
    """Whether an event of ``state.log[since:]`` reads otherwise to ``viewer`` than it happened."""
    made = (getattr(state, "log", None) or [])[since:]
    return any(a.text != b.text for a, b in zip(made, seen_events(game, made, viewer)))


def _seen_text(game, state, since: int, viewer) -> str:
    return " ".join(e.text for e in seen_events(game, (getattr(state, "log", None) or [])[since:], viewer))


class _Watched:
    """A bot seat that notes each decision and the log length before it."""

    def __init__(self, agent, notes, seat):
        self.agent, self.notes, self.seat = agent, notes, seat

    def act(self, state):
        action = self.agent.act(state)
        self.notes.append((self.seat, action, describe_action(action, state), len(getattr(state, "log", None) or [])))
        return action


def _watch(game, view, human: int):
    """Play ``view`` (bots on every seat but ``human``) for up to :data:`WATCHED` bot
    decisions; returns the problems: a hidden bot decision whose words the view said."""
    notes, problems, said = [], [], []
    view.bots = {p: _Watched(a, notes, p) for p, a in view.bots.items()}
    say = view.say
    view.say = lambda text, kind="info": (said.append(text), say(text, kind))[1]
    steps = 0
    while len(notes) < WATCHED and not view.state.is_terminal() and steps < 200:
        steps += 1
        seen = len(notes)
        if view.state.current_player() == human:
            view.attempt(view.state.legal_actions()[-1])
        else:
            view.play_on()
        for seat, action, words, since in notes[seen:]:
            if not _hidden(game, view.state, since, human):
                continue
            view.hidden_met = getattr(view, "hidden_met", 0) + 1
            for text in said:
                if f"P{seat + 1} (bot):" not in text:
                    continue
                text = text[text.find(f"P{seat + 1} (bot):"):]  # the bot's part (the human's own words come first)
                if words in text and words not in _seen_text(game, view.state, since, human):
                    problems.append(f"P{seat + 1}'s hidden decision shown as {words!r}: {text!r}")
        said.clear()
    return problems, notes


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_a_play_view_never_words_a_bots_hidden_decision_to_the_human(game):
    state = games.start_game(game, players=games.default_players(game), seed=4, log=True)
    last = state.players - 1  # the kit's view: the others decide before the human, a leak would be read
    views = [(GamePlayView(game, state.copy(), bots=list(range(last)), hints=False, auto_bots=False), last)]
    own = getattr(game_module(game.name, "widgets"), "play_view", None) if _has_widgets(game) else None
    if own is not None:  # the game's own view (its bots play at once when they begin): the human at P1
        views.append((own(state.copy(), bots=list(range(1, state.players)), hints=False), 0))
    for view, human in views:
        problems, notes = _watch(game, view, human)
        assert notes, f"{type(view).__name__}: no bot decided"
        assert problems == [], type(view).__name__
        if game.name == "bid":  # the sealed game: hidden decisions were met, and none was worded
            assert getattr(view, "hidden_met", 0) >= 3


def _has_widgets(game) -> bool:
    try:
        game_module(game.name, "widgets")
    except (ImportError, ValueError):
        return False
    return True


def test_the_toy_bid_shows_the_human_what_the_bot_did_as_the_human_may_see_it(monkeypatch):
    monkeypatch.syspath_prepend(str(FOURTH))
    monkeypatch.setitem(games.REGISTRY, "bid", ("bid.engine", "GAME"))
    game = get_game("bid")
    state = game.new_game(players=2, seed=3)
    view = GamePlayView(game, state, bots=[0], hints=False)
    bid = state.history()[-1].action.amount  # P1's bid, face down
    assert view.message == "P1 (bot): P1 bids face down." and view.last_words == "P1 bids face down"
    assert f"bid {bid}" not in view.message and f"bid {bid}" not in view.seen.value
    view.attempt(view.legal[1])  # P2 bids 1: the bids are turned up, as the log says to everyone
    assert view.message.startswith(f"P2: bid 1. P2 bids 1. P1's bid was {bid}. P2's bid was 1. Then P1 (bot): "
                                   "P1 bids face down.")
    assert f"P1&#x27;s bid was {bid}." in view.seen.value  # the reveal, in the view's log of what P2 sees
    assert "hidden" in view.seen.value  # the bid P1 just made, face down in P2's observation


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_the_tutorial_view_never_words_a_bots_hidden_decision(game, tmp_path):
    view = TutorialView(game, seed=2, resume=False, progress=tmp_path / "progress.json")
    problems, notes = _watch(game, view.view, 0)
    assert notes and problems == []


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_a_table_page_never_words_a_bots_hidden_decision(game):
    """The server's pages for a seat and a shared screen: the generic view and the game's own."""
    state = games.start_game(game, players=games.default_players(game), seed=5, log=True)
    own = None
    try:
        own = getattr(game_module(game.name, "classroom"), "table_view", None)
    except (ImportError, ValueError):
        pass
    agents = {p: seat_bot("random", game, 5, p) for p in range(state.players)}
    for _ in range(WATCHED):
        if state.is_terminal():
            break
        while state.is_chance_node() and not state.is_terminal():
            state.apply_chance(sample_chance(state, game_seed(state)))
        p = state.current_player()
        if p is None:
            break
        action = agents[p].act(state.copy())
        words, since = describe_action(action, state), len(getattr(state, "log", None) or [])
        state.apply_action(action)
        for viewer in [q for q in range(state.players) if q != p] + [PUBLIC]:
            if not _hidden(game, state, since, viewer) or words in _seen_text(game, state, since, viewer):
                continue
            pages = [generic_table_view(game, state, viewer)]
            if own is not None:
                pages.append(own(state, viewer, 500, hot_seat=False, revealed=False, bots=()))
            for page in pages:
                shown = " ".join(str(page.get(k, "")) for k in ("board", "log", "players", "game_board", "status"))
                assert words not in shown, f"P{p + 1}'s hidden {words!r} on P{viewer + 1}'s page"


@pytest.mark.parametrize("game", GAMES, indirect=True)
def test_a_review_of_a_game_stopped_mid_round_keeps_the_others_hidden_decisions(game):
    if getattr(game, "start_of", None) is None or getattr(game, "determinise", None) is None:
        with pytest.raises(MissingHook):
            review(games.start_game(game, players=games.default_players(game), seed=6, log=True), playouts=1, progress=False)
        return
    # three toy bidders: the fifth decision is P2's bid, still face down when the save stops
    state = games.start_game(game, players=3 if game.name == "bid" else games.default_players(game), seed=6, log=True)
    agents = {p: seat_bot("random", game, 6, p) for p in range(state.players)}
    hidden = []
    for _ in range(5):
        while state.is_chance_node() and not state.is_terminal():
            state.apply_chance(sample_chance(state, game_seed(state)))
        p = state.current_player()
        if p is None or state.is_terminal():
            break
        action = agents[p].act(state.copy())
        words, since = describe_action(action, state), len(getattr(state, "log", None) or [])
        state.apply_action(action)
        if p != 0 and _hidden(game, state, since, 0):
            hidden.append((p, words, _seen_text(game, state, since, 0)))
    rev = review(state, seat=0, playouts=1, progress=False, top=1, turning=1, candidates=1)
    others = [d for d in rev.decisions if d.player != 0]
    for p, words, seen in hidden:
        for d in others:
            assert words not in d.text or words in seen, f"review names P{p + 1}'s hidden {words!r}"
    if game.name == "bid":
        mine, theirs = rev.decisions[-2:]
        assert (mine.text, theirs.text) == (mine.action.describe(), "P2 bids face down")  # P1's own, P2's sealed
        assert "P1's bid was" in " ".join(rev.events[3])  # the first round's bids, turned up for everyone


def test_decision_words_to_the_actor_everyone_and_the_others(monkeypatch):
    monkeypatch.syspath_prepend(str(FOURTH))
    monkeypatch.setitem(games.REGISTRY, "bid", ("bid.engine", "GAME"))
    game = get_game("bid")
    s = game.new_game(players=3, seed=1)
    k = len(s.log)
    s.apply_action(s.legal_actions()[2])  # P1 bids 2
    assert decision_words(game, s, k, 0, 0, "bid 2") == "bid 2"  # the actor reads their own words
    assert decision_words(game, s, k, 0, None, "bid 2") == "bid 2"  # the omniscient view too
    assert decision_words(game, s, k, 0, 1, "bid 2") == "P1 bids face down"
    assert decision_words(game, s, k, 0, PUBLIC, "bid 2") == "P1 bids face down"
    assert decision_words(game, s, len(s.log), 0, 1, "bid 2") == "P1 decided"  # no event made: no words given away
