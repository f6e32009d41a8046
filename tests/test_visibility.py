"""Visibility declared once (issue 31, item 1): a game's ``visibility`` says who may see each
event kind and observation field; every kit tool redacts from it alone.

First the declaration itself (:mod:`haunted_kit.visibility`) on a made-up one; then two
hidden-information toys of ``tests/fourth_game``, each registered by one registry line and
writing no view of its own: Nim (a face-down bonus card, turned up at the end) and Secret
Bid (a bid face down each round, turned up when all have bid). For each, *twin* games
that one seat sees alike but where another seat holds another card or bid give that seat
and a watcher the same output from every kit tool (observation, ``events(viewer)``, the
environment, hints, ``move_events``, the review, the store's seat export, the server's
view message), and no tool states the other seat's hidden value, not even as a search's
guess. Last, every registered game (read from the registry, each of its player counts)
and the toys over seeded random games: the declaration covers what the game does, and
the tools show each viewer only what it declares.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from haunted_kit import games
from haunted_kit.env import KitAECEnv
from haunted_kit.events import Event
from haunted_kit.hexgrid import name_cells
from haunted_kit.games import game_names, get_game
from haunted_kit.review import review
from haunted_kit.search import hints, move_events
from haunted_kit.server import view_message
from haunted_kit.store import GameStore
from haunted_kit.testing import sampled_positions
from haunted_kit.visibility import (ACTOR, CHANCE, DROP, EVERYONE, HELD, NOBODY, OWNER, PUBLIC, Seen, Visibility,
                                    declaration_problems, seen_events, seen_observation, visibility_of)

FIXTURE = Path(__file__).resolve().parent / "fourth_game"


# ============================================================================ the declaration


def _event(kind, player, text, **data):
    return Event(3, 1, 2, "play", kind, player, text, (0, 1), data)


BID = Visibility(
    events={"bid": Seen(ACTOR, "{who} bids face down."), "gift": Seen(OWNER, "{who} passes a card on.", owner="to"),
            "shuffle": Seen(NOBODY, "The deck is shuffled."), "roll": Seen(EVERYONE, "{who} rolls the die.", guess=CHANCE),
            "show": Seen(EVERYONE, "{who} turns up a card.", guess=HELD), "pass": Seen()},
    fields={"hands.*": Seen(OWNER, len), "deck": Seen(NOBODY, len), "seed": Seen(NOBODY, DROP),
            "bid": Seen(OWNER, "hidden", owner="bidder"),
            "cards.*": Seen(OWNER, None, until=lambda o: o["over"])},
    log="log")


@pytest.mark.parametrize("make,message", [
    (lambda: Seen("someone"), "who must be one of"),
    (lambda: Seen(EVERYONE, guess="maybe"), "guess must be"),
    (lambda: Visibility(events={"bid": Seen(ACTOR)}), "event kind 'bid': what the others see instead must be a sentence"),
    (lambda: Visibility(events={"roll": Seen(guess=CHANCE)}), "event kind 'roll'"),
    (lambda: Visibility(events={"gift": Seen(OWNER, "x")}), "names the data key of its owner"),
    (lambda: Visibility(events={}, fields={"bid": Seen(ACTOR, 0)}), "a field has no acting player"),
    (lambda: Visibility(events={}, fields={"bid": Seen(OWNER, 0)}), "a per-seat entry"),
])
def test_a_declaration_that_cannot_work_is_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_events_by_who_may_see_them():
    bid = _event("bid", 1, "P2 bids 7.", amount=7)
    assert BID.event(bid, 1) is bid and BID.event(bid, None) is bid
    for viewer in (0, 2, PUBLIC):
        seen = BID.event(bid, viewer)
        assert (seen.text, seen.data, seen.cell, seen.private) == ("P2 bids face down.", {}, None, True)
        assert (seen.seq, seen.kind, seen.player, seen.season, seen.round) == (3, "bid", 1, 1, 2)
    gift = _event("gift", 1, "P2 gives P1 the Crypt.", to=0)  # seen by its owner (P1), not by the giver
    assert BID.event(gift, 0) is gift and BID.event(gift, 1).text == "P2 passes a card on."
    shuffle = _event("shuffle", None, "The deck is shuffled: Crypt, Moat.")
    assert [BID.event(shuffle, v).text for v in (0, 1, PUBLIC)] == ["The deck is shuffled."] * 3
    assert BID.event(shuffle, None) is shuffle
    forgot = _event("oops", 0, "P1 draws the Moat.")  # a kind the game forgot: its player's only, never a leak
    assert BID.event(forgot, 0) is forgot and "Moat" not in BID.event(forgot, 1).text


def test_a_guessed_position_states_no_chance_outcome_and_no_other_seats_card():
    roll, show, move = _event("roll", 0, "P1 rolls a 6."), _event("show", 1, "P2 turns up the Moat."), _event("pass", 1, "P2 passes.")
    assert BID.event(roll, 1) is roll and BID.event(show, 0) is show  # in the real game everyone sees them
    assert [BID.event(roll, v, guessed=True).text for v in (0, 1)] == ["P1 rolls the die."] * 2
    assert BID.event(show, 1, guessed=True) is show  # P2's own card is no guess for P2
    assert BID.event(show, 0, guessed=True).text == "P2 turns up a card."
    assert BID.event(move, 0, guessed=True) is move


def test_an_observation_by_who_may_see_it():
    def full():
        return {"hands": [["moat", "crypt"], ["inn"]], "deck": ["a", "b", "c"], "seed": 9, "bid": 4, "bidder": 1,
                "cards": ["x", "y"], "over": False, "log": [_event("bid", 1, "P2 bids 4.", amount=4).to_dict()]}
    assert BID.observation(full(), None) == full()
    p1 = BID.observation(full(), 0)
    assert p1 == {"hands": [["moat", "crypt"], 1], "deck": 3, "bid": "hidden", "bidder": 1, "cards": ["x", None],
                  "over": False, "log": [{**full()["log"][0], "text": "P2 bids face down.", "cell": None, "data": {},
                                          "private": True}]}
    p2 = BID.observation(full(), 1)
    assert (p2["hands"], p2["bid"], p2["cards"], p2["log"]) == ([2, ["inn"]], 4, [None, "y"], full()["log"])
    watcher = BID.observation(full(), PUBLIC)
    assert (watcher["hands"], watcher["bid"], watcher["cards"], "seed" in watcher) == ([2, 1], "hidden", [None, None], False)
    assert BID.observation({**full(), "over": True}, PUBLIC)["cards"] == ["x", "y"]  # turned up at the end
    assert BID.hidden_paths(full()) == [] and BID.hidden_paths({"hand": []}) == ["hands.*", "deck", "seed", "bid", "cards.*"]


# ============================================================================ hidden-information toys


#: the toys of tests/fourth_game, each registered by one registry line
TOYS = {"nim": ("nim.engine", "GAME"), "bid": ("bid.engine", "GAME")}


def _register(monkeypatch, name: str):
    if name in TOYS:
        monkeypatch.syspath_prepend(str(FIXTURE))
        monkeypatch.setitem(games.REGISTRY, name, TOYS[name])  # the one registry line
    return get_game(name)


@pytest.fixture
def nim(monkeypatch):
    return _register(monkeypatch, "nim")


@pytest.fixture
def bid(monkeypatch):
    return _register(monkeypatch, "bid")


def _take(heap, count):
    return {"type": "take", "heap": heap, "count": count}


def _bid(n):
    return {"type": "bid", "amount": n}


def _nim_twin_seeds(nim) -> tuple[int, int]:
    """Two seeds dealing P1 the same bonus card and P2 different ones."""
    by_mine: dict = {}
    for seed in range(100):
        s = nim.new_game(players=2, seed=seed)
        by_mine.setdefault(s.bonus[0], {}).setdefault(s.bonus[1], seed)
    return next(tuple(list(theirs.values())[:2]) for theirs in by_mine.values() if len(theirs) >= 2)


def _twins(name: str, game) -> dict:
    """Two games ``viewer`` sees alike: ``players``, ``viewer``, ``a`` and ``b`` as (seed,
    decisions) and a ``probe`` decision of ``viewer``'s that turns the hidden values up.

    Nim, 2 players: P1 and P2 take from [3, 4, 5] down to [0, 0, 2] (P1 takes the last 2
    and wins, turning the unplayed cards up); the twins deal P2 another bonus card.
    Secret Bid, 3 players: round 1 bids 1, 2, 3 (P3 pays 3 for the prize); round 2 P1 bids 0
    or 4, P2 2; P3's bid turns them up."""
    if name == "nim":
        line = [_take(0, 3), _take(1, 3), _take(2, 3), _take(1, 1)]
        a, b = _nim_twin_seeds(game)
        return {"players": 2, "viewer": 0, "a": (a, line), "b": (b, line), "probe": _take(2, 2)}
    return {"players": 3, "viewer": 2, "a": (4, [_bid(1), _bid(2), _bid(3), _bid(0), _bid(2)]),
            "b": (4, [_bid(1), _bid(2), _bid(3), _bid(4), _bid(2)]), "probe": _bid(1)}


