"""Every event sentence of every registered game is written for a player (issue 32): no
name of the code ("see score_table"), no raw dict, list or JSON, no words joined by
underscores, no Python values (None, True). Landmarks' game-over sentence was such a
fault; the kind is checked here over every game's seeded games to the end (random seats
and each game's greedy bot, every player count) and over the sentences each game declares
for what a viewer may not see (its visibility's ``instead``)."""

from __future__ import annotations

import random
import re

import pytest

from haunted_kit.bots import make_bot
from haunted_kit.games import game_names, get_game
from haunted_kit.protocol import agent_table

#: what code, not words, looks like in a sentence, each with its name for the message
CODE_MARKS = {
    "a word joined by underscores": re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]"),
    "a function's call or name with brackets": re.compile(r"\b[A-Za-z_]\w*\(\)|\bsee [a-z]+_[a-z_]+"),
    "a raw dict, list or JSON": re.compile(r"[{}\[\]]|\":|':"),
    "a Python value": re.compile(r"\b(None|True|False|nan)\b"),
    "a name in code case": re.compile(r"\b[A-Za-z][a-z]+[A-Z][a-z]\w*\b"),
}


def code_in(text: str) -> list[str]:
    """The kinds of code ``text`` writes (empty: words only)."""
    return [what for what, pattern in CODE_MARKS.items() if pattern.search(text)]


@pytest.mark.parametrize("text, marks", [
    ("The modules' points: P1 6, P2 1, P3 7 (see score_table for each point).", ["a word joined by underscores",
                                                                              "a function's call or name with brackets"]),
    ("P1 builds {'card': 'vardo'}.", ["a raw dict, list or JSON"]),
    ("P2 takes None.", ["a Python value"]),
    ("P1 plays ChooseBuilding.", ["a name in code case"]),
    ("P1 takes the Lumber Camp's 2 wood (Architects: How To Play, Build).", []),
    ("P2 restores 1 contact token (skill 9).", []),
])
def test_code_marks_tell_code_from_words(text, marks):
    assert code_in(text) == marks


def finished_games(name: str):
    """Seeded games of ``name`` played to the end: every player count, random seats and,
    where the game declares one, its greedy bot."""
    game = get_game(name)
    agents = ["random"] + (["greedy"] if "greedy" in agent_table(game) else [])
    for players in range(game.min_players, game.max_players + 1):
        for agent in agents:
            for seed in range(2):
                s = game.new_game(players=players, seed=seed)
                bots = [make_bot(agent, seed * 100 + p, game) for p in range(players)]
                rng = random.Random(seed)
                for _ in range(5000):
                    if s.is_terminal():
                        break
                    p = s.current_player()
                    if p is None:  # a chance node the game leaves to its caller
                        outcomes = s.chance_outcomes()
                        s.apply_chance(rng.choice(outcomes)[0])
                        continue
                    s.apply_action(bots[p].act(s.copy()) if agent != "random" else rng.choice(s.legal_actions()))
                yield s


@pytest.mark.parametrize("name", game_names())
def test_every_event_sentence_is_written_in_words(name):
    faults, ended = {}, 0
    for s in finished_games(name):
        ended += s.is_terminal()
        for e in s.log or []:
            marks = code_in(e.text)
            if marks:
                faults.setdefault(e.kind, (e.text, marks))
    assert ended, f"no game of {name} reached its end"
    assert not faults, f"{name}'s events written as code: {faults}"


@pytest.mark.parametrize("name", [n for n in game_names() if getattr(get_game(n), "visibility", None) is not None])
def test_every_declared_sentence_for_the_others_is_written_in_words(name):
    declared = get_game(name).visibility.events
    faults = {kind: (seen.instead, code_in(seen.instead.replace("{who}", "P1"))) for kind, seen in declared.items()
              if isinstance(seen.instead, str) and code_in(seen.instead.replace("{who}", "P1"))}
    assert not faults, f"{name}'s sentences for the others written as code: {faults}"
