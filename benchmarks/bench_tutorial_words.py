"""How much a newcomer must read in the first round of each game's tutorial (the round is meant
to take under 2 minutes): a scripted learner plays round 1 of every registered game's
tutorial (``hk.tutorial``'s own widget, :class:`haunted_kit.widgets.tutorial.TutorialView`),
reads every step the lesson panel shows before each decision (pressing **Got it** until the
panel has nothing new), leaves any question unanswered, then takes the first lit choice (the
first legal action). For each decision it counts the words the panel shows before the choices
(its visible text, :func:`haunted_kit.widgets.text.html_text`: what a closed "More" keeps folded
is not shown; the choices themselves, the titles of the steps queued next and the scroll cue
are not counted).

    .venv/bin/python benchmarks/bench_tutorial_words.py               # this tree
    .venv/bin/python benchmarks/bench_tutorial_words.py --ab main     # git revision main, then this tree, in one run
    .venv/bin/python benchmarks/bench_tutorial_words.py --steps       # and every step's words

Prints per game the decisions of round 1, the words read before each, their total, the most
words one step showed and how many steps showed more than :data:`LIMIT` words.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the tree under test: this checkout, or (for --ab) the one named by HK_BENCH_TREE
sys.path.insert(0, os.environ.get("HK_BENCH_TREE") or str(ROOT))

from benchargs import number_at_least  # noqa: E402

#: a step showing more words than this before its choices is too long for a newcomer's first round
LIMIT = 40
#: decisions a round 1 may take at the most before the learner is taken to be stuck
BOUND = 200
WORD = re.compile(r"[A-Za-z0-9][\w'’,.-]*")


#: what the panel shows that is not read before deciding: the choices themselves, the titles of
#: the steps queued next, the "more below" cue (the same HTML in every tree measured)
NOT_BEFORE = re.compile(r"<div>Your choices (?:of this kind now|then): [^<]*</div>"
                        r"|<div style='color:#555'>Next in the lesson[^<]*</div>"
                        r"|<div class=\"hk-more\"[^>]*>[^<]*</div>")


def words(html: str) -> int:
    """The words the lesson panel ``html`` shows before its choices (module doc)."""
    from haunted_kit.widgets.text import html_text  # lazy: the tree under test's own, after its sys.path
    return len(WORD.findall(html_text(NOT_BEFORE.sub(" ", html))))


def play_round_one(game: str, seed: int) -> dict:
    """Round 1 of ``game``'s tutorial on ``seed`` by the scripted learner (module doc):
    ``{"decisions": [[words per step read before it], ...], "steps": [[title, words], ...]}``."""
    from haunted_kit.widgets.tutorial import TutorialView  # lazy: the tree under test's own

    with tempfile.TemporaryDirectory() as tmp:
        v = TutorialView(game, seed=seed, progress=Path(tmp) / "p.json", resume=False)
        t = v.tutorial
        decisions, steps = [], []
        for _ in range(BOUND):
            if t.round_done or t.state.is_terminal():
                break
            read = []
            while t.current is not None:  # every step the panel shows now, as the panel shows it
                n = words(v.lesson.value)
                read.append(n)
                steps.append([t.current.title, n])
                v.b_next.click()
            if t.asking:
                v.b_resume.click()   # the question is left for later: the words here are the panel's
            decisions.append(read)
            if not v.view.attempt(t.state.legal_actions()[0]):
                raise RuntimeError(f"{game}: the first legal action was refused")
        return {"decisions": decisions, "steps": steps}


def probe(seed: int) -> dict:
    from haunted_kit.games import game_names  # lazy: the tree under test's registry
    return {name: play_round_one(name, seed) for name in game_names()}


def report(label: str, results: dict, show_steps: bool) -> None:
    print(f"== {label}")
    print(f"{'game':10} {'decisions':>9} {'words':>6} {'words/decision':>14} {'most/step':>9} {f'steps > {LIMIT}':>11}"
          "  words read before each decision")
    for game, r in results.items():
        per = [sum(d) for d in r["decisions"]]
        most = max((n for _, n in r["steps"]), default=0)
        over = sum(1 for _, n in r["steps"] if n > LIMIT)
        mean = sum(per) / len(per) if per else 0
        print(f"{game:10} {len(per):9} {sum(per):6} {mean:14.1f} {most:9} {over:11}  {per}")
        if show_steps:
            for title, n in r["steps"]:
                print(f"{'':12}{n:5}  {title}")


def side(tree: Path, seed: int) -> dict:
    env = {**os.environ, "HK_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--probe", "--seed", str(seed)], env=env, cwd=tree,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_tutorial_words: the run in {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=number_at_least(0), default=1, help="the tutorials' seed (default 1)")
    ap.add_argument("--ab", metavar="REV", help="also measure git revision REV, in the same run (old, then new)")
    ap.add_argument("--steps", action="store_true", help="print every step's words too")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.seed)))
        return 0
    if args.ab:
        from bench_engine import tree_at  # lazy: the temporary worktree of --ab only (bench_engine's own)

        with tree_at(args.ab) as old:
            report(f"old: {args.ab}", side(old, args.seed), args.steps)
    report("new: this tree", side(ROOT, args.seed), args.steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