def _played(game, players, twin):
    seed, moves = twin
    s = game.new_game(players=players, seed=seed)
    for m in moves:
        s.apply_action(game.action_from_dict(m))
    return s


@pytest.mark.parametrize("name", TOYS)
def test_the_twins_differ_only_in_what_the_viewer_may_not_see(name, monkeypatch):
    game = _register(monkeypatch, name)
    tw = _twins(name, game)
    a, b = (_played(game, tw["players"], tw[k]) for k in "ab")
    assert a.current_player() == b.current_player() == tw["viewer"]
    assert a.observation(None) != b.observation(None) and not a.events(None).equals(b.events(None))
    assert declaration_problems(game, a) == [] and declaration_problems(game, b) == []
    for viewer in (tw["viewer"], PUBLIC):
        assert seen_observation(game, a, viewer) == seen_observation(game, b, viewer)
        assert a.events(viewer).equals(b.events(viewer))


@pytest.mark.parametrize("name", TOYS)
def test_the_generic_view_shows_a_shared_screen_the_declared_public_observation(name, monkeypatch):
    """A game without a classroom module on a projector: its observation for PUBLIC, with
    what the declaration says the others see instead (not a blanket "(hidden)"), and its
    declared log as the sentences a watcher may read."""
    from html import escape

    from haunted_kit.tableview import HIDDEN, generic_table_view, observation_html

    game = _register(monkeypatch, name)
    tw = _twins(name, game)
    s = _played(game, tw["players"], tw["a"])
    view = generic_table_view(game, s, PUBLIC)
    seen, key = s.observation(PUBLIC), game.visibility.log
    assert observation_html({k: v for k, v in seen.items() if k != key}) in view["board"]
    assert HIDDEN not in view["board"] and "hidden" in view["board"]
    if key is not None:
        texts = s.events(PUBLIC).text.tolist()
        assert texts and all(escape(t) in view["log"] for t in texts[-12:]) and "face down" in view["log"]
        assert escape(texts[-1]) not in view["board"]


