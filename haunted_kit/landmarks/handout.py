"""The Landmarks & Architects printable handout: a rules summary and a player aid,
generated from the box (so house rules print as played), on the kit's page
(:mod:`haunted_kit.handout`).

    html = handout_html(box, paper="a4")

Every number comes from the box; a kit default (the rules text is silent: the example
deck, the architects' types, the lead actions...) is marked ``*``, a house rule ``†``, and
the legend under each part says so; a house rule shows the kit's value after it. The
summary ends with what changes with each player count (the chosen one highlighted).
Sections: ``hk-rules``, ``hk-aid``.
"""

from __future__ import annotations

from html import escape

from ..handout import ProvenanceMarks, handout_page, player_counts, table
from .box import default_box

__all__ = ["handout_html"]

_F = "landmarks/"


def _rules(box, m: ProvenanceMarks, players: int | None) -> str:
    g, lt_file, sc, cg = _F + "game.toml", _F + "landmarks.toml", _F + "scoring.toml", _F + "castle_grounds.toml"
    costs = "; ".join(f"<b>{escape(lt.name)}</b>: {escape(lt.cost_text())}{m.mark(lt_file, f'types.{k}')}"
                      for k, lt in box.landmarks.items())
    vp = ", ".join(f"{escape(lt.name)} +{lt.victory_points}" for lt in box.landmarks.values() if lt.victory_points)
    return f"""
<section class="hk-rules">
<h1>Landmarks &amp; Architects · rules summary</h1>
<p class="sub">The kit's summary of the two modules in its own words; section names refer to the rules text.
{box.min_players}{m.mark(g, 'players', 'min')}-{box.max_players}{m.mark(g, 'players', 'max')} players.</p>
<div class="cols">
<h2>Landmarks: Game Setup</h2>
<ul><li>{box.tokens_per_type}{m.mark(lt_file, 'supply', 'tokens')} tokens of each landmark type; with 2 players
{box.two_player_removed}{m.mark(lt_file, 'supply', 'two_player_removed')} of each go back to the box.</li>
<li>Lead actions: {escape(', '.join(box.lead_actions))}{m.mark(g, 'lead_actions')}.</li></ul>
<h2>Take One Action</h2>
<p>The leader leads an action; each other player, clockwise, follows it, or <b>acquires a landmark</b> instead, or declines.</p>
<h2>Acquiring a Landmark</h2>
<p>Discard its cost from your hand and take a token from the supply: {costs}.</p>
<h2>Architects: Build</h2>
<p>Choose a building of your hand, then how to pay for it (a choice is not taken back).
Each resource of a building's cost takes {box.castle_gold}{m.mark(cg, 'castle', 'gold')} gold on one source: your castle
(a wild resource), a developed resource ({box.developed_gold}{m.mark(cg, 'developed', 'gold')} gold), or a Castle Grounds
({box.grounds_gold}{m.mark(cg, 'use', 'gold')} gold and {box.grounds_discard}{m.mark(cg, 'use', 'discard')} discard, any
player's{m.mark(cg, 'use', 'any_player')}; {box.grounds_uses}{m.mark(cg, 'use', 'uses_per_card')} use per card).
The gold comes back when its owner leads.</p>
<h2>The end</h2>
<p>The game ends when a village holds {box.end_trigger_cards}{m.mark(g, 'end_trigger')} cards (landmark tokens are not cards).</p>
<h2>Scoring</h2>
<ul><li>The most tokens of a type: +{box.most_points}{m.mark(sc, 'most', 'points')} (at least
{box.most_minimum}{m.mark(sc, 'most', 'minimum')} token; a tie: nobody).</li>
<li>Each token's own points: {vp}.</li>
<li>Each full set of the {len(box.landmarks)} types: +{box.set_points}{m.mark(sc, 'sets')}.</li>
<li>Architect: +{box.architect_points}{m.mark(sc, 'architect')} per building of its two types (adventurers do not count).</li></ul>
</div>
{player_counts(player_changes(box, m), players, section="Landmarks: Game Setup")}
{m.legend()}
<p class="end">End of the rules summary.</p>
</section>"""


def player_changes(box, m: ProvenanceMarks) -> dict[int, list[str]]:
    """What the rules text changes with each player count the box allows, as HTML with
    the marks: with 2 players some landmark tokens of each type go back to the box."""
    lt_file = _F + "landmarks.toml"
    out = {}
    for n in range(box.min_players, box.max_players + 1):
        out[n] = []
        if n == 2 and box.two_player_removed:
            out[n].append(f"{box.two_player_removed}{m.mark(lt_file, 'supply', 'two_player_removed')} tokens of each landmark "
                          f"type go back to the box ({box.supply(n)} of each in play)")
    return out


def _aid(box, m: ProvenanceMarks) -> str:
    lt_file, ar = _F + "landmarks.toml", _F + "architects.toml"
    landmarks = table(["landmark", "cost (discard from hand)", "icon", "victory points"],
                      [[f"{escape(lt.name)}{m.mark(lt_file, f'types.{k}')}", lt.discard, escape(lt.icon or "any card"),
                        lt.victory_points] for k, lt in box.landmarks.items()])
    architects = table(["architect", "+1 per building of"],
                       [[f"{escape(a.name)}{m.mark(ar, k)}", escape(" and ".join(a.types))] for k, a in box.architects.items()])
    return f"""
<section class="hk-aid">
<h1>Landmarks &amp; Architects · player aid</h1>
<h2>Landmarks</h2>{landmarks}
<h2>Architects (dealt face down, revealed at the end)</h2>{architects}
<p>Building cards: {escape(box.deck_label)}{m.mark(_F + 'deck.toml', 'deck')}.</p>
{m.legend()}
</section>"""


def handout_html(box=None, *, paper: str = "a4", players: int | None = None) -> str:
    """The Landmarks & Architects handout as one HTML page (rules summary, player aid).

    Args:
        box: a :class:`~haunted_kit.landmarks.box.LandmarksBox` (default: the reference box).
        paper: ``"a4"`` or ``"letter"``.
        players: the player count to highlight in the player-count table (``None``: none).

    Raises:
        HandoutError: an unknown paper.
    """
    box = default_box() if box is None else box
    marks = ProvenanceMarks(box, shipped=default_box())
    return handout_page("Landmarks & Architects handout", [_rules(box, marks, players), _aid(box, marks)], paper, flow=True)
