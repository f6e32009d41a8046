"""Command line: ``haunted-kit play`` plays a full game with bots and prints a summary.

Examples::

    haunted-kit play --players 4 --mode wanderer --seed 7 --agents greedy,random
    haunted-kit play --players 2 --mode citizen --ghost-cards 1,2 --log game.csv --save game.json
    haunted-kit replay game.json            # summary of a saved game
    haunted-kit classroom --seed 3 --bots 2,3,4   # the Voila classroom app

Misuse (players outside 2-4, an unknown mode or agent...) prints usage and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import rules as R
from .agents import AGENTS
from .components import default_box


def _agents(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one agent name")
    for n in names:
        if n not in AGENTS:
            raise argparse.ArgumentTypeError(f"unknown agent {n!r} (known: {', '.join(AGENTS)})")
    return names


def _int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    box = default_box()
    ap = argparse.ArgumentParser(prog="haunted-kit", description="Play and analyse Haunted Lands.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a full game with bots and print a summary")
    play.add_argument("--players", type=int, default=4, choices=range(box.min_players, box.max_players + 1),
                      metavar=f"{{{box.min_players}..{box.max_players}}}", help="number of players (default 4)")
    play.add_argument("--mode", default="wanderer", choices=list(box.modes), help="game mode (default wanderer)")
    play.add_argument("--seed", type=int, default=0, help="seed of every chance event (default 0)")
    play.add_argument("--agents", type=_agents, default=["greedy"],
                      help=f"comma-separated agents, one per seat, repeating ({', '.join(AGENTS)}; default greedy)")
    play.add_argument("--ghost-cards", type=_int_list, default=[], metavar="N,N",
                      help="extra ghost cards for higher difficulty, e.g. 2,3")
    play.add_argument("--log", type=Path, metavar="FILE", help="write the event log (.csv, or JSON lines otherwise)")
    play.add_argument("--save", type=Path, metavar="FILE", help="write the final state as a JSON save")
    play.add_argument("--box", type=Path, metavar="DIR", help="play with a house-rule copy of data/ (default: the reference box)")

    rep = sub.add_parser("replay", help="print the summary of a saved game")
    rep.add_argument("save", type=Path, help="a save written by play --save")
    rep.add_argument("--box", type=Path, metavar="DIR", help="the data/ copy the game was played with, if not the reference box")

    cls = sub.add_parser("classroom", help="serve the classroom play app (Voila) on localhost")
    cls.add_argument("--players", type=int, default=4, choices=range(box.min_players, box.max_players + 1),
                     metavar=f"{{{box.min_players}..{box.max_players}}}")
    cls.add_argument("--mode", default="wanderer", choices=list(box.modes))
    cls.add_argument("--seed", type=int, default=1)
    cls.add_argument("--bots", type=_int_list, default=None, metavar="N,N",
                     help="seats (1-based) played by bots; default: every seat but the first")
    cls.add_argument("--port", type=int, default=8866, help="port to serve on (0: any free port); a busy port is replaced by a free one")
    cls.add_argument("--no-browser", action="store_true", help="do not open a browser")
    return ap


def summary(state) -> str:
    """A readable summary of a finished (or running) game."""
    ctx = R.ctx_of(state)
    lines = []
    cfg = state.config
    lines.append(f"Haunted Lands: {cfg.players} players, {cfg.mode} mode, ghost cards {', '.join(map(str, cfg.ghost_cards))}, seed {cfg.seed}")
    lines.append(f"Field: Kalena + {', '.join(state.layout)}; skills {', '.join(map(str, state.skills))}; market card {state.market}")
    if state.lost:
        # nobody ranks and no quest is scored: the valor is only what was gained before the fall
        lines.append(f"Collective loss: {state.over_reason}. Every player loses; no quest is revealed or scored.")
        for p in range(cfg.players):
            k = len(state.quests[p])
            lines.append(f"  P{p + 1}: {state.valor[p]:>3} valor gained before Kalena fell  "
                         f"({k} quest card{'s' if k != 1 else ''} never scored)")
        lines.append(f"Decisions: {state.decisions}")
        return "\n".join(lines)
    over = state.phase == "over"
    order = R.stack_order(state)
    for rank, p in enumerate(order, start=1):
        qs = [(q, R.quest_score(state, ctx, p, q)[0]) for q in state.quests[p]]
        qv = sum(v for _, v in qs)
        qtext = ", ".join(f"quest {q}: {v}" for q, v in qs) or "no quests"
        label = "quests" if over else "quests if scored now"
        lines.append(f"  {rank}. P{p + 1}: {state.valor[p]:>3} valor  ({label} {qv}: {qtext})")
    if state.winner is not None:
        tie = sum(1 for v in state.valor if v == state.valor[state.winner]) > 1
        lines.append(f"Winner: P{state.winner + 1}" + (" (tie broken by the valor stack)" if tie else ""))
    else:
        lines.append(f"Game still running: season {state.season}, round {state.round}, phase {state.phase}")
    lines.append(f"Decisions: {state.decisions}")
    return "\n".join(lines)


def _write_log(state, path: Path) -> None:
    import json

    if path.suffix.lower() == ".csv":
        frame = state.events()
        frame["data"] = [json.dumps(d, sort_keys=True) for d in frame["data"]]
        frame["cell"] = [None if c is None else json.dumps(list(c)) for c in frame["cell"]]
        frame.to_csv(path, index=False)
    else:
        with path.open("w", encoding="utf-8") as fh:
            for e in state.log or []:
                fh.write(json.dumps(e.to_dict()) + "\n")


def _box(parser, path):
    """The box at ``path`` (or the reference box); a bad box is a usage error."""
    from .components import BoxError, load_box

    if path is None:
        return default_box()
    try:
        return load_box(path)
    except BoxError as exc:
        parser.error(f"--box {path}: {exc}")


def main(argv=None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    sub = {a.dest: a for a in ap._actions if isinstance(a, argparse._SubParsersAction)}["command"].choices[args.command]
    if args.command == "play":
        from .sim import play_game
        from .state import ConfigError, GameConfig

        box = _box(sub, args.box)
        try:
            cfg = GameConfig(players=args.players, mode=args.mode, seed=args.seed,
                             extra_ghost_cards=tuple(args.ghost_cards), box=box)
        except ConfigError as exc:
            sub.error(str(exc))
        if len(args.agents) > args.players:
            sub.error(f"{len(args.agents)} agents given for {args.players} players")
        res = play_game(cfg, args.agents, log=args.log is not None)
        print(summary(res.state))
        print("Agents: " + ", ".join(f"P{i + 1} {a}" for i, a in enumerate(res.agents)))
        status = 0
        for path, write, what in ((args.save, res.state.save, "Final state saved"),
                                  (args.log, lambda p: _write_log(res.state, p), "Event log written")):
            if path is None:
                continue
            try:
                write(path)
                print(f"{what} to {path}")
            except OSError as exc:
                print(f"haunted-kit: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
                status = 1
        return status
    if args.command == "replay":
        from .state import SaveError, State

        try:
            s = State.load(args.save, box=_box(sub, args.box))
        except SaveError as exc:
            print(f"haunted-kit: {exc}", file=sys.stderr)
            return 1
        print(summary(s))
        return 0
    if args.command == "classroom":
        from .classroom import serve

        if args.bots is not None and any(not 1 <= b <= args.players for b in args.bots):
            sub.error(f"--bots: bot seats must be between 1 and {args.players}, got {','.join(map(str, args.bots))}")
        if not 0 <= args.port <= 65535:
            sub.error(f"--port must be between 0 and 65535, got {args.port}")
        return serve(players=args.players, mode=args.mode, seed=args.seed, bots=args.bots, port=args.port,
                     open_browser=not args.no_browser)
    return 2  # pragma: no cover


if __name__ == "__main__":
    raise SystemExit(main())