def test_what_each_toy_tells_its_seats(nim, bid):
    s = _played(nim, 2, _twins("nim", nim)["a"])
    assert s.events(0).text.tolist()[:2] == [f"P1 is dealt a bonus card of {s.bonus[0]}.", "P2 is dealt a bonus card face down."]
    assert s.observation(0)["bonus"] == [s.bonus[0], "hidden"] and s.observation(1)["bonus"] == ["hidden", s.bonus[1]]
    s = _played(bid, 3, _twins("bid", bid)["b"])
    assert s.events(2).text.tolist()[-3:] == [f"Round 2: the prize is the {s.prize}.", "P1 bids face down.", "P2 bids face down."]
    assert s.events(0).text.tolist()[-2:] == ["P1 bids 4.", "P2 bids face down."]
    assert s.observation(2)["bids"] == ["hidden", "hidden", None] and "seed" not in s.observation(2)
    assert s.observation(0)["bids"] == [4, "hidden", None] and s.observation(None)["seed"] == 4


@pytest.mark.parametrize("name", TOYS)
def test_the_environment_shows_the_viewer_the_same_for_twins(name, monkeypatch):
    game = _register(monkeypatch, name)
    if getattr(game, "observation_encoder", None) is None:
        pytest.skip(f"{name} has no environment")
    tw, seen = _twins(name, game), []
    for k in "ab":
        seed, moves = tw[k]
        env = KitAECEnv(name, players=tw["players"])
        env.reset(seed=seed)
        for m in moves:
            env.step(env.catalogue.encode(env.state_, game.action_from_dict(m)))
        s = env.state_
        seen.append(env.observe(f"player_{tw['viewer']}")["observation"].tolist())
        assert seen[-1] == env.encode(seen_observation(game, s, tw["viewer"]), tw["viewer"], s.current_player()).tolist()
    assert seen[0] == seen[1]


