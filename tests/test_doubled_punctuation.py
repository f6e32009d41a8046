"""No text a player reads has punctuation joined twice (issue 32 item 2): a sentence taken
from a game's data (a quest, a card, a rule) keeps its own full stop, and a sentence built
around it must not add a second mark (``"(2 valor for each mill you own.):"``). The kind,
for every registered game: every page of the classroom server (each seat, the projector and
the hot seat, revealed or not) at every position of whole seeded games, the games' event
sentences and action descriptions."""

from __future__ import annotations

import html
import random
import re

import pytest

from haunted_kit import games
from haunted_kit.games import game_module
from haunted_kit.protocol import describe_action
from haunted_kit.tableview import clause, generic_table_view
from haunted_kit.visibility import PUBLIC

TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
# two marks with at most a closing bracket and spaces between them; an ellipsis is one mark
DOUBLED = re.compile(r"(?<!\.)[.,;:!?][)\]]?\s*[.,;:!?](?!\.)")
SEEDS = (1, 2)


def doubled(text: str) -> list[str]:
    """Each place in ``text`` (HTML or words) where two punctuation marks meet, with its context."""
    plain = " ".join(html.unescape(TAG.sub(" ", text)).split())
    return [plain[max(0, m.start() - 40):m.end() + 10] for m in DOUBLED.finditer(plain)]


def strings(value):
    """Every string inside a view message (nested dicts and lists included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def test_the_detector_finds_the_kind_and_passes_plain_sentences():
    assert doubled("quest 5 (2 valor for each mill you own.): 0&times;") == ["quest 5 (2 valor for each mill you own.):"
                                                                           " 0×"]
    assert doubled("<b>P1 wins.</b>. Next") and doubled("a, , b") and doubled("food;; water")
    assert doubled("Wait... then go. P2 (see step 6). Done: 3 valor; 2 pecunias.") == []
    assert clause("2 valor for each mill you own.") == "2 valor for each mill you own"
    assert clause("Really?") == "Really?" and clause("and so on...") == "and so on..."


@pytest.mark.parametrize("name", games.game_names())
def test_no_page_of_a_whole_game_joins_punctuation_twice(name):
    game = games.get_game(name)
    views = game_module(name, "classroom")
    players = game.default_players
    found = {}
    for seed in SEEDS:
        rng = random.Random(seed)
        s = game.new_game(players=players, seed=seed)
        step = 0
        while True:
            pages = [(v, {}) for v in range(players)] + [(PUBLIC, {}), (PUBLIC, {"hot_seat": True}),
                                                         (PUBLIC, {"hot_seat": True, "revealed": True})]
            for viewer, how in pages:
                msg = (views.table_view(s, viewer, 30, **how) if views is not None
                       else generic_table_view(game, s, viewer, **how))
                for text in strings(msg):
                    for where in doubled(text):
                        found.setdefault(where, (seed, step, viewer, how))
            if s.is_terminal():
                break
            legal = s.legal_actions()
            for a in legal[:20]:
                for where in doubled(describe_action(s, a)):
                    found.setdefault(where, (seed, step, "action"))
            s.apply_action(rng.choice(legal))
            step += 1
        for e in getattr(s, "log", ()):
            for where in doubled(getattr(e, "text", "")):
                found.setdefault(where, (seed, "event", e.kind))
    assert not found, f"{name}: punctuation joined twice: {found}"
