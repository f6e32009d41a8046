"""The same seed and the same bot specs play the same game through every entry point.

One seeded chance draw (:func:`haunted_kit.protocol.chance_hash`), one bot factory
(:func:`haunted_kit.bots.make_bot`), one seat-seeding rule (seat ``i`` of game ``seed``:
``seed * 100 + i``) and one play loop (:mod:`haunted_kit.play`) stand behind ``haunted-kit
play --save``, ``simulate``, the environment's opponents and the classroom's bot seats, so
each gives the same action record for a game. Seeds are signed: ``k`` and ``-k`` are
different games in every game.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random

import pytest

from haunted_kit import simulate as S
from haunted_kit.bots import default_agent, make_bot, seat_bot, seat_bots
from haunted_kit.cli import main
from haunted_kit.env import SingleSeatEnv
from haunted_kit.games import game_names, get_game, option_defaults, start_game
from haunted_kit.play import play_game, play_out, play_steps
from haunted_kit.protocol import chance_hash, chance_index, seat_seed, seeded_random
from fresh_loop import run_in_fresh_loop  # noqa: E402  (a browser test may leave a loop running)

SEED = 3
SPECS = ["greedy", "random"]


def specs(g) -> list[str]:
    """The lineup of the tests below: the game's default agent (greedy when it has one), random."""
    return [default_agent(g), "random"]


def _players(game) -> int:
    return max(game.min_players, min(3, game.max_players))


def _record(game, state) -> list:
    """The action record as plain JSON: (player, chance, the action's JSON form or the outcome)."""
    out = []
    for e in state.history():
        act = json.loads(json.dumps(e.action, default=str)) if e.chance else game.action_to_dict(e.action)
        out.append([e.player, e.chance, act])
    return out


def _reference(name: str, seed: int = SEED, log: bool = False, **options):
    g = get_game(name)
    state, names = play_game(g, players=_players(g), seed=seed, agents=specs(g), log=log, **options)
    return g, state, names


@pytest.mark.parametrize("name", game_names())
def test_play_save_replays_the_kit_loop(name, tmp_path, capsys):
    """``haunted-kit play --save`` writes the game the kit's play loop plays with the same seed and specs (and
    the game's declared option defaults, which the command line fills in)."""
    g, ref, names = _reference(name, **option_defaults(get_game(name)))
    save = tmp_path / "g.json"
    assert main(["play", "--game", name, "--players", str(_players(g)), "--seed", str(SEED),
                 "--agents", ",".join(specs(g)), "--save", str(save)]) == 0
    capsys.readouterr()
    saved = g.from_dict(json.loads(save.read_text()))
    assert saved.is_terminal() and ref.is_terminal()
    assert _record(g, saved) == _record(g, ref)
    assert names == [specs(g)[i % 2] for i in range(_players(g))]


@pytest.mark.parametrize("name", game_names())
def test_simulate_plays_the_same_game(name, tmp_path):
    """A one-game simulation of seed ``SEED`` logs the events of the reference game, and its
    per-seat returns and decision counts are the reference's."""
    g, ref, _ = _reference(name, log=True)
    n = _players(g)
    rows, events = S.play_one(name, (0, n, {}, ",".join(specs(g)), SEED), events=True)
    assert [e["text"] for e in events] == ref.events().text.tolist()
    assert [r["returns"] for r in rows] == [float(v) for v in ref.returns()]
    made = [sum(1 for e in ref.history() if not e.chance and e.player == p) for p in range(n)]
    assert [r["decisions"] for r in rows] == made and sum(made) > 0


@pytest.mark.parametrize("name", game_names())
def test_the_environments_opponents_play_the_same_game(name):
    """The learner's seat played by the seat's own seeded bot, the others by the environment's
    opponents (seated by the same rule): the reference game, step for step."""
    g, ref, _ = _reference(name)
    missing = [h for h in ("action_catalogue", "observation_encoder") if getattr(g, h, None) is None]
    if missing:
        pytest.skip(f"{name} has no {' or '.join(missing)}: the environment does not serve it (optional hooks)")
    n = _players(g)
    env = SingleSeatEnv(name, players=n, seat=0, opponents=[specs(g)[1]])
    if n > 2:  # the opponents' lineup repeats over the other seats; the reference's repeats over all seats
        env = SingleSeatEnv(name, players=n, seat=1, opponents=[specs(g)[0]])
    me = seat_bot(specs(g)[env.seat % 2], g, SEED, env.seat)
    env.reset(seed=SEED)
    s = env.aec.state_
    steps = 0
    while not s.is_terminal():
        env.step(env.aec.catalogue.encode(s, me.act(s)))
        steps += 1
    assert steps > 0
    assert _record(g, s) == _record(g, ref)


def test_the_classroom_bot_seats_play_the_same_game(tmp_path):
    """A classroom table with every seat a bot, decided through the server's bot path, is
    the reference game. (The store plays Haunted Lands only until it is made game-neutral.)"""
    from haunted_kit.server import Classroom  # lazy: tornado is imported only by the classroom tests
    from haunted_kit.store import GameStore

    g, ref, _ = _reference("haunted")
    n = _players(g)

    async def run(store):
        room = Classroom(store, bot_delay=0)
        t = store.create_table(players=n, seed=SEED, bots={p: SPECS[p % 2] for p in range(n)})
        room.schedule_bots(t.id)
        try:
            for _ in range(6000):  # bounded poll (at most 5 minutes): the bots think in worker processes
                if store.table(t.id).state.is_terminal():
                    break
                await asyncio.sleep(0.05)
        finally:
            room.close()
        return store.table(t.id).state

    with GameStore(tmp_path / "c.db") as store:
        state = run_in_fresh_loop(lambda: run(store))
    assert state.is_terminal()
    assert _record(g, state) == _record(g, ref)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("k", [1, 7, 2 ** 40])
