"""saves.compile_reader: the encoders' one way to read a state's fields for from_state."""

import pytest

from haunted_kit.saves import compile_reader


class _Slots:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a, self.b = [1, 2], "x"


def test_reads_each_named_field_in_order_plain_and_slotted():
    read = compile_reader(("b", "a"))
    s = _Slots()
    assert read(s) == ("x", [1, 2])
    assert read(s)[1] is s.a  # the field's own object, not a copy
    one = compile_reader(["a"])
    assert one(s) == ([1, 2],)  # one name: still a tuple


@pytest.mark.parametrize("names", [(), ("a b",), ("a", "x.y"), ("1a",), (3,)])
def test_refuses_what_is_not_an_attribute_name(names):
    with pytest.raises(ValueError, match="compile_reader needs attribute names"):
        compile_reader(names)
