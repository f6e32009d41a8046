"""Actions without fields (Haunted Lands' EndTurn, Contact, RollBonus; the estate's Pass,
VisitMarket...; Landmarks' Follow, Decline) hash by their class: all instances of one alike,
the kinds apart. With the dataclass hash they all hashed as ``hash(())``, so a search node's
children of two such kinds collided in its dict (every lookup then ran ``__eq__``)."""

from dataclasses import fields

import pytest

from haunted_kit.estate import actions as estate_actions
from haunted_kit.haunted import actions as haunted_actions
from haunted_kit.landmarks import actions as landmarks_actions

MODULES = {"haunted": haunted_actions, "estate": estate_actions, "landmarks": landmarks_actions}


def fieldless(module) -> list[type]:
    return [c for c in module.ACTION_TYPES.values() if not [f for f in fields(c) if f.compare]]


@pytest.mark.parametrize("game", sorted(MODULES))
def test_field_less_actions_hash_alike_per_kind_and_apart_across_kinds(game):
    kinds = fieldless(MODULES[game])
    assert len(kinds) >= 2  # every game has at least two such kinds (the fault needs two)
    assert len({hash(k()) for k in kinds}) == len(kinds)
    for k in kinds:
        assert k() == k() and hash(k()) == hash(k())
        assert {k(): "x"}[k()] == "x"
    table = {k(): i for i, k in enumerate(kinds)}
    assert [table[k()] for k in kinds] == list(range(len(kinds)))


def test_the_field_less_kinds_are_the_expected_ones():
    """The kinds the fault was found in (a new field-less kind joins the test above by itself)."""
    names = {g: {c.__name__ for c in fieldless(m)} for g, m in MODULES.items()}
    assert {"EndTurn", "Contact", "RollBonus"} <= names["haunted"]
    assert {"Pass", "VisitMarket", "EndVisit", "InnReturn", "InnDecline"} <= names["estate"]
    assert {"Follow", "Decline"} <= names["landmarks"]