#: what the probe's events tell its player in a guessed position: never another seat's card or bid
TOLD = {"nim": lambda s: ("P1 takes 2 from heap 3.", "P1 took the last stone and wins.",
                          f"P1's unplayed bonus card was {s.bonus[0]}.", "P2's unplayed bonus card is turned up."),
        "bid": lambda s: ("P3 bids 1.", "P1's bid is turned up.", "P2's bid is turned up.", "P3's bid was 1.",
                          "The bids are compared and the prize is settled.", "A prize card is drawn.")}


@pytest.mark.parametrize("name", TOYS)
def test_hints_and_move_events_state_no_sampled_value(name, monkeypatch):
    game = _register(monkeypatch, name)
    tw = _twins(name, game)
    a, b = (_played(game, tw["players"], tw[k]) for k in "ab")
    assert [h.sentence for h in hints(a, playouts=30, seed=2)] == [h.sentence for h in hints(b, playouts=30, seed=2)]
    probe = game.action_from_dict(tw["probe"])
    for s in (a, b):
        told = {tuple(e.text for e in move_events(game, s, tw["viewer"], probe, random.Random(k))[0]) for k in range(6)}
        assert told == {TOLD[name](a)}
    real = a.copy()
    real.apply_action(probe)  # in the real game the hidden values are turned up for everyone
    new = real.events(tw["viewer"]).text.tolist()[len(a.log):]
    assert new == real.events(None).text.tolist()[len(a.log):] and len(new) == len(TOLD[name](a))
    assert new != list(TOLD[name](a))


@pytest.mark.parametrize("name", TOYS)
def test_the_review_of_the_viewer_is_the_same_for_twins(name, monkeypatch):
    game = _register(monkeypatch, name)
    tw = _twins(name, game)
    reviews = [review(_played(game, tw["players"], tw[k]), seat=tw["viewer"], playouts=12, seed=3, progress=False)
               for k in "ab"]
    a, b = reviews
    assert [c.sentence() for c in a.costly] == [c.sentence() for c in b.costly]
    assert a.events == b.events
    mine = lambda r: [t.sentence() for t in r.turning_points if t.player == tw["viewer"]]  # noqa: E731
    assert mine(a) == mine(b)
    said = json.dumps([a.events, [c.sentence() for c in a.costly]])
    assert "face down" in said or name == "nim"  # the hidden bid is there, as the viewer may see it
    assert "P1 bids 0" not in said and "P1 bids 4" not in said


@pytest.mark.parametrize("name", TOYS)
def test_the_store_and_the_server_show_the_viewer_and_a_watcher_the_same_for_twins(name, monkeypatch, tmp_path):
    game = _register(monkeypatch, name)
    tw, seen = _twins(name, game), {}
    with GameStore(tmp_path / "c.db") as store:
        for k in "ab":
            seed, moves = tw[k]
            t = store.create_table(game=name, players=tw["players"], seed=seed)
            for m in moves:
                t.decide(t.state.current_player(), m)
            for viewer in (tw["viewer"], PUBLIC):
                export = json.loads(t.export(tmp_path / f"{k}-{viewer}.json", viewer=viewer).read_text())
                assert export.pop("table") == t.id and export["format"] == "haunted-kit-seat-view"
                msg = view_message(t, viewer, 30)
                msg.pop("table")
                msg["title"] = msg["title"].replace(t.name, "the table")   # the twins sit at two tables
                seen.setdefault(viewer, []).append((export, json.dumps(msg, sort_keys=True)))
            last = tw["players"] - 1
            with pytest.raises(ValueError, match=rf"viewer must be a seat 0..{last} or -1 \(a watcher\), got {last + 1}"):
                t.export(tmp_path / "x.json", viewer=last + 1)
    for viewer, (a, b) in seen.items():
        assert a == b, f"viewer {viewer}"


def test_the_search_copy_keeps_no_hidden_sentence(nim, bid, monkeypatch):
    """A determinisation keeps no log (docs/NEW_GAME.md); a game's copy that keeps one
    anyway gets it as the searching player may see it."""
    from haunted_kit.search import determinise
    s = _played(nim, 2, _twins("nim", nim)["a"])
    assert determinise(nim, s, 0, random.Random(1)).log is None  # the toys keep the rule
    monkeypatch.setattr(nim, "determinise", lambda state, player, rng: state.copy())  # a copy keeping the log
    d = determinise(nim, s, 0, random.Random(1))
    assert [e.text for e in d.log][:2] == [f"P1 is dealt a bonus card of {s.bonus[0]}.", "P2 is dealt a bonus card face down."]
    s = _played(bid, 3, _twins("bid", bid)["a"])
    monkeypatch.setattr(bid, "determinise", lambda state, player, rng: state.copy())
    assert [e.text for e in determinise(bid, s, 2, random.Random(1)).log][-2:] == ["P1 bids face down.", "P2 bids face down."]


