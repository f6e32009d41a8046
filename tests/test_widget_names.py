"""Every form control a view of the kit or of a game builds has a name a screen reader reads
(axe-core's select-name, label rules): each ipywidgets input made in ``haunted_kit`` is given
a ``description``, which ipywidgets renders as the control's <label>. A source scan, so a
control added later without a name fails here, not only on the page the browser tests open.
ToggleButtons are left out: each option is a button named by its own text."""

from __future__ import annotations

import ast
from pathlib import Path

import haunted_kit

NAMED = {"Dropdown", "Select", "SelectMultiple", "Text", "Textarea", "IntText", "FloatText", "BoundedIntText",
         "BoundedFloatText", "Checkbox", "IntSlider", "FloatSlider", "IntRangeSlider", "SelectionSlider", "Combobox",
         "RadioButtons", "ToggleButton", "ColorPicker", "DatePicker", "Password"}


def controls(tree):
    """(line, widget class, keyword names) of each ``W.X(...)``/``widgets.X(...)`` call of an input widget."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in NAMED \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in {"W", "widgets", "ipywidgets"}:
            yield node.lineno, node.func.attr, {k.arg for k in node.keywords}


def test_every_input_widget_of_the_kit_and_the_games_has_a_description():
    root = Path(haunted_kit.__file__).parent
    found, unnamed = 0, []
    for path in sorted(root.rglob("*.py")):
        for line, cls, keywords in controls(ast.parse(path.read_text(), str(path))):
            found += 1
            if "description" not in keywords:
                unnamed.append(f"{path.relative_to(root)}:{line} W.{cls}")
    assert found >= 8, f"the scan found only {found} input widgets: it no longer sees how they are made"
    assert unnamed == [], "input widgets without a name (description):\n" + "\n".join(unnamed)


def test_the_scan_sees_an_unnamed_control():
    bad = ast.parse("import ipywidgets as W\nW.Dropdown(options=[1])\nW.Text(description='x')\n")
    assert [(line, cls, "description" in kw) for line, cls, kw in controls(bad)] == [(2, "Dropdown", False),
                                                                                    (3, "Text", True)]
