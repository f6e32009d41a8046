"""The notebook view of a game review (:mod:`haunted_kit.review`) for any game of the kit.

``ReviewView(review_result, board=None)``: the costly decisions (each cost with its 95%
interval; those within noise apart), the turning points (each swing with its interval) and
the value scale in words, one button per decision; clicking one shows that decision's position: ``board(state)``
when given (a game's board or step-through; a callable returning a widget or an HTML
string), else the event sentences from that decision to the next (the move's effects with
their rule sections). CSS classes: ``hk-review``, ``hk-review-row``, ``hk-review-position``.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .errors import ErrorReporting


class ReviewView(ErrorReporting, W.VBox):
    """A review's costly decisions and turning points; a click shows the position.

    Args:
        review: a :class:`haunted_kit.review.Review`.
        board: optional ``board(state) -> widget | str`` showing a position (e.g. a game's
            board drawing); without it the decision's event sentences are shown.
    """

    def __init__(self, review, board=None, **kw):
        super().__init__(**kw)
        self.review, self.board = review, board
        self.position = W.VBox()
        self.position.add_class("hk-review-position")
        rows = [W.HTML(f"<b>P{review.seat + 1}'s costliest decisions</b> (mistakes: 95% intervals above zero)")]
        rows += [self._row(c.number, f"Decision {c.number}: played {c.chosen}; better: {c.better} (cost {c.interval()})")
                 for c in review.costly] or [W.HTML("None: no decision's cost is told apart from zero.")]
        if review.noise:
            rows.append(W.HTML("<b>Within noise</b> (not mistakes)"))
            rows += [self._row(c.number, f"Decision {c.number}: played {c.chosen}; {c.better} differs by {c.interval()}")
                     for c in review.noise]
        rows.append(W.HTML("<b>Turning points</b>"))
        rows += [self._row(t.number, f"Decision {t.number}: P{t.player + 1}: {t.text}, {t.before:.2f} to {t.after:.2f} "
                                     f"({t.interval()})")
                 for t in review.turning_points] or [W.HTML("None told apart from zero.")]
        scale = W.HTML(f"<p class='hk-review-scale'>{escape(review.scale())}</p>")
        rows.append(scale)
        self.children = [*rows, self.position]
        self.add_class("hk-review")

    def _row(self, number: int, text: str):
        b = W.Button(description=text, layout=W.Layout(width="auto"), tooltip=text)
        b.add_class("hk-review-row")
        b.on_click(lambda _b: self.show(number))
        return b

    def show(self, number: int) -> None:
        """Show the position before decision ``number`` (raises KeyError for a decision
        the review did not search)."""
        state = self.review.states[number]
        head = W.HTML(f"<b>Before decision {number}</b>")
        if self.board is not None:
            shown = self.board(state)
            self.position.children = [head, W.HTML(shown) if isinstance(shown, str) else shown]
            return
        lines = self.review.events.get(number) or ["(this game keeps no event sentences)"]
        self.position.children = [head, W.HTML("<ul>" + "".join(f"<li>{escape(t)}</li>" for t in lines) + "</ul>")]