def test_seeds_k_and_minus_k_are_different_games(name, k):
    g = get_game(name)
    a, b = (play_game(g, players=_players(g), seed=s, agents=specs(g))[0] for s in (k, -k))
    assert _record(g, a) != _record(g, b)


def test_landmarks_deals_keep_the_seeds_sign():
    """``random.Random(seed)`` drops the sign; the deal shuffle uses the kit's seeded
    generator, which reads the seed's 64 bits, so -k deals another game and k (>= 0) the same."""
    lm = get_game("landmarks")
    for k in (1, 5, 99):
        a, b = lm.new_game(players=3, seed=k), lm.new_game(players=3, seed=-k)
        assert (a.hands, a.villages) != (b.hands, b.villages)


def test_the_chance_hash_is_blake2b_of_the_signed_seed_and_the_path():
    assert chance_hash(7, 0) == int.from_bytes(hashlib.blake2b(b"7:0", digest_size=8).digest(), "big")
    assert chance_hash(-7, 0) == int.from_bytes(hashlib.blake2b(b"-7:0", digest_size=8).digest(), "big")
    assert chance_hash(7, 0) != chance_hash(-7, 0)
    assert chance_hash(7, "deck") == int.from_bytes(hashlib.blake2b(b"7:deck", digest_size=8).digest(), "big")
    assert 0 <= chance_hash(2 ** 63 - 1, 10 ** 6) < 2 ** 64


def test_the_seeded_generator_reads_the_seeds_64_bits():
    assert seeded_random(5).random() == random.Random(5).random()           # k >= 0: Python's own generator
    assert seeded_random(-5).random() == random.Random(2 ** 64 - 5).random()  # -k: its two's complement
    assert seeded_random(-5).random() != seeded_random(5).random()
    assert seeded_random(-1).random() == random.Random(2 ** 64 - 1).random()
    assert seeded_random(-(2 ** 63)).random() == random.Random(2 ** 63).random()
    for bad in (2 ** 63, 1.0, True):
        with pytest.raises(ValueError, match="seed must be an integer of at most 64 bits"):
            seeded_random(bad)


def test_the_chance_index_walks_the_weights():
    h = chance_hash(11, 4)
    # weights [2, 3, 5]: 10 slots; slots 0-1 -> 0, 2-4 -> 1, 5-9 -> 2
    x = h % 10
    assert chance_index(11, 4, [2, 3, 5]) == (0 if x < 2 else 1 if x < 5 else 2)
    assert chance_index(11, 4, [0, 1, 0]) == 1  # the only outcome with weight
    assert chance_index(11, 4, [1] * 6) == h % 6
    for bad in ([], [0, 0], [1.5, 1]):
        with pytest.raises(ValueError, match="whole-number weights adding up to at least 1"):
            chance_index(11, 4, bad)


def test_the_seat_seeding_rule():
    assert [seat_seed(4, i) for i in range(3)] == [400, 401, 402]
    assert seat_seed(-4, 1) == -399
    g = get_game("estate")
    a, b = seat_bot("random", g, 4, 2), make_bot("random", 402, g)
    assert [a.rng.random() for _ in range(3)] == [b.rng.random() for _ in range(3)]


@pytest.mark.parametrize("name", game_names())
def test_chance_left_waiting_is_drawn_as_auto_chance_draws_it(name):
    """A game started with ``auto_chance=False`` and played by the kit's loop (chance nodes
    resolved with the game's own seeded draw) is the game ``auto_chance`` plays; the
    progress bar changes nothing. (``auto_chance`` is an optional ``new_game`` keyword:
    a game without it, or without chance nodes, has nothing to check here.)"""
    g, ref, _ = _reference(name)
    if not any(e.chance for e in ref.history()):
        pytest.skip(f"{name} drew no chance outcome in the reference game")
    try:
        state = start_game(g, players=_players(g), seed=SEED, log=False, auto_chance=False)
    except TypeError as exc:  # the game's new_game has no auto_chance keyword
        pytest.skip(f"{name} has no auto_chance option: {exc}")
    play_out(state, specs(g), seed=SEED, game=g, progress=True)
    assert any(e.chance for e in state.history())
    assert _record(g, state) == _record(g, ref)


def test_play_steps_stops_where_asked():
    g = get_game("estate")
    s = g.new_game(players=2, seed=SEED, log=False)
    bots, _ = seat_bots(g, specs(g), 2, SEED)
    assert play_steps(s, bots, seed=SEED, max_steps=5) == 5 and not s.is_terminal()
    assert play_steps(s, bots, seed=SEED, stop=lambda st: True) == 0
    rest = play_steps(s, bots, seed=SEED)
    assert s.is_terminal() and rest > 0
    assert play_steps(s, bots, seed=SEED) == 0  # nothing is left to play
