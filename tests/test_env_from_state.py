"""The environment's fast observation path (issue 21: the observation and the mask together
at no more than 2 engine steps): an encoder's ``from_state(state, player, to_move)`` gives
entry for entry the vector of the plain definition, ``encoder(state.observation(player),
player, to_move)``, reads nothing the player cannot see, and the catalogue numbers a legal
action made anew as the equal entry."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils import seeding

from haunted_kit.env import KitAECEnv
from haunted_kit.games import default_players, game_names, get_game, option_defaults, start_game
from haunted_kit.haunted import actions as HA
from haunted_kit import protocol
from haunted_kit.protocol import SEED_MAX, ActionCatalogue
from haunted_kit.search import sample_chance
from ruletools import ENV_HOOKS, games_with

#: per game: players and options (the kit's games as measured; any other registered game its declared defaults)
SETTINGS = {**{n: (default_players(get_game(n)), option_defaults(get_game(n))) for n in game_names()},
            "haunted": (4, {}), "estate": (3, {}), "landmarks": (3, {"rounds": 2})}


def _positions(game: str, seeds):
    """Every decision of seeded random games of ``game`` (its bench-like setting)."""
    players, options = SETTINGS.get(game, (get_game(game).min_players, {}))
    g = get_game(game)
    for seed in seeds:
        s, rng = start_game(g, players=players, seed=seed, **options), random.Random(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                sample_chance(s, rng)
                continue
            yield s
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        yield s


def _vector(encode, s, p):
    to_move = None if s.is_terminal() else s.current_player()
    from_state = getattr(encode, "from_state", None)
    return encode(s.observation(p), p, to_move) if from_state is None else from_state(s, p, to_move)


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_from_state_equals_the_vector_of_the_observation_to_the_end_of_seeded_games(game):
    env = KitAECEnv(game, players=SETTINGS[game][0], **SETTINGS[game][1])
    enc, checked = env.encode, 0
    low, high = enc.bounds()
    for s in _positions(game, range(10, 16)):
        to_move = None if s.is_terminal() else s.current_player()
        for p in range(s.players if isinstance(s.players, int) else len(s.players)):
            plain = enc(s.observation(p), p, to_move)
            fast = _vector(enc, s, p)
            assert fast.dtype == np.float32 and fast.shape == plain.shape
            assert np.array_equal(fast, plain), [enc.names[i] for i in np.flatnonzero(fast != plain)][:5]
            assert np.all(fast >= low) and np.all(fast <= high)
            checked += 1
    assert checked > 100  # six whole games, every seat (Landmarks over 2 rounds: 135)


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_from_state_reads_nothing_the_player_cannot_see(game):
    """A determinisation (the hidden parts redrawn from what the player sees) gives the
    player the same vector: the fast path reads no hidden field."""
    g = get_game(game)
    env = KitAECEnv(game, players=SETTINGS[game][0], **SETTINGS[game][1])
    differ = checked = 0
    for i, s in enumerate(_positions(game, range(3))):
        if s.is_terminal() or i % 3:
            continue
        p = s.current_player()
        d = g.determinise(s, p, random.Random(i))
        assert np.array_equal(_vector(env.encode, d, p), _vector(env.encode, s, p))
        other = (p + 1) % SETTINGS[game][0]
        differ += s.observation(other) != d.observation(other)  # something hidden from p was redrawn
        checked += 1
    assert checked >= 5
    if game != "estate":  # the estate hides only the tile stack's order, which no observation shows
        assert differ > 0


def test_a_legal_action_made_anew_gets_its_equal_entrys_number():
    """Haunted Lands makes its legal actions anew (not the catalogue's objects): each is
    numbered as the equal entry, also where two entries' hashes are equal (hash(-1) ==
    hash(-2) in Python, so cells (0, -1) and (0, -2) hash alike)."""
    cat = ActionCatalogue([HA.Explore((0, -1)), HA.Explore((0, -2)), HA.EndTurn(), HA.Extract((0, -1), "wood")])
    assert hash(HA.Explore((0, -1))) == hash(HA.Explore((0, -2)))

    class Position:
        def legal_actions(self):
            return [HA.EndTurn(), HA.Explore((0, -2)), HA.Extract((0, -1), "wood"), HA.Explore((0, -1))]

    assert cat.legal_numbers(Position()) == [2, 1, 3, 0]

    class Wider(Position):
        def legal_actions(self):
            return [HA.Explore((0, -3))]

    with pytest.raises(ValueError, match="has no number"):
        cat.legal_numbers(Wider())


def test_an_action_object_met_again_keeps_its_number_and_the_memory_stays_bounded(monkeypatch):
    """Legal action objects are remembered by identity (Haunted Lands' interned ones are
    then found at once); a remembered object keeps its number, a new equal one gets the
    same, and past ``SEEN_KEPT`` objects the catalogue forgets them and still numbers right."""
    monkeypatch.setattr(protocol, "SEEN_KEPT", 3)
    cat = ActionCatalogue([HA.Explore((0, -1)), HA.Explore((0, -2)), HA.EndTurn()])
    end, near = HA.EndTurn(), HA.Explore((0, -2))

    class Position:
        def __init__(self, acts):
            self.acts = acts

        def legal_actions(self):
            return self.acts

    assert cat.legal_numbers(Position([end, near])) == [2, 1]
    assert cat.legal_numbers(Position([near, end])) == [1, 2]  # the same objects, found by identity
    for _ in range(10):  # new equal objects each time: remembered up to 3, then forgotten
        assert cat.legal_numbers(Position([HA.Explore((0, -1)), HA.EndTurn()])) == [0, 2]
        assert len(cat._by_id) <= 3 + 3
    assert cat.legal_numbers(Position([end, near])) == [2, 1]


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_a_step_after_the_mask_plays_the_numbered_legal_action(game):
    """``step`` reuses the mask's numbering while the legal actions are those it numbered;
    once the position changed under the environment, the number is decoded afresh (an
    illegal one refused with the rule's reason, nothing changed)."""
    env = KitAECEnv(game, players=SETTINGS[game][0], **SETTINGS[game][1])
    env.reset(seed=5)
    s = env.state_
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    numbers = list(np.flatnonzero(mask))
    assert sorted(numbers) == sorted(env.catalogue.legal_numbers(s))
    last = int(numbers[-1])
    assert env.legal_action(last) == s.legal_actions()[env.catalogue.legal_numbers(s).index(last)]
    illegal = next(i for i in range(len(env.catalogue)) if not mask[i])
    before = s.to_dict()
    with pytest.raises(ValueError, match="illegal now|not offered"):
        env.step(illegal)
    assert s.to_dict() == before


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_the_environment_gives_the_plain_vector_mask_and_returns_over_seeded_episodes(game):
    """Through ``last``/``step`` (the buffers and numbering the environment reuses), every
    seat's observation is the plain vector of ``state.observation(seat)``, the mask marks
    exactly ``legal_numbers`` for the seat to move (nothing for the others), and the
    rewards are 0 until the end, then the game's ``returns()``."""
    players, options = SETTINGS[game]
    env = KitAECEnv(game, players=players, **options)
    decisions = 0
    for seed in (21, 22):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, done, _cut, _ = env.last()
            s = env.state_
            to_move = None if s.is_terminal() else s.current_player()
            for p, a in enumerate(env.possible_agents):
                o = env.observe(a)
                assert np.array_equal(o["observation"], env.encode(s.observation(p), p, to_move))
                want = np.zeros(len(env.catalogue), dtype=np.int8)
                if p == to_move:
                    want[env.catalogue.legal_numbers(s)] = 1
                assert np.array_equal(o["action_mask"], want)
            assert reward == (float(s.returns()[env.possible_agents.index(agent)]) if s.is_terminal() else 0.0)
            if done:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            assert env.legal_action(action) == s.legal_actions()[env.catalogue.legal_numbers(s).index(action)]
            env.step(action)
            decisions += 1
        assert env.state_.is_terminal() and not env.agents
    assert decisions > 10  # two whole games (Landmarks over 2 rounds: 13 decisions)


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_from_state_stays_the_plain_vector_when_games_interleave(game):
    """The encoder keeps parts of the last vector it made (Haunted Lands: the board's part
    while the field and its ghost, depletion and building lists are unchanged): positions of
    three seeded games taken in turn, each seen by every player, still give the plain vector."""
    env = KitAECEnv(game, players=SETTINGS[game][0], **SETTINGS[game][1])
    enc = env.encode
    games = [[s.copy() for s in _positions(game, [seed])] for seed in (20, 21, 22)]
    checked = 0
    for i in range(max(map(len, games))):
        for positions in games:
            if i >= len(positions):
                continue
            s = positions[i]
            to_move = None if s.is_terminal() else s.current_player()
            for p in range(SETTINGS[game][0]):
                assert np.array_equal(_vector(enc, s, p), enc(s.observation(p), p, to_move)), (game, i, p)
                checked += 1
    assert checked > 50  # Landmarks over 2 rounds: 72


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
@pytest.mark.parametrize("seed", [7, -7])
def test_np_random_after_a_seeded_reset_is_that_seed_s_generator(game, seed):
    """``reset(seed=k)`` leaves ``np_random`` to be made when first asked for: it then draws
    as Gymnasium's generator of ``k`` (a negative seed taken modulo 2**64), and a
    generator set by hand is the one ``reset()`` draws from."""
    env = KitAECEnv(game, players=SETTINGS[game][0], **SETTINGS[game][1])
    env.reset(seed=seed)
    expected, _ = seeding.np_random(seed % 2**64)
    assert env.np_random.integers(10**9, size=4).tolist() == expected.integers(10**9, size=4).tolist()
    env.reset(seed=seed)
    expected, _ = seeding.np_random(seed % 2**64)
    env.reset()
    assert env.game_seed == int(expected.integers(0, SEED_MAX, endpoint=True))
    env.np_random, _ = seeding.np_random(123)
    expected, _ = seeding.np_random(123)
    env.reset()
    assert env.game_seed == int(expected.integers(0, SEED_MAX, endpoint=True))


def test_haunted_from_state_follows_hand_edits_of_one_state_object():
    """Haunted Lands' fast path keeps a vector and the field values it was written from,
    and compares them with the state each call: edits made outside the rules (the
    scenario tools, on the same state object, in place) show at once, for every observer,
    as the plain vector of the observation (a change counter bumped by the rules would
    miss them)."""
    from haunted_kit.haunted import scenario as S

    s = S.scenario(players=4, log=False)
    enc = KitAECEnv("haunted", players=4).encode
    cells = [tuple(c) for c in s.field.cells]
    edits = [
        lambda: S.place(s, 1, (2, 0)), lambda: S.give(s, 0, water=1, ore=1), lambda: S.set_pecunias(s, 2, 7),
        lambda: S.set_tokens(s, 3, "contact", owned=3, active=1), lambda: S.set_valor(s, 1, 5),
        lambda: S.learn(s, 2, s.skills[0]), lambda: S.give_quests(s, 0, s.quests_in_hand(0)[0]),
        lambda: S.give_quests(s, 3, s.quests_in_hand(3)[-1]),
        lambda: S.put_ghost(s, (3, 0)), lambda: S.deplete(s, (2, 0)), lambda: S.remove_ghost(s, (3, 0)),
        lambda: S.undeplete(s, (2, 0)), lambda: S.set_calendar(s, 2, 1), lambda: S.set_turn(s, [2, 3, 0, 1]),
    ]
    edits += [lambda c=c: S.put_building(s, c, b, 3) for c in cells[8:40:4] for b in s.config.box.buildings]
    edits += [lambda c=c: S.remove_building(s, c) for c in cells[8:40:8]]
    done = 0
    for edit in edits:
        before = [_vector(enc, s, p).copy() for p in range(4)]
        try:
            edit()
        except S.ScenarioError:  # not allowed there (terrain, supply...): nothing changed
            continue
        done += 1
        to_move = s.current_player()
        after = [_vector(enc, s, p) for p in range(4)]
        for p in range(4):
            assert np.array_equal(after[p], enc(s.observation(p), p, to_move)), (edit, p)
        assert any(not np.array_equal(a, b) for a, b in zip(after, before))  # the edit shows
    assert done >= 20, done  # the fourteen edits above and some buildings


@pytest.mark.parametrize("game", games_with(*ENV_HOOKS))
def test_a_number_after_the_position_moved_on_means_the_action_it_numbers_now(game):
    """The mask's numbering is reused only while the legal actions are equal to those it
    numbered: after moves made on the state itself (as SingleSeatEnv's bots make them),
    each legal number of the new position plays the action the catalogue gives it there,
    and a number legal only before is refused with the rule's reason, nothing changed."""
    env = KitAECEnv(game, players=SETTINGS[game][0], **SETTINGS[game][1])
    env.reset(seed=11)
    s, rng, checked, positions = env.state_, random.Random(11), 0, 0
    while not s.is_terminal() and checked < 40:
        mover = env.possible_agents[s.current_player()]
        before = set(np.flatnonzero(env.observe(mover)["action_mask"]).tolist())
        s.apply_action(s.legal_actions()[rng.randrange(len(s.legal_actions()))])  # the position moves on
        while s.is_chance_node():
            sample_chance(s, rng)
        if s.is_terminal():
            break
        legal = s.legal_actions()
        numbers = env.catalogue.legal_numbers(s, legal)
        positions += 1
        assert len(numbers) == len(legal) >= 1
        for i, a in zip(numbers, legal):
            assert env.legal_action(i) == a
            checked += 1
        for i in sorted(before - set(numbers))[:3]:
            state = s.to_dict()
            with pytest.raises(ValueError, match="illegal now|not offered"):
                env.legal_action(i)
            assert s.to_dict() == state
    # 40 numbers, or every position of a game that ends sooner (its own length: a short game checks them all)
    assert positions >= 1 and (checked >= 40 or s.is_terminal())
