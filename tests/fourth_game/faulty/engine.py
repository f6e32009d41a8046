"""Toy Nim with a game's own faults in its hooks, for tests/test_cli_hook_faults.py: the
command line must name the game and the hook, exit 1 and print no traceback.

``GAME_BOX``: its ``load_box`` keeps ``BoxSchema.rows``' five-value rows as the box's
provenance (the kit reads ``(file, entry, key, provenance)``: the maintainer's first box).
``GAME_HOOKS``: its ``seat_results`` divides by zero and its ``start_of`` reads a member the
state lacks; ``GAME_PARTS``: its ``score_parts`` unpacks rows of five values into four. All play Nim's states; ``GAME_HOOKS`` reads Nim's saves made under its name."""
from __future__ import annotations

import dataclasses
import types

from nim import engine as nim


class BrokenBox(nim.NimGame):
    name, title = "brokenbox", "Broken-box Nim"

    def load_box(self, path=nim.BOX_DIR):
        box = nim.load_box(path)
        fields = {f.name: getattr(box, f.name) for f in dataclasses.fields(box)}
        return types.SimpleNamespace(**fields, provenance=(("nim.toml", "-", "take_max", "rulebook", box.take_max),),
                                     values={})


class BrokenHooks(nim.NimGame):
    name, title = "brokenhooks", "Broken-hooks Nim"
    state_type = nim.NimState

    def from_dict(self, data, box=None):
        return super().from_dict({**data, "game": "nim"}, box)

    def seat_results(self, state):
        return [{"score": r, "rank": 1 + len(state.returns()) // 0, "won": False} for r in state.returns()]

    def start_of(self, state):
        return state.no_such_member


class BrokenParts(nim.NimGame):
    name, title = "brokenparts", "Broken-parts Nim"
    state_type = nim.NimState

    def score_parts(self, state):
        rows = [(p, "stones", "took the last", r, "extra") for p, r in enumerate(state.returns())]
        return [{source: points} for _p, source, _what, points in rows]  # a row too many values long


GAME_BOX = BrokenBox()
GAME_PARTS = BrokenParts()
GAME_HOOKS = BrokenHooks()
