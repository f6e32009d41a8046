"""The Haunted Lands board SVG with its terrain layer made once per field and size
(``draw.svg.terrain_svg``): the text is byte for byte what the board was before the
cache, over seeded positions, sizes, viewers and options, cold and warm; every game's
classroom view is the same built from warm caches (board layouts, terrain text) as cold."""

from __future__ import annotations

import hashlib
import functools
import json
import random
from pathlib import Path

import pytest

import haunted_kit as hk
from haunted_kit.games import game_module, game_names, get_game
from haunted_kit.tableview import generic_table_view
from haunted_kit.haunted.draw import board_geometry, render_svg
from haunted_kit.haunted.draw.scene import terrain_layer
from haunted_kit.haunted.draw.svg import TERRAIN_CACHE, layer_svg, terrain_svg
from haunted_kit.render.geometry import cells_geometry
from haunted_kit.tableview import PUBLIC

#: SHA-256 of render_svg's text for each case below, made by the board code of commit
#: 4bd894f (every layer drawn afresh for every call, before the terrain cache; rewritten when the cells'
#: titles came to name cells as the boards do, "city cell 0,0 on Kalena", and again when a region tile was named as one, "on region tile R07", and when the title came to name the cells a board marks and its path, "Marked: cells 0,1; 1,0.": nothing else differs). A change
#: meant to alter the picture rewrites them: {case: sha256(render_svg(...))} as below.
DIGESTS = json.loads((Path(__file__).parent / "snapshots" / "board_svg_digests.json").read_text())


def positions():
    """Seeded positions: the start, decision 30 and 120 (or the end) of random play."""
    for seed in (1, 2, 3, 5, 8, 13):
        s = hk.new_game(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        for n in range(121):
            if n in (0, 30, 120) or s.is_terminal():
                yield f"seed {seed} decision {n}", s.copy()
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))


def options(s) -> list[dict]:
    """render_svg keywords: the defaults, the table server's (coordinates, no key, a
    viewer, highlights), another size without letters, paper, a path."""
    hi = {} if s.is_terminal() else {a.cell if hasattr(a, "cell") else (0, 0): "" for a in s.legal_actions()[:5]}
    return [{}, {"size": 30.0, "legend_rows": False, "show_coords": True, "viewer": 0, "highlight": hi},
            {"size": 22, "show_labels": False, "show_coords": True}, {"paper": True, "size": 18},
            {"size": 30.0, "show_labels": False, "legend_rows": False, "path": [(0, 0), (1, 0)]}]


def test_the_board_svg_is_byte_for_byte_the_uncached_text_cold_and_warm():
    seen = set()
    for name, s in positions():
        for k, kw in enumerate(options(s)):
            for _warm in range(2):   # the second call finds the terrain text cached
                text = render_svg(s, **kw)
                assert hashlib.sha256(text.encode()).hexdigest() == DIGESTS[f"{name} kw{k}"], (name, kw)
            seen.add(f"{name} kw{k}")
    assert seen == set(DIGESTS)   # every stored case was drawn (18 positions, 5 option sets)
    assert len(seen) == 90


@pytest.mark.parametrize("size", [30.0, 22])
def test_the_terrain_text_is_made_once_per_field_and_never_shared_between_fields(size):
    a, b = hk.new_game(players=2, seed=1), hk.new_game(players=2, seed=2)
    assert a.field.layout != b.field.layout
    geom = board_geometry(a, size)
    first = terrain_svg(a.field, geom, True, True)
    assert first == layer_svg("terrain", terrain_layer(a.field, geom, True, True))   # what the layer draws
    assert terrain_svg(a.copy().field, geom, True, True) is first   # a copy shares the field: one text
    assert terrain_svg(b.field, geom, True, True) == layer_svg("terrain", terrain_layer(b.field, geom, True, True))
    assert terrain_svg(b.field, geom, True, True) != first
    assert terrain_svg(a.field, geom, False, True) != first   # the flags are part of the key
    other = board_geometry(a, size + 1)
    assert terrain_svg(a.field, other, True, True) == layer_svg("terrain", terrain_layer(a.field, other, True, True))


def game_positions(name: str) -> list:
    """Two seeded random games of ``name`` (3 players): the start, decision 20 and 60."""
    g = get_game(name)
    out = []
    for seed in (1, 2):
        s = g.new_game(players=min(3, g.max_players), seed=seed)
        rng = random.Random(seed)
        for n in range(61):
            if n in (0, 20, 60) or s.is_terminal():
                out.append(s.copy())
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
    return out


def clear_board_caches() -> None:
    TERRAIN_CACHE.clear()
    cells_geometry.cache_clear()


def _generic(game, state, viewer, size, **kw):
    return generic_table_view(game, state, viewer, **kw)


@pytest.mark.parametrize("name", game_names())
def test_every_games_classroom_view_is_the_same_from_warm_caches_as_built_cold(name):
    """What a page is sent does not depend on which views were built before it (the
    terrain text and board layouts cached per field and size)."""
    views = game_module(name, "classroom")  # a game without one: the server's generic page
    table_view = views.table_view if views is not None else functools.partial(_generic, get_game(name))
    states = game_positions(name)
    cases = [(s, v, hot) for s in states for v in (0, 2, PUBLIC) for hot in (False, True) if not hot or v == PUBLIC]
    clear_board_caches()
    warm = [json.dumps(table_view(s, v, 30.0, hot_seat=hot, revealed=hot)) for s, v, hot in cases]   # games interleaved
    for (s, v, hot), text in zip(cases, warm):
        clear_board_caches()
        assert json.dumps(table_view(s, v, 30.0, hot_seat=hot, revealed=hot)) == text, (name, v, hot)
    assert len(set(warm)) > len(states)   # the views differ: positions and viewers are drawn apart
