"""Haunted Lands' board key says what a terrain's code means, not what stands on a cell: a
newcomer asked "What is this?" about an empty forest and read "a sawmill stands on it"
(issue 29). Each terrain with a building (Buildings: the mill on plains, the sawmill on
forests, the mine on mountains; the box's ``terrain.toml``) says the building *may be built*
there; only a cell's own answer names a building that stands on it."""

from __future__ import annotations

from haunted_kit.haunted.draw.scene import board_key
from haunted_kit.haunted.engine import new_game


def test_a_terrains_code_says_what_may_be_built_on_it():
    s = new_game(players=4, seed=1)
    box = s.config.box
    entries = {e.what: e for e in board_key(s)}
    built = {name: t.build for name, t in box.terrains.items() if t.build}
    assert built == {"plain": "mill", "forest": "sawmill", "mountain": "mine"}
    for name, building in built.items():
        said = entries[f"{name} cell"].value
        assert f"a {building} may be built on it" in said and "stands on it" not in said, said
