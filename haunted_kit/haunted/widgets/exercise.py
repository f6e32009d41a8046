"""A Haunted Lands exercise that answers back: the kit's exercise widget
(:class:`haunted_kit.widgets.exercise.ExerciseWidget`) with the Haunted Lands field as its board.

    from haunted_kit.haunted.widgets.exercise import exercise
    exercise("03-explore-cells", seed=1)       # display it in a notebook

* the board (:class:`~haunted_kit.haunted.widgets.field.FieldWidget`) is drawn with every
  cell's coordinates (``F 2,-1``), the names the questions use; ``cells`` exercises
  select or unselect a cell with a click (selected cells are marked ``✓``);
* "What you know", under the question, lists the shown facts the board does not draw
  (:meth:`~haunted_kit.haunted.exercises.Exercise.fact_lines`: mode and ghost cards,
  holdings, tokens, the valor stack...);

Everything else (the buttons, the verdict in steps, Show answer after a first try, New
exercise on a later seed) is the kit widget's; see :mod:`haunted_kit.widgets.exercise`.
"""

from __future__ import annotations

from ..exercises import Exercise, make
from ...widgets.exercise import ExerciseWidget as KitExerciseWidget
from .field import FieldWidget


class ExerciseWidget(KitExerciseWidget):
    """Args:
        ex: an :class:`~haunted_kit.haunted.exercises.Exercise` (or use :func:`exercise`).
        size: hex size of the board in pixels.

    Attributes (besides the kit widget's): ``field``: the board
    (a :class:`~haunted_kit.haunted.widgets.field.FieldWidget`), or ``None``.
    """

    QUESTION_FIRST = True
    FACTS_HEADING = "What you know:"

    def __init__(self, ex: Exercise, *, size: float = 40, **kw):
        self.size = size
        super().__init__(ex, board=self._field_of, **kw)

    def _field_of(self, state):
        # no "Last event" under the question's board: the position's last event may tell the answer
        # (who rolled the spread tells who is last in turn order)
        return FieldWidget(state, size=self.size, show_coords=True, last_event=False) if state.field is not None else None

    @property
    def field(self) -> FieldWidget | None:
        """The board of the exercise shown (the field with every cell's coordinates)."""
        return self.board


def exercise(key: str, seed: int = 0, *, size: float = 40) -> ExerciseWidget:
    """The widget for exercise ``key`` of :data:`haunted_kit.haunted.exercises.EXERCISES` on
    seed ``seed``. Raises :class:`~haunted_kit.haunted.exercises.ExerciseError` for an unknown
    key or a bad seed."""
    return ExerciseWidget(make(key, seed), size=size)
