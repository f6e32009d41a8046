"""The effect registry: every kind of effect that ``data/`` can name, the data fields
each one reads, and where the rules implement it.

The box loader (:func:`haunted_kit.haunted.box.load_box`) validates every entry of
``data/`` against this table: an effect name that is not registered, or a field that
the entry's effect does not read, is refused at load with a
:class:`~haunted_kit.haunted.box.BoxError` naming file, entry and problem. So every value
in ``data/`` either changes what the rules do or is refused. ``tests/test_data_effects.py``
checks that every registered effect is implemented where the table says, and edits one
data value per effect to see the behaviour change.

The table sits at the bottom layer (beside the box loader, which needs it); the rules
that implement each kind are named in :attr:`Effect.implemented_in`.

Shapes: :data:`EFFECTS` maps a family (``"skill"``, ``"quest"``, ``"ghost card"``,
``"market option"``, ``"bonus reward"``, ``"building"``) to ``{effect name: Effect}``;
:data:`COMMON` maps a family to the fields every entry of that family reads whatever
its effect (``provenance`` is always allowed).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMMON", "EFFECTS", "Effect", "effect_problem", "unused_fields", "used_fields"]


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect kind.

    Attributes:
        family: which data entries can name it (see :data:`EFFECTS`).
        name: the word the data uses (``effect = "..."``, or the market option's ``kind``).
        params: data fields this effect reads besides its family's :data:`COMMON` fields.
        implemented_in: the functions that apply it, as dotted names below
            ``haunted_kit`` (``"rules.do_contact"``); a test resolves each one.
        section: the rulebook section (or ruling) it comes from.
    """

    family: str
    name: str
    params: tuple[str, ...]
    implemented_in: tuple[str, ...]
    section: str


def _table(family: str, rows) -> dict[str, Effect]:
    return {name: Effect(family, name, tuple(params), tuple(where.split()), section) for name, params, where, section in rows}


#: family -> the fields every entry of the family reads (besides ``provenance``)
COMMON: dict[str, frozenset[str]] = {
    "skill": frozenset({"deck", "cost", "effect", "text"}),
    "quest": frozenset({"effect", "valor", "text"}),
    "ghost card": frozenset({"effect", "text"}),
    "market option": frozenset({"kind", "count", "pecunias"}),
    "bonus reward": frozenset({"face"}),
    "building": frozenset({"terrain", "cost_tokens", "cost", "valor"}),
}

#: family -> effect name -> :class:`Effect`
EFFECTS: dict[str, dict[str, Effect]] = {
    "skill": _table("skill", [
        ("contact_valor", ["amount"], "rules.do_contact", "Card Reference: Skill Cards, skill 1"),
        ("choose_bonus", [], "rules.do_contact engine._h_choose_bonus", "Card Reference: Skill Cards, skill 2"),
        ("contact_restore", ["amount"], "rules.do_contact", "Card Reference: Skill Cards, skill 3"),
        ("cheaper_forest", ["amount"], "rules.explore_cost", "Card Reference: Skill Cards, skill 4"),
        ("cheaper_mountain", ["amount"], "rules.explore_cost", "Card Reference: Skill Cards, skill 5"),
        ("anywhere_in_kalena", [], "rules.sells_here rules.trains_here", "Card Reference: Skill Cards, skill 6"),
        ("bigger_supply", ["amount"], "rules.resource_cap", "Card Reference: Skill Cards, skill 7"),
        ("sell_bonus", ["amount"], "rules.do_sell", "Card Reference: Skill Cards, skill 8"),
        ("sell_restore", ["amount"], "rules.do_sell", "Card Reference: Skill Cards, skill 9"),
        ("extra_income", ["amount"], "rules.production", "Card Reference: Skill Cards, skill 10"),
        ("build_valor", ["amount"], "rules.do_build", "Card Reference: Skill Cards, skill 11"),
        ("extract_bonus", ["amount"], "rules.do_extract", "Card Reference: Skill Cards, skill 12"),
    ]),
    "quest": _table("quest", [
        ("resource_sets", ["per"], "rules.quest_score", "Card Reference: Quest Cards, quest 1; ruling 13"),
        ("pecunias", ["per"], "rules.quest_score", "Card Reference: Quest Cards, quest 2"),
        ("region_majority", ["per"], "rules.quest_score", "Card Reference: Quest Cards, quest 3"),
        ("rightmost_markers", ["per"], "rules.quest_score", "Card Reference: Quest Cards, quest 4"),
        ("buildings", ["building", "per"], "rules.quest_score", "Card Reference: Quest Cards, quests 5-8"),
    ]),
    "ghost card": _table("ghost card", [
        ("block_production", [], "rules.production", "Card Reference: Ghost Cards, card 1"),
        ("block_extraction", [], "rules.open_extractions rules.refuse_extract", "Card Reference: Ghost Cards, card 2"),
        ("costly_ghost_cells", ["amount"], "rules.explore_cost", "Card Reference: Ghost Cards, card 3"),
    ]),
    "market option": _table("market option", [
        ("any", [], "rules.Ctx._payments rules.do_sell", "Market: one resource of any type"),
        ("same", [], "rules.Ctx._payments rules.do_sell", "Market: resources of the same type"),
        ("different", [], "rules.Ctx._payments rules.do_sell", "Market: resources of different types"),
    ]),
    "bonus reward": _table("bonus reward", [
        ("pecunias", ["pecunias"], "rules.give_bonus", "Ghosts: Contact, bonus cards"),
        ("resources", ["resources"], "rules.give_bonus", "Ghosts: Contact, bonus cards"),
        ("valor", ["valor"], "rules.give_bonus", "Ghosts: Contact, bonus cards"),
    ]),
    "building": _table("building", [
        ("production", ["income", "production"], "rules.production", "Game Flow step 2: Production; Buildings"),
    ]),
}


def effect_problem(family: str, name: object) -> str | None:
    """``None`` if ``name`` is a registered effect of ``family``, else the sentence
    saying it is unknown and listing the known ones."""
    known = EFFECTS[family]
    if isinstance(name, str) and name in known:
        return None
    return f"unknown effect {name!r} (known: {', '.join(sorted(known))})"


def used_fields(family: str, effects) -> set[str]:
    """The fields an entry of ``family`` with ``effects`` (registered names) reads:
    its family's :data:`COMMON` fields, each effect's params, and ``provenance``."""
    used = set(COMMON[family]) | {"provenance"}
    for e in effects:
        used.update(EFFECTS[family][e].params)
    return used


def unused_fields(family: str, effects, fields) -> list[str]:
    """The fields among ``fields`` that an entry of ``family`` with ``effects`` does
    not read (:func:`used_fields`). An empty list means every field changes behaviour."""
    used = used_fields(family, effects)
    return [f for f in fields if f not in used]