# ============================================================================ every registered game, and the toys


def _some(positions, k=6):
    step = max(1, len(positions) // k)
    return positions[::step][:k] + positions[-1:]


def _counts(game):
    return range(game.min_players, game.max_players + 1)


GAMES = [*game_names(), *TOYS]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_what_it_hides_and_its_logs_follow_it(name, monkeypatch):
    game = _register(monkeypatch, name)
    vis = visibility_of(game)
    for players in _counts(game):
        for s in _some(sampled_positions(game, {"players": players}, seed=players, every=31)):
            assert declaration_problems(game, s) == [], s
            log = getattr(s, "log", None) or []
            for viewer in range(players):
                want = [vis.event(e, viewer).text for e in log] if vis is not None else [e.text for e in log]
                # the table writes cells as the boards do (hexgrid.name_cells); the log keeps the engine's words
                assert s.events(viewer).text.tolist() == [name_cells(t) for t in want]
                hidden = {e.text for e in log} - set(want)
                assert not hidden & {d["text"] for d in seen_observation(game, s, viewer).get("log") or []}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_hints_and_reviews_state_no_guess(name, monkeypatch):
    """A move's events on a determinisation, as the kit's hints and review tell them, are
    the same whatever the determinisation drew: no sampled card, bid, die or draw is stated."""
    game = _register(monkeypatch, name)
    for players in _counts(game):
        rng = random.Random(players)
        for s in _some(sampled_positions(game, {"players": players}, seed=10 + players, every=37), 4):
            p = s.current_player()
            if p is None:
                continue
            legal = s.legal_actions()
            for a in rng.sample(legal, min(3, len(legal))):
                told = {tuple(e.text for e in move_events(game, s, p, a, random.Random(k))[0]) for k in range(4)}
                assert len(told) == 1, (name, a, told)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_at_the_table_shows_a_seat_and_a_watcher_only_what_they_may_see(name, monkeypatch, tmp_path):
    game = _register(monkeypatch, name)
    players = game.min_players
    rng = random.Random(5)
    with GameStore(tmp_path / "c.db") as store:
        t = store.create_table(game=name, players=players, seed=5)
        vis = visibility_of(game)
        hides = vis is not None and any(s.who != EVERYONE for s in vis.events.values())
        for _ in range(2000):  # until an event is hidden from P1 (when the game hides any) or the end
            log = getattr(t.state, "log", None) or []
            if t.state.is_terminal() or (hides and any(vis.hides_event(e.kind, e.player, e.data, 0) for e in log)):
                break
            legal = t.state.legal_actions()
            t.decide(t.state.current_player(), game.action_to_dict(rng.choice(legal)))
        assert not hides or any(vis.hides_event(e.kind, e.player, e.data, 0) for e in log)  # not vacuous
        for viewer in [*range(players), PUBLIC]:
            hidden = {e.text for e in log} - {e.text for e in seen_events(game, log, viewer)}
            text = json.dumps([view_message(t, viewer, 30), view_message(t, PUBLIC, 30, hot_seat=True)])
            export = t.export(tmp_path / f"v{viewer}.json", viewer=viewer).read_text()
            for sentence in hidden:
                assert json.dumps(sentence)[1:-1] not in text and json.dumps(sentence)[1:-1] not in export, (viewer, sentence)
            assert json.loads(export)["observation"] == json.loads(json.dumps(seen_observation(game, t.state, viewer)))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_environment_observes_what_the_declaration_shows(name, monkeypatch):
    game = _register(monkeypatch, name)
    if getattr(game, "observation_encoder", None) is None:
        pytest.skip(f"{name} has no environment")
    for players in _counts(game):
        env = KitAECEnv(name, players=players)
        env.reset(seed=players)
        rng = random.Random(players)
        for step in range(80):
            s = env.state_
            if s.is_terminal():
                break
            if step % 20 == 0:
                for p in range(players):
                    vec = env.observe(f"player_{p}")["observation"].tolist()
                    assert vec == env.encode(seen_observation(game, s, p), p, s.current_player()).tolist()
            mask = env.legal_mask(s.current_player())
            env.step(int(rng.choice(mask.nonzero()[0].tolist())))
