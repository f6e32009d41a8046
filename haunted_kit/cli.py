"""Command line: ``haunted-kit play`` plays a full game with bots and prints a summary.

Examples::

    haunted-kit play --players 4 --mode wanderer --seed 7 --agents greedy,random
    haunted-kit play --players 2 --mode citizen --ghost-cards 1,2 --log game.csv --save game.json
    haunted-kit replay game.json            # summary of a saved game
    haunted-kit review game.json --seat 2 --html review.html   # turning points, P2's costliest decisions
    haunted-kit check-box my_rules/         # play a house-rule box and check every step
    haunted-kit simulate --out runs/a --games 200 --players 2,4 --agents "search[playouts=100],greedy"
    haunted-kit compare --box my_rules/ --html report.html   # house rules against the reference box
    haunted-kit classroom --seed 3 --bots 2,3,4   # the Voila classroom app
    haunted-kit play --game estate --players 3 --seed 7 --agents greedy,random   # Estate and Market
    haunted-kit play --game landmarks --players 3 --seed 7 --agents greedy,random   # Landmarks & Architects
    haunted-kit server --players 4 --bots 3,4     # tables for a class: seats, teacher page, projector

Misuse (players outside the box's range, an unknown mode or agent, a file that cannot
be written...) prints usage and exits 2, before any game is played. A corrupt save or
a failed write exits 1 with one line; Ctrl-C exits 130 with one line. Every file is
written atomically (:func:`haunted_kit.fileio.atomic_write`), so an interrupted or
failed write never leaves a broken file. No user error prints a traceback.
"""

from __future__ import annotations

import ipaddress
import json
import os
import argparse
import re
import shlex
import sys
from pathlib import Path

from .bots import BotSpecError, default_agent, make_bot, parse_lineup
from .boxfile import data_dir
from .limits import (BOT_DELAY_RANGE, CONNECT_TIMEOUT_RANGE, COUNT_RANGE, GAMES_RANGE, HEX_SIZE_RANGE,
                     HINT_PLAYOUTS_RANGE, KERNEL_IDLE_RANGE, KERNELS_RANGE, MAX_BYTES_RANGE, PLAYERS_RANGE,
                     PLAYOUTS_RANGE, PORT_RANGE, WORKERS_RANGE, arg_finite, arg_whole, read_whole)
from .fileio import MAX_INPUT_BYTES, atomic_write, check_writable, output_clash, read_json
from .games import (DEFAULT_GAME, DecisionCapReached, HookFailed, MissingHook, UnknownGame, box_words, checked_box,
                    default_players, game_module, game_names, game_of, game_options, get_game, hook as game_hook,
                    hook_failure, load_state)
from .play import play_game as play_with_bots
from .protocol import SCORE_ONLY_MEANINGS, check_seed

# The modules behind the other subcommands (classroom, handout, teacher, simulate, server,
# check-box) are imported inside them: together they add about 40 ms (multiprocessing,
# sqlite3, tornado, the search agent) to every start, `haunted-kit --help` included.


def _agents(text: str) -> list[str]:
    """``--agents``: a lineup of agent specs (:func:`haunted_kit.bots.parse_lineup`); the
    names are checked against the game in :func:`_check_agents`."""
    try:
        return parse_lineup(text)
    except BotSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _check_agents(parser, specs: list[str], game: str) -> None:
    """Every spec names an agent of ``game`` with good settings (built once, as
    ``simulate`` checks its lineups); else usage and exit 2."""
    for spec in specs:
        try:
            make_bot(spec, 0, game=game)
        except ValueError as exc:
            parser.error(f"argument --agents: {exc}")


def _int_list(text: str) -> list[int]:
    parts = [x.strip() for x in text.split(",")]
    if not all(p.isascii() and p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, e.g. 2,3; got {text!r}")
    return [read_whole(p, "each number", 0, COUNT_RANGE[1], argparse.ArgumentTypeError) for p in parts]


# Every numeric option's type: the kit's one check per kind of number (haunted_kit.limits),
# so NaN, infinities, 0 where meaningless and huge values are usage errors (exit 2).
_positive = arg_whole(*COUNT_RANGE)
_games = arg_whole(*GAMES_RANGE)
_at_least_two = arg_whole(2, GAMES_RANGE[1], "an interval needs two games")  # compare --games
_player_count = arg_whole(*PLAYERS_RANGE)
_workers = arg_whole(*WORKERS_RANGE)
_max_bytes = arg_whole(*MAX_BYTES_RANGE)
_port = arg_whole(*PORT_RANGE)
_hex_size = arg_finite(*HEX_SIZE_RANGE)


def _whole(text: str) -> int:
    """A whole number typed on the command line, else a usage error saying so (``--seed``)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


_HOST_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


def _allowed_host(text: str) -> str:
    """An ``--allow-host`` value: a bare host name (``class.school.lan``) or IP address
    (``192.168.1.20``, ``fe80::1`` or ``[fe80::1]``), as the Host header of a page asked
    for by that name carries it without its port; returned lower case, an IPv6 address in
    brackets (as the servers compare it). Anything else (``name:8870``, ``http://name``, a
    path) is a usage error saying what to write."""
    value = text.strip().lower()
    bare = value[1:-1] if value.startswith("[") and value.endswith("]") else value
    try:
        address = ipaddress.ip_address(bare)
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    except ValueError:
        pass
    name = value[:-1] if value.endswith(".") else value
    if 0 < len(name) <= 253 and all(_HOST_LABEL.fullmatch(part) for part in name.split(".")):
        return name
    raise argparse.ArgumentTypeError(
        f"expected a bare host name or IP address as students type it, without http:// or a port, e.g. "
        f"--allow-host class.school.lan or --allow-host 192.168.1.20; got {text[:80]!r}")


def _seed(text: str) -> int:
    """A ``--seed``/``--first-seed`` value: a whole number the kit takes as a seed
    (:func:`~haunted_kit.protocol.check_seed`), else a usage error (exit 2)."""
    return check_seed(_whole(text), error=argparse.ArgumentTypeError)


def _path(text: str) -> Path:
    """A file or folder named on the command line. Empty text (an unset shell variable:
    ``--out "$DIR"``) is refused rather than read as ``Path("")``, the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path: give a file or folder name")
    return Path(text)


def _address(text: str) -> str:
    """A Dask scheduler's address; empty text (an unset shell variable) is refused rather
    than read as no address, which ran the games here without a word."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty address: give the scheduler's, e.g. tcp://10.0.0.5:8786")
    return text


def kit_description() -> str:
    """One sentence naming every registered game with its ``--game`` name, read from
    the registry (``haunted-kit --help``'s description)."""
    listed = []
    for name in game_names():
        try:  # the player range may come from the game's box, which may not load here
            g = get_game(name)
            listed.append(f"{g.title} (--game {name}, {g.min_players}-{g.max_players} players)")
        except Exception as exc:  # noqa: BLE001 - help still shows, naming what does not load
            listed.append(f"--game {name} (does not load here: {exc})")
    return (f"Learn, play and analyse {len(listed)} games on one protocol: {'; '.join(listed)}. "
            f"A command that starts games takes --game (default {DEFAULT_GAME}); one that reads a save "
            f"finds the game in it. 'haunted-kit COMMAND --help' tells its options.")


class _KitParser(argparse.ArgumentParser):
    """The top-level parser: its description names the registered games only when help
    is shown (reading their titles imports every game, which a command does not need)."""

    def format_help(self) -> str:
        if self.description is None:
            self.description = kit_description()
        return super().format_help()


def _add_play(sub: "argparse._SubParsersAction") -> None:
    """The ``play`` subcommand's parser."""
    play = sub.add_parser("play", help="play a full game with bots and print a summary")
    play.add_argument("--game", default=DEFAULT_GAME, choices=game_names(),
                      help="rule module to play (default haunted; estate = Estate and Market; "
                           "landmarks = Landmarks & Architects)")
    play.add_argument("--players", type=_player_count, default=None, metavar="N",
                      help="number of players, within the box's range (default: the game's, e.g. 4 for haunted)")
    play.add_argument("--seed", type=_seed, default=0, help="seed of every chance event (default 0)")
    play.add_argument("--agents", type=_agents, default=None,
                      help="comma-separated agent specs, one per seat, repeating (random, greedy and search[...] "
                           "play every game of the kit, e.g. 'search[playouts=100],greedy'; default greedy, or random for a game "
                           "without a greedy agent)")
    play.add_argument("--log", type=_path, metavar="FILE", help="write the event log (.csv, or JSON lines otherwise)")
    play.add_argument("--save", type=_path, metavar="FILE", help="write the final state as a JSON save")
    play.add_argument("--box", type=_path, metavar="DIR", help="play with a house-rule copy of data/ (default: the reference box)")


def _add_replay(sub: "argparse._SubParsersAction") -> None:
    """The ``replay`` subcommand's parser."""
    rep = sub.add_parser("replay", help="print the summary of a saved game")
    rep.add_argument("save", type=_path, help="a save written by play --save")
    rep.add_argument("--box", type=_path, metavar="DIR", help="the data/ copy the game was played with, if not the reference box")
    rep.add_argument("--max-bytes", type=_max_bytes, default=MAX_INPUT_BYTES, metavar="N",
                     help=f"refuse saves bigger than N bytes (default {MAX_INPUT_BYTES:,} = 16 MiB)")


def _add_review(sub: "argparse._SubParsersAction") -> None:
    """The ``review`` subcommand's parser."""
    rev = sub.add_parser("review", help="review a saved game: its turning points and a seat's costliest decisions, "
                                        "each with a paired 95%% interval")
    rev.add_argument("save", type=_path, help="a save of any game of the kit (play --save, the play views, the server's export)")
    rev.add_argument("--seat", type=_player_count, default=1, metavar="N",
                     help="the seat whose decisions are judged, 1 = P1 (default 1)")
    rev.add_argument("--playouts", type=arg_whole(*PLAYOUTS_RANGE), default=None, metavar="K",
                     help="playouts per decision at first: the search's budget and the first look of every paired "
                          "interval; undecided intervals get up to 8 times as many (default 150, review.DEFAULT_PLAYOUTS)")
    rev.add_argument("--seed", type=_seed, default=0, help="seed of the searches (default 0): the same seed, the same report")
    rev.add_argument("--html", type=_path, metavar="FILE", help="also write the review as an HTML page")
    rev.add_argument("--box", type=_path, metavar="DIR", help="the data/ copy the game was played with, if not the reference box")
    rev.add_argument("--max-bytes", type=_max_bytes, default=MAX_INPUT_BYTES, metavar="N",
                     help=f"refuse saves bigger than N bytes (default {MAX_INPUT_BYTES:,} = 16 MiB)")


def _add_check_box(sub: "argparse._SubParsersAction") -> None:
    """The ``check-box`` subcommand's parser."""
    chk = sub.add_parser("check-box", help="play seeded games with a box (house rules) and check every step")
    chk.add_argument("box", type=_path, metavar="DIR", help="a folder holding a copy of data/")
    chk.add_argument("--game", default=DEFAULT_GAME, help="rule module whose box this is (default haunted)")
    chk.add_argument("--games", type=_games, default=3, metavar="N", help="games per mode and player count (default 3)")
    chk.add_argument("--seed", type=_seed, default=0, help="seed of the first game (default 0)")
    chk.add_argument("--bot-games", type=_positive, default=20, metavar="N",
                     help="then N seeds per mode and player count played by the greedy bots, each stopped at the "
                          "decision cap (default 20)")
    chk.add_argument("--max-steps", type=_positive, default=20_000, metavar="N",
                     help="a game still running after N steps counts as never ending (default 20000)")
    chk.add_argument("--report", type=_path, metavar="FILE", help="also write one row per game as CSV")
    chk.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_handout(sub: "argparse._SubParsersAction") -> None:
    """The ``handout`` subcommand's parser."""
    hand = sub.add_parser("handout", help="write a printable handout: rules summary, player aid (Haunted Lands: and a seeded board); HTML, and PDF with Chromium")
    hand.add_argument("--game", default=DEFAULT_GAME, choices=game_names(), help="the game of the handout (default haunted)")
    hand.add_argument("--out", type=_path, default=Path("handout.html"), metavar="FILE",
                      help="the HTML file to write (default handout.html); the PDF goes next to it")
    hand.add_argument("--paper", choices=["a4", "letter"], default="a4", help="paper size (default a4)")
    hand.add_argument("--seed", type=_seed, default=1, help="seed of the board's setup (default 1)")
    hand.add_argument("--players", type=_player_count, default=None, metavar="N", help="the player count whose rule changes are highlighted (Haunted Lands: and drawn on the board page; default: the game's, e.g. 4 for haunted)")
    hand.add_argument("--mode", default="wanderer", help="game mode of the board page (default wanderer)")
    hand.add_argument("--box", type=_path, metavar="DIR", help="print a house-rule copy of data/ (default: the reference box)")
    hand.add_argument("--no-pdf", action="store_true", help="write only the HTML")


def _add_teacher(sub: "argparse._SubParsersAction") -> None:
    """The ``teacher`` subcommand's parser."""
    tea = sub.add_parser("teacher", help="write the teacher copies of the notebooks (every exercise's answer and common mistake)")
    tea.add_argument("--game", default=None, choices=game_names(),
                     help="only the notebooks with this game's exercises (default: every game's)")
    tea.add_argument("--notebooks", type=_path, default=None, metavar="DIR",
                     help="the notebooks folder (default: the kit's notebooks/)")
    tea.add_argument("--out", type=_path, default=None, metavar="DIR", help="where to write them (default: NOTEBOOKS/.teacher)")


def _add_simulate(sub: "argparse._SubParsersAction") -> None:
    """The ``simulate`` subcommand's parser."""
    sim = sub.add_parser("simulate", help="play a grid of games with bots into a Parquet dataset",
                         description="Play every combination of player counts, modes, ghost cards and agent lineups, "
                                     "GAMES seeds each, into a Parquet dataset directory (resumable).")
    sim.add_argument("--out", type=_path, required=True, metavar="DIR", help="dataset directory (created; re-run to resume)")
    sim.add_argument("--game", default=DEFAULT_GAME, choices=game_names(), help="rule module (default haunted)")
    sim.add_argument("--games", type=_games, default=100, metavar="N", help="seeds per grid cell (default 100)")
    sim.add_argument("--first-seed", type=_seed, default=0, help="seed of the first repetition (default 0)")
    sim.add_argument("--players", type=_int_list, default=None, metavar="N,N", help="player counts (default: the game's, e.g. 4 for haunted)")
    sim.add_argument("--agents", action="append", default=None, metavar="LINEUP",
                     help="an agent lineup, one spec per seat, repeating, e.g. 'search[playouts=100],greedy'; repeat for several (default greedy, or random for a game without a greedy agent)")
    sim.add_argument("--box", type=_path, metavar="DIR", help="a house-rule copy of data/ (sent to every worker)")
    sim.add_argument("--workers", type=_workers, default=None, metavar="N", help="worker processes (default: one per CPU; 1 plays in this process)")
    sim_dask = sim.add_mutually_exclusive_group()  # the embedded cluster or an existing one, not both
    sim_dask.add_argument("--dask", action="store_true", help="run on an embedded Dask LocalCluster (127.0.0.1)")
    sim_dask.add_argument("--scheduler", type=_address, metavar="ADDRESS", help="run on the existing Dask cluster at ADDRESS (e.g. tcp://10.0.0.5:8786)")
    sim.add_argument("--connect-timeout", type=arg_finite(*CONNECT_TIMEOUT_RANGE, above=True), default=30, metavar="SECONDS",
                     help="seconds to wait for the --scheduler to answer (default 30)")
    sim.add_argument("--events", action="store_true", help="also store every game's event log (slower, bigger)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_compare(sub: "argparse._SubParsersAction") -> None:
    """The ``compare`` subcommand's parser."""
    cmp = sub.add_parser("compare", help="house-rule impact report: the reference box against a house-rule box",
                         description="Play the reference box and a house-rule box on the same seeds with the same bots "
                                     "and report the differences (win rate by seat, game length, collective losses, "
                                     "score by source) with 95% intervals and tests; a difference is marked * when it "
                                     "stays significant after Holm's correction over all the rows.")
    cmp.add_argument("--box", type=_path, required=True, metavar="DIR", help="the house-rule box: a folder holding a copy of data/")
    cmp.add_argument("--game", default=DEFAULT_GAME, choices=game_names(), help="rule module whose box this is (default haunted)")
    cmp.add_argument("--games", type=_at_least_two, default=None, metavar="N",
                     help="games per box, at least 2 (default: the game's own, e.g. 500 for haunted)")
    cmp.add_argument("--seed", type=_seed, default=0, help="seed of the first game (default 0)")
    cmp.add_argument("--players", type=_player_count, default=None, metavar="N", help="number of players (default: the game's, e.g. 4 for haunted)")
    cmp.add_argument("--agents", type=_agents, default=None,
                     help="comma-separated agent specs, one per seat, repeating (default greedy, or random for a "
                          "game without a greedy agent)")
    cmp.add_argument("--html", type=_path, metavar="FILE", help="also write the report as HTML with its figure")
    cmp.add_argument("--rows", type=_path, metavar="FILE",
                     help="also write one row per game of both boxes (box, seed, length, each seat's agent, score, "
                          "rank and result) as CSV, or as Parquet for a .parquet name")
    cmp.add_argument("--workers", type=_workers, default=None, metavar="N", help="worker processes (default: one per CPU; 1 plays in this process)")
    cmp_dask = cmp.add_mutually_exclusive_group()  # the embedded cluster or an existing one, not both
    cmp_dask.add_argument("--dask", action="store_true", help="run on an embedded Dask LocalCluster (127.0.0.1)")
    cmp_dask.add_argument("--scheduler", type=_address, metavar="ADDRESS", help="run on the existing Dask cluster at ADDRESS")
    cmp.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_classroom(sub: "argparse._SubParsersAction") -> None:
    """The ``classroom`` subcommand's parser."""
    cls = sub.add_parser("classroom", help="serve the classroom play app (Voila) on localhost")
    cls.add_argument("--players", type=_player_count, default=None, metavar="N", help="number of players (default: the game's, 4)")
    cls.add_argument("--mode", default="wanderer", help="game mode (default wanderer)")
    cls.add_argument("--seed", type=_seed, default=1)
    cls.add_argument("--bots", type=_int_list, default=None, metavar="N,N",
                     help="seats (1-based) played by bots; default: every seat but the first")
    cls.add_argument("--port", type=_port, default=8866, help="port to serve on (0: any free port); a busy port is replaced by a free one")
    cls.add_argument("--box", type=_path, metavar="DIR", help="play with a house-rule copy of data/ (default: the reference box)")
    cls.add_argument("--size", type=_hex_size, default=34.0, metavar="PX",
                     help="hex size in pixels, centre to corner, 12 to 80 (default 34; larger for a projector)")
    cls.add_argument("--no-browser", action="store_true", help="do not open a browser")
    cls.add_argument("--no-hints", action="store_true", help='no "Suggest a move" button for this table')
    cls.add_argument("--hint-playouts", type=arg_whole(*HINT_PLAYOUTS_RANGE), default=1000, metavar="N",
                     help='playouts searched for each "Suggest a move", 10 to 100000 (default 1000)')
    cls.add_argument("--kernel-idle", type=arg_whole(*KERNEL_IDLE_RANGE), default=30, metavar="S",
                     help="seconds after which the game of a closed or reloaded page is shut down, 5 to 3600 (default 30)")
    cls.add_argument("--max-kernels", type=arg_whole(*KERNELS_RANGE), default=40, metavar="N",
                     help="games open at once at most, 1 to 1000 (default 40); the next page says the app is full")
    cls.add_argument("--allow-host", action="append", default=[], metavar="NAME", type=_allowed_host,
                     help="another name pages may use in their Host header: a bare host name or IP address, no port or "
                          "http:// (repeatable; default localhost names only)")


def _add_tutorial(sub: "argparse._SubParsersAction") -> None:
    """The ``tutorial`` subcommand's parser."""
    tut = sub.add_parser("tutorial", help="a first game that teaches itself: write its notebook and open it (Voila)",
                         description="Write a small notebook that plays a first game of --game against bots and teaches "
                                     "it while it is played (each decision, phase and rule the first time it matters, "
                                     "its section named, short questions after the first round), then open it in Voila (widgets only) or, "
                                     "with --lab, JupyterLab. Progress is kept beside the notebook, so running the "
                                     "command again resumes.")
    tut.add_argument("--game", default=DEFAULT_GAME, choices=game_names(), help=f"the game to learn (default {DEFAULT_GAME})")
    tut.add_argument("--seed", type=_seed, default=1,
                     help="the seed of a new first game (default 1); a kept tutorial resumes its own game "
                          "(its panel's 'Start again' begins anew)")
    tut.add_argument("--dir", type=_path, default=Path("."), metavar="DIR",
                     help="where the notebook (tutorial-GAME.ipynb) and its progress go (default: here)")
    tut.add_argument("--lab", action="store_true", help="open it in JupyterLab instead of Voila")
    tut.add_argument("--no-open", action="store_true", help="only write the notebook and print how to open it")
    tut.add_argument("--port", type=arg_whole(1024, 65535), default=None, metavar="N",
                     help="the port the app serves on, 1024 to 65535 (default: the app's own, 8866 for Voila, 8888 for "
                          "JupyterLab; give another when two tutorials run on one machine)")
    tut.add_argument("--no-browser", action="store_true", help="do not open a browser: open the printed address yourself")


def _add_server(sub: "argparse._SubParsersAction") -> None:
    """The ``server`` subcommand's parser."""
    srv = sub.add_parser("server", help="serve tables to a class: a seat per student device, a teacher page, projector views")
    srv.add_argument("--store", type=_path, default=Path("haunted-kit-classroom.db"), metavar="FILE",
                     help="the SQLite game store; its tables resume (default haunted-kit-classroom.db)")
    srv.add_argument("--game", default=DEFAULT_GAME, choices=game_names(),
                     help="the game the teacher page's new-table form offers first, and of the first table (default "
                          "haunted); a store without tables starts with the new-table form, unless --players, --seed, "
                          "--bots or --box ask for a first table")
    srv.add_argument("--players", type=_player_count, default=None, metavar="N", help="first table: number of players (default: the game's)")
    srv.add_argument("--seed", type=_seed, default=None, help="first table: seed (default 1)")
    srv.add_argument("--bots", type=_int_list, default=[], metavar="N,N",
                     help="first table: seats (1-based) played by bots (default none)")
    srv.add_argument("--box", type=_path, metavar="DIR", help="first table: a house-rule copy of data/")
    srv.add_argument("--ip", default="127.0.0.1",
                     help="address to serve on (default 127.0.0.1: this computer only; 0.0.0.0: the school network)")
    srv.add_argument("--port", type=_port, default=8870, help="port (default 8870; 0: any free port)")
    srv.add_argument("--allow-host", action="append", default=[], metavar="NAME", type=_allowed_host,
                     help="another name pages may use in their Host header: a bare host name or IP address, no port or "
                          "http:// (repeatable)")
    srv.add_argument("--size", type=_hex_size, default=30.0, metavar="PX", help="hex size in pixels, 12 to 80 (default 30)")
    srv.add_argument("--bot-delay", type=arg_finite(*BOT_DELAY_RANGE), default=0.3, metavar="S",
                     help="seconds between bot decisions, 0 to 60 (default 0.3)")
    srv.add_argument("--log", type=_path, metavar="FILE", help="the teacher's log: errors with details (default: the terminal)")
    srv.add_argument("--new-token", action="store_true",
                     help="make a new teacher link (the store keeps the teacher token, so the teacher link survives a "
                          "restart; this makes the old one stop working; a table's projector and hot-seat links have "
                          "tokens of their own, renewed from the teacher page)")
    srv.add_argument("--tutorial", action="store_true",
                     help="a tutorial class: each seat's page teaches every kind of decision the first time the "
                          "student meets it (the game's words, the rule's section)")
    srv.add_argument("--no-compress", dest="compress", action="store_false",
                     help="send page updates uncompressed (default: deflated when the browser offers it)")


def _describe_commands(sub: "argparse._SubParsersAction") -> None:
    """Give every subcommand without a description its help line as one, so
    'COMMAND --help' says what the command does, not the kit's blurb."""
    for choice in sub._choices_actions:  # 'COMMAND --help' says what the command does, not the kit's blurb
        command = sub.choices[choice.dest]
        if command.description is None:
            text = choice.help.replace("%%", "%")  # a help line is %-formatted, a description is not
            command.description = text[:1].upper() + text[1:] + "."


def build_parser() -> argparse.ArgumentParser:
    """The argument parser. It loads no box, so ``--help`` works whatever the data:
    player counts and modes are checked against the box chosen (``--box`` or the
    reference box) once the arguments are read."""
    ap = _KitParser(prog="haunted-kit")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_play(sub)
    _add_replay(sub)
    _add_review(sub)
    _add_check_box(sub)
    _add_handout(sub)
    _add_teacher(sub)
    _add_simulate(sub)
    _add_compare(sub)
    _add_classroom(sub)
    _add_tutorial(sub)
    _add_server(sub)
    _describe_commands(sub)
    return ap


#: the subcommands whose flags include the game's declared options (``Game.options``, see
#: :func:`add_game_options`): command -> whether a flag takes several values (a grid)
GAME_OPTION_COMMANDS = {"play": False, "compare": False, "server": False, "simulate": True}
_RESERVED = {"game", "players", "seed", "box", "agents", "log", "save", "out", "games"}


def _kind_value(kind: str):
    """The argparse ``type`` of a :class:`~haunted_kit.protocol.GameOption` kind."""
    def whole(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    return {"int": whole, "ints": _int_list, "str": str}[kind]


def add_game_options(parser, game, *, grid: bool = False) -> None:
    """Add ``game``'s declared options (its ``options``, each a
    :class:`~haunted_kit.protocol.GameOption`) to the subcommand ``parser`` as flags
    (``--rounds N``, ``--mode WORD``, ``--ghost-cards N,N``), each stored under its
    ``new_game`` keyword; read them back with :func:`game_option_values`. ``grid``: a flag
    takes several values to try (``--rounds 2,3``; an ``"ints"`` option is repeated, one
    list each, ``none`` for the empty one), as ``simulate`` plays every combination.
    :func:`main` calls it for the commands of :data:`GAME_OPTION_COMMANDS` with the game
    their ``--game`` names (default :data:`~haunted_kit.games.DEFAULT_GAME`).

    Raises:
        ValueError: a declared keyword that is one of the command line's own options
        (``players``, ``seed``...), which no flag could carry."""
    for o in game_options(game):
        if o.keyword in _RESERVED:
            raise ValueError(f"{game.name}: option {o.keyword!r} is a keyword every tool sets itself")
        flags = [f"--{f}" for f in (o.flag, *o.aliases)]  # an alias: the flag's earlier name, still taken
        shown = ",".join(map(str, o.default)) if isinstance(o.default, (list, tuple)) else o.default
        default = f"; default {shown}" if shown not in (None, "") else ""
        if o.choices:  # a word option's values, each with its words
            default = "; one of " + ", ".join(f"{v} ({w})" for v, w in o.choices) + default
        metavar = {"int": "N", "str": "WORD", "ints": "N,N"}[o.kind]
        if grid and o.kind == "ints":
            parser.add_argument(*flags, dest=o.keyword, action="append", default=None, metavar=metavar,
                                help=f"{o.help}; one set to try, 'none' for the empty one, repeat for several{default}")
        elif grid:
            parser.add_argument(*flags, dest=o.keyword, default=None, metavar=f"{metavar},{metavar}",
                                type=lambda t, k=o.kind: [_kind_value(k)(x.strip()) for x in t.split(",") if x.strip()],
                                help=f"{o.help}; values to try, separated by commas{default}")
        else:
            parser.add_argument(*flags, dest=o.keyword, default=None, metavar=metavar, type=_kind_value(o.kind),
                                help=f"{o.help}{default}")


def game_option_values(parser, game, args, *, grid: bool = False) -> dict:
    """The ``new_game`` keywords of ``game``'s declared options read from ``args`` (added
    by :func:`add_game_options`): each given value checked
    (:meth:`~haunted_kit.protocol.GameOption.check`, a usage error naming the flag), each
    option not given its declared default, options without a default left out. ``grid``:
    keyword -> the list of values to try (a given value twice is left to the grid to
    refuse). The game's own check of the combination is :func:`_check_settings`."""
    out = {}
    for o in game_options(game):
        given = getattr(args, o.keyword, None)
        if grid and o.kind == "ints" and given is not None:
            try:
                given = [[] if t.strip().lower() in ("none", "") else _int_list(t) for t in given]
            except argparse.ArgumentTypeError as exc:
                parser.error(f"argument --{o.flag}: {exc}")
        if given is None or (grid and not given):
            if o.default is not None:
                out[o.keyword] = [o.default] if grid else o.default
            continue
        try:
            out[o.keyword] = [o.check(v) for v in given] if grid else o.check(given)
        except ValueError as exc:
            parser.error(str(exc))
    return out


def _foreign_flags(argv: list, name: str) -> str | None:
    """The usage message for flags in ``argv`` (left over by the parser) that are another
    registered game's options, e.g. ``"--mode and --ghost-cards belong to Haunted Lands,
    not to --game landmarks"``; None when none is. Imports the other games: an error path."""
    given = {a.split("=", 1)[0] for a in argv if a.startswith("--")}
    owners, flags = [], []
    for other in game_names():
        if other == name:
            continue
        theirs = ["--" + f for o in game_options(get_game(other)) for f in (o.flag, *o.aliases)]
        if given & set(theirs):
            owners.append(get_game(other).title)
            flags += [f for f in theirs if f not in flags]
    if not owners:
        return None
    return f"{' and '.join(flags)} belong to {' and '.join(owners)}, not to --game {name}"


def _named_game(argv: list) -> str:
    """The game ``--game NAME`` (or ``--game=NAME``) names in ``argv``, else the default."""
    for i, a in enumerate(argv):
        if a == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--game="):
            return a.split("=", 1)[1]
    return DEFAULT_GAME


def game_cli(name: str):
    """The ``cli`` module of game ``name`` (:func:`haunted_kit.games.game_module`), e.g.
    :mod:`haunted_kit.haunted.cli`: ``summary(state, names=None) -> str``; optionally
    ``play_game(players, seed, agents, *, box, log, **options) -> (state, agent names)``
    (else :func:`haunted_kit.play.play_game` plays it), ``check_settings(box, *, players, seed, **options)`` (ValueError
    for options that make no game) and ``handout(parser, args, box) -> int``. Everything
    else (usage checks, boxes, saves, logs, teacher copies) is shared, here.

    A game needs no ``cli`` module: ``play``, ``replay`` and ``simulate`` then use the
    kit's loop and :func:`protocol_summary`; ``handout`` says it is not available for
    it. Returns ``None`` for a game without one.

    Raises:
        UnknownGame: ``name`` is not registered.
    """
    return game_module(name, "cli")


def summary(state, names=None) -> str:
    """A readable summary of a finished (or running) game of any registered game: its
    ``cli.summary`` when it has one (for Haunted Lands each player's valor with the
    quests' share and the winner or the collective loss, for the estate income, holdings
    and gold value, for Landmarks the points by source), else :func:`protocol_summary`.
    ``names``: the agents of the seats, if known.

    Raises:
        UnknownGame: ``state`` is no registered game's state."""
    game = game_of(state)
    own = getattr(game_cli(game.name), "summary", None)
    return own(state, names) if own is not None else protocol_summary(game, state, names)


def protocol_summary(game, state, names=None) -> str:
    """The summary of a game with no ``cli.summary``, from the protocol alone: the title,
    the number of players and whether the game is over, then per player its result (the
    Game's ``seat_results`` score and rank when it has them, else ``returns()`` under the
    Game's ``score_name`` when it declares one), its
    agent and its decisions, e.g. ``"Nim, 2 players, over. P1 (greedy): returns 1, 4
    decisions; P2 (random): returns 0, 3 decisions."``"""
    made = [0] * state.players
    for e in state.history():
        if not e.chance:
            made[e.player] += 1
    seats = getattr(game, "seat_results", None)
    if seats is not None:
        results = [f"{getattr(game, 'score_name', 'score')} {r['score']:g}, rank {r['rank']}" for r in seats(state)]
    else:
        results = [f"{getattr(game, 'score_name', None) or 'returns'} {v:g}" for v in state.returns()]
    parts = [f"P{p + 1}{f' ({names[p]})' if names else ''}: {results[p]}, {made[p]} decision{'s' * (made[p] != 1)}"
             for p in range(state.players)]
    status = "over" if state.is_terminal() else "still running"
    return f"{game.title}, {state.players} players, {status}. " + "; ".join(parts) + "."


def play_game(name: str, players: int, seed: int, agents, *, box, log: bool = False, **options):
    """Play game ``name`` with bots seated by the kit's rule: the kit's one play loop
    (:func:`haunted_kit.play.play_game`), or the game's ``cli.play_game`` when it has one
    (Haunted Lands, which turns ``--mode``/``--ghost-cards`` into its configuration and
    then plays the same loop). Returns ``(terminal state, agent names)``. Raises ValueError
    for settings the box cannot play."""
    if box is not None:  # None: a game with no default_box plays its own default
        options["box"] = box
    hook = getattr(game_cli(name), "play_game", None)
    if hook is not None:
        return hook(players, seed, agents, log=log, **options)
    return play_with_bots(name, players=players, seed=seed, agents=agents, log=log, **options)


def _write_log(state, path: Path) -> None:
    """Write the event log atomically: CSV for a ``.csv`` path, else JSON lines."""

    if path.suffix.lower() == ".csv":
        frame = state.events()
        frame["data"] = [json.dumps(d, sort_keys=True) for d in frame["data"]]
        frame["cell"] = [json.dumps(list(c)) if isinstance(c, (tuple, list)) else None for c in frame["cell"]]
        atomic_write(path, lambda fh: frame.to_csv(fh, index=False))
    else:
        log = getattr(state, "log", None)  # the kit's Event list; a game without one: its events() rows
        rows = [e.to_dict() for e in log] if log is not None else state.events().to_dict("records")
        atomic_write(path, "".join(json.dumps(r, default=str) + "\n" for r in rows))


def _box(parser, game, path, game_option: bool = False):
    """``game``'s box at ``path`` (its reference box, the optional ``default_box()``, for
    None; ``None`` for a game without one); a box that does not load is a usage error
    naming file, entry and problem (:func:`_bad_box`; ``game_option``: the command has
    ``--game``), and so is a ``--box`` for a game without ``load_box``."""
    if path is None and getattr(game, "default_box", None) is None:
        return None
    if path is not None:
        try:
            game_hook(game, "load_box", "--box")
        except MissingHook as exc:
            parser.error(str(exc))
    try:
        box = game.default_box() if path is None else game.load_box(path)
    except ValueError as exc:  # the game's BoxError
        if path is None:
            parser.error(f"the {'reference' if game.name == DEFAULT_GAME else game.name} box does not load: {exc}")
        _bad_box(parser, path, exc, game.name, game_option)
    return checked_box(game, box, "default_box" if path is None else "load_box", parser.prog.split()[-1])


def _bad_box(parser, path, exc, game: str, game_option: bool):
    """The usage error (exit 2) for a ``--box`` that does not load as ``game``'s: the
    loader's message, and when the folder is another registered game's box, which one
    (with ``try --game NAME`` if the command has ``--game``), as ``check-box`` says."""
    msg = f"--box {path}: {exc}"
    other = _box_game(Path(path), exclude=game)
    if other is not None:
        msg += f"; {path} is the {other!r} game's box" + (f": try --game {other}" if game_option
                                                           else f", not the {game!r} game's")
    parser.error(msg)


def _player_range(parser, box, game) -> tuple[int, int, str]:
    """``(low, high, what)``: the player counts ``box`` plays (``box`` None: ``game``'s
    ``min_players``..``max_players``); a box without them is a usage error saying so."""
    if box is None:
        return game.min_players, game.max_players, game.title
    low, high = getattr(box, "min_players", None), getattr(box, "max_players", None)
    if low is None or high is None:
        parser.error(f"the {game.title} box {getattr(box, 'path', '')} declares no player range (min_players and "
                     f"max_players): the kit cannot tell how many players it seats")
    return low, high, "this box"


def _check_players(parser, box, players: int, game) -> None:
    """A usage error for a player count ``box`` does not play (``box`` None: ``game``'s
    ``min_players``..``max_players``)."""
    low, high, what = _player_range(parser, box, game)
    if not low <= players <= high:
        parser.error(f"argument --players: invalid choice: {players} ({what} plays {low}..{high})")


def _players(parser, box, players: int | None, game) -> int:
    """``players`` checked against ``box`` (:func:`_check_players`), or when None the
    game's default player count (:func:`~haunted_kit.games.default_players`) brought into
    the box's range."""
    if players is None:
        low, high, _ = _player_range(parser, box, game)
        return min(max(default_players(game), low), high)
    _check_players(parser, box, players, game)
    return players


def _check_settings(parser, name: str, box, players: int, seed: int, options: dict) -> None:
    """The game's own check of its options (``cli.check_settings``), as a usage error."""
    check = getattr(game_cli(name), "check_settings", None)
    if check is not None:
        try:
            check(box, players=players, seed=seed, **options)
        except ValueError as exc:
            parser.error(str(exc))


def _check_outputs(parser, outputs: dict) -> None:
    """Refuse unwritable output paths before any work (outputs over inputs or over each
    other: :func:`_check_apart`, for every command, in :func:`main`)."""
    for option, path in outputs.items():
        if path is None:
            continue
        problem = check_writable(path, "file")
        if problem:
            parser.error(f"{option} {path}: {problem}")


#: What each command reads (files or folders: a save, a box, a store it resumes...) and
#: writes (files; ``/`` after a name: a folder it writes into), by option (a positional
#: argument by its name). Every path option of every command is in one of them (a test
#: checks it), so :func:`_check_apart` sees them all.
READS = {"play": ("--box",), "replay": ("save", "--box"), "review": ("save", "--box"), "check-box": ("box",),
         "handout": ("--box",), "teacher": ("--notebooks",), "simulate": ("--box",), "compare": ("--box",),
         "classroom": ("--box",), "server": ("--box",)}
WRITES = {"play": ("--save", "--log"), "review": ("--html",), "check-box": ("--report",), "handout": ("--out",),
          "teacher": ("--out/",), "simulate": ("--out/",), "compare": ("--html", "--rows"), "server": ("--store", "--log"),
          "tutorial": ("--dir/",)}


def _io_paths(command: str, args) -> tuple[list, list]:
    """``(outputs, inputs)`` of a parsed command for :func:`haunted_kit.fileio.output_clash`,
    from :data:`READS` and :data:`WRITES`, with the paths a command derives: the reference
    box's folder (:func:`haunted_kit.boxfile.data_dir`) when the command reads it, handout's PDF
    next to its HTML, teacher's notebooks (the files it reads, so its default
    ``NOTEBOOKS/.teacher`` is apart from them) and default ``--out``."""
    def value(name):
        return getattr(args, name.strip("-/").replace("-", "_"), None)

    outputs = [(name.rstrip("/"), value(name), name.endswith("/")) for name in WRITES.get(command, ())]
    inputs = [(name, value(name)) for name in READS.get(command, ())]
    if outputs and "--box" in READS.get(command, ()) and (command == "compare" or args.box is None):
        try:  # the kit's own data folder: every game's reference box (compare reads it beside --box)
            inputs.append(("the reference box", data_dir()))
        except ValueError:  # BoxError: no data folder; the command says so when it loads the box
            pass
    if command == "handout" and not args.no_pdf and args.out.suffix.lower() in (".html", ".htm"):
        outputs.append(("the PDF of --out", args.out.with_suffix(".pdf"), False))
    if command == "teacher":
        from .exercises import TEACHER_DIR  # lazy: only teacher needs it

        src = args.notebooks if args.notebooks is not None else Path(__file__).resolve().parents[1] / "notebooks"
        inputs = [("notebook", p) for p in sorted(src.glob("*.ipynb"))] if src.is_dir() else []
        if args.out is None:
            outputs = [("--out", src / TEACHER_DIR, True)]
    return outputs, inputs


def _check_apart(parser, command: str, args) -> None:
    """Usage error (exit 2, nothing written or read) when an output of ``command`` would
    write over a file it reads, into a folder it reads (a box), or over another output:
    :func:`haunted_kit.fileio.output_clash` names both."""
    problem = output_clash(*_io_paths(command, args))
    if problem:
        parser.error(problem)


def _write_outputs(writes) -> int:
    status = 0
    for path, write, what in writes:
        if path is None:
            continue
        try:
            write(path)
            print(f"{what} to {path}")
        except OSError as exc:
            print(f"haunted-kit: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
    return status


def _play(sub, args) -> int:
    """``play --game NAME``: the usage checks every game shares, the game's own options,
    then its ``cli.play_game`` with bots and its summary printed. Misuse (options of
    another game, an unknown agent, a player count the box does not play, more agents than
    seats, unwritable outputs) prints usage and exits 2 before any game is played."""
    name = args.game
    game = get_game(name)
    options = game_option_values(sub, game, args)
    _check_outputs(sub, {"--save": args.save, "--log": args.log})
    box = _box(sub, game, args.box, game_option=True)
    players = _players(sub, box, args.players, game)
    _check_settings(sub, name, box, players, args.seed, options)
    args.agents = args.agents or [default_agent(game)]
    _check_agents(sub, args.agents, name)
    if len(args.agents) > players:
        sub.error(f"{len(args.agents)} agents given for {players} players")
    try:
        s, names = play_game(name, players, args.seed, args.agents, box=box, log=args.log is not None, **options)
    except ValueError as exc:  # the game's configuration error
        sub.error(str(exc))
    print(summary(s, names))
    return _write_outputs(((args.save, s.save, "Final state saved"),
                           (args.log, lambda p: _write_log(s, p), "Event log written")))


def _load_save(sub, args):
    """The state of save ``args.save``, rebuilt by :func:`haunted_kit.games.load_state` (the
    box check, then its game's ``from_dict``; a save naming no game is Haunted Lands'), or ``None`` after printing one line (unreadable or corrupt)."""
    data = _save_data(args.save, args.max_bytes)
    named = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME  # Haunted Lands saves name no game
    if named not in game_names():
        print(f"haunted-kit: {args.save}: {_game_field_problem(data, named)}", file=sys.stderr)
        return None
    game = get_game(named)
    box = _box(sub, game, args.box)
    try:
        if data is None:  # read again for the reason: unreadable, too large, not UTF-8 or not JSON
            read_json(args.save, args.max_bytes, what="save")
        return load_state(game, data, box)
    except ValueError as exc:  # the game's SaveError naming the field, or BoxMismatch naming the box
        wrong = _wrong_game(data, named, args.box)
        print(f"haunted-kit: {f'{args.save}: {wrong}' if wrong else exc}", file=sys.stderr)
        return None


def _replay(sub, args) -> int:
    """``replay``: the save rebuilt (:func:`_load_save`) and its summary printed (exit 0);
    an unreadable or corrupt save is one line and exit 1."""
    s = _load_save(sub, args)
    if s is None:
        return 1
    print(summary(s))
    return 0


def _review(sub, args) -> int:
    """``review``: the save rebuilt (:func:`_load_save`) and reviewed
    (:func:`haunted_kit.review.review`), the report printed and, with ``--html``, written.
    Misuse (a missing save file, a seat the game does not have, an unwritable --html)
    prints usage and exits 2; a corrupt save or one whose record does not re-play is one
    line and exit 1."""
    from .review import DEFAULT_PLAYOUTS, review  # lazy: the search and the review load only for this command

    if not args.save.is_file():
        sub.error(f"argument save: no such file: {args.save}")
    _check_outputs(sub, {"--html": args.html})
    s = _load_save(sub, args)
    if s is None:
        return 1
    if args.seat > s.players:
        sub.error(f"argument --seat: this game has {s.players} players (seats 1..{s.players}), got {args.seat}")
    try:
        r = review(s, seat=args.seat - 1, playouts=args.playouts or DEFAULT_PLAYOUTS, seed=args.seed)
    except ValueError as exc:  # ReviewError (a record that does not re-play), MissingHook
        print(f"haunted-kit: {args.save}: {exc}", file=sys.stderr)
        return 1
    print(r.text())
    return _write_outputs(((args.html, r.save_html, "Review written"),))


def _loads_as(data, exclude: str) -> str | None:
    """The registered game, other than ``exclude``, whose loader (with its reference
    box) reads the save ``data`` once its ``game`` field names that game; else None."""
    for name in game_names():
        if name == exclude:
            continue
        d = {k: v for k, v in data.items() if k != "game"}
        if name != DEFAULT_GAME:  # the default game's saves name no game
            d["game"] = name
        try:
            load_state(get_game(name), d)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):  # not that game's save either
            continue
        return name
    return None


def _game_field_problem(data, named) -> str:
    """What is wrong with a save's ``game`` field: an unknown game, or a known one that is
    not the game the save holds; names the known games and, when another game's loader
    reads the save, the value to write."""
    said = f"unknown game {named!r}" if named not in game_names() else f"names {named!r}, whose loader refuses this save"
    other = _loads_as(data, named) if isinstance(data, dict) else None
    tail = f"; it reads as the {other!r} game's save: set \"game\": \"{other}\"" if other else ""
    return f"save field 'game': {said} (known games: {', '.join(game_names())}){tail}"


def _wrong_game(data, named, box_path) -> str | None:
    """The message for a save that ``named``'s loader refused but another game's loader
    reads (its ``game`` field is wrong), else None (the loader's own message stands).
    Saves made with a house-rule box (``--box``) are not guessed at."""
    if box_path is not None or not isinstance(data, dict) or _loads_as(data, named) is None:
        return None
    return _game_field_problem(data, named)


def _save_data(path, max_bytes):
    """The JSON of a save, or ``None`` when it cannot be read (the Haunted Lands loader
    then says why: unreadable, too large, not UTF-8 or not JSON)."""
    try:
        return read_json(path, max_bytes, what="save")
    except ValueError:
        return None


def _box_game(path: Path, exclude: str) -> str | None:
    """The name of the registered game (other than ``exclude``) whose box loads from
    ``path``, or None: the hint for a ``check-box`` run with the wrong ``--game``."""
    for name in game_names():
        load = getattr(get_game(name), "load_box", None)
        if name == exclude or load is None:  # a game without load_box reads no box
            continue
        try:
            load(path)
        except Exception:  # noqa: BLE001 - not this game's box either (a broken loader of another game included)
            continue
        return name
    return None


def _check_box(sub, args) -> int:
    from .testing import check_box  # lazy: only check-box needs it (see the note at the top)

    try:
        game = get_game(args.game)
    except UnknownGame as exc:
        sub.error(f"--game: {exc}")
    try:
        check_seed(args.seed + args.games - 1, "the last seed (--seed + --games - 1)")
        check_seed(args.seed + args.bot_games - 1, "the bots' last seed (--seed + --bot-games - 1)")
    except ValueError as exc:
        sub.error(str(exc))
    if not args.box.is_dir():
        sub.error(f"{args.box}: {'is not a folder' if args.box.exists() else 'no such folder'}")
    _check_outputs(sub, {"--report": args.report})
    try:
        load = game_hook(game, "load_box", "check-box")
    except MissingHook as exc:
        sub.error(str(exc))
    try:
        box = checked_box(game, load(args.box), "load_box", "check-box")
    except ValueError as exc:  # BoxError (or a companion module's own box error)
        print(f"haunted-kit check-box: the box does not load: {exc}", file=sys.stderr)
        other = _box_game(args.box, exclude=game.name)
        if other is not None:
            print(f"haunted-kit check-box: {args.box} loads as the {other!r} game's box: "
                  f"try `haunted-kit check-box {args.box} --game {other}`", file=sys.stderr)
        return 1
    report = check_box(box, game=game, games=args.games, seed=args.seed, max_steps=args.max_steps,
                       bot_games=args.bot_games, progress=not args.no_progress and sys.stderr.isatty())
    print(report)
    status = _write_outputs(((args.report, lambda p: atomic_write(p, report.to_frame().to_csv(index=False)),
                              "Report written"),))
    return 1 if report.failures or report.capped else status


#: the hooks whose ValueError refuses what the command was asked (a grid cell, a player count): usage, exit 2
USAGE_HOOKS = ("new_game", "check_settings")


def _raise_game_fault(exc: ValueError, tool: str) -> None:
    """Raise :class:`~haunted_kit.games.HookFailed` (exit 1, the game named) when ``exc``
    came from a game's hook other than the ones that refuse a setting (:data:`USAGE_HOOKS`);
    else return (the caller reports usage)."""
    failed = hook_failure(exc, tool)
    if failed is not None and failed.hook not in USAGE_HOOKS:
        raise failed from None


def _compare(sub, args) -> int:
    """``compare``: the usage checks (a missing box folder, a box of another game, player
    and game counts, agents, options (the game's declared ones too, e.g. Landmarks'
    ``--rounds``: :func:`add_game_options`), the --html and --rows paths: usage and exit
    2), a house-rule box
    that does not load (its BoxError in one line, exit 1), then
    :func:`haunted_kit.compare.compare`'s table printed, the HTML and the per-game rows
    (:meth:`~haunted_kit.compare.Comparison.write_games`) written."""
    from .compare import compare  # lazy: only compare needs it; it pulls simulate (see the note at the top)
    from .simulate import SchedulerError  # lazy: as above

    name = args.game
    if not args.box.is_dir():
        sub.error(f"--box {args.box}: {'is not a folder' if args.box.exists() else 'no such folder'}")
    _check_outputs(sub, {"--html": args.html, "--rows": args.rows})
    game = get_game(name)
    options = game_option_values(sub, game, args)
    try:
        house = checked_box(game, game_hook(game, "load_box", "compare")(args.box), "load_box", "compare")
    except MissingHook as exc:
        sub.error(str(exc))
    except (ValueError, OSError) as exc:  # the game's BoxError
        other = _box_game(args.box, exclude=name)
        if other is not None:
            sub.error(f"--box {args.box} is the {other!r} game's box, not the {name!r} game's: try --game {other}")
        print(f"haunted-kit compare: the box {args.box} does not load: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    reference = _box(sub, game, None)
    players = _players(sub, reference, args.players, game)
    for box in (reference, house):
        _check_players(sub, box, players, game)
        _check_settings(sub, name, box, players, args.seed, options)
    args.agents = args.agents or [default_agent(game)]
    _check_agents(sub, args.agents, name)
    if len(args.agents) > players:
        sub.error(f"{len(args.agents)} agents given for {players} players")
    try:
        report = compare(house, game=name, reference=reference, games=args.games, seed=args.seed, players=players,
                         agents=",".join(args.agents), options=options, workers=args.workers, dask=args.dask,
                         scheduler=args.scheduler, progress=not args.no_progress)
    except SchedulerError as exc:
        print(f"haunted-kit: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a grid cell a box cannot play (usage); another hook's error: the game's fault
        _raise_game_fault(exc, "compare")
        sub.error(str(exc))
    print(report.table())
    print(f"Both boxes played and compared in {report.seconds:.1f} s.")
    return _write_outputs(((args.html, report.write_html, "HTML report written"),
                           (args.rows, report.write_games, "Per-game rows written")))


def _classroom(sub, args) -> int:
    # lazy: only classroom needs it (see the note at the top)
    from .classroom import serve

    game = get_game(DEFAULT_GAME)  # the classroom notebook plays the default game
    box = _box(sub, game, args.box)
    players = _players(sub, box, args.players, game)
    # the notebook's kernel would fail later, out of sight: check the game here
    _check_settings(sub, game.name, box, players, args.seed, {"mode": args.mode})
    if args.bots is not None and any(not 1 <= b <= players for b in args.bots):
        sub.error(f"--bots: bot seats must be between 1 and {players}, got {','.join(map(str, args.bots))}")
    return serve(players=players, mode=args.mode, seed=args.seed, bots=args.bots, port=args.port,
                 open_browser=not args.no_browser, box=args.box, size=args.size, hints=not args.no_hints,
                 hint_playouts=args.hint_playouts, kernel_idle=args.kernel_idle, max_kernels=args.max_kernels,
                 allow_hosts=args.allow_host)


#: the app ``tutorial`` opens its notebook with: the kit's Voila (:func:`haunted_kit.classroom.voila_main`),
#: whose page holds the notebook's outputs in a main landmark, with the classroom app's kernel cap and Host check
TUTORIAL_APP = "haunted_kit.classroom"


def _tutorial(sub, args) -> int:
    """``tutorial``: write the tutorial notebook of ``--game`` into ``--dir`` and open it
    (Voila, or JupyterLab with ``--lab``) unless ``--no-open``. Exit 0, 1 when the folder
    cannot be written or the app does not start."""
    import subprocess  # lazy: only this command starts an app

    from .tutorial import write_notebook  # lazy: only this command needs it

    if args.dir.exists() and not args.dir.is_dir():
        sub.error(f"--dir: {args.dir} is a file, not a folder")
    name = f"tutorial-{args.game}.ipynb"
    try:
        path = write_notebook(args.game, args.dir / name, args.seed)
    except OSError as exc:
        print(f"haunted-kit: cannot write the tutorial notebook into {args.dir}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    module = ["-m", "jupyterlab"] if args.lab else ["-m", TUTORIAL_APP]
    # the app through this very interpreter: its venv's bin may not be on the shell's PATH
    app = [sys.executable, *module]
    # the app's own flags (Voila and JupyterLab spell them alike)
    flags = ([f"--port={args.port}"] if args.port is not None else []) + (["--no-browser"] if args.no_browser else [])
    print(f"Wrote {path}: a first game of {get_game(args.game).title} that teaches itself.")
    print(f"To open it: cd {shlex.quote(str(args.dir))} && {shlex.join([*app, name, *flags])}   "
          "(or open it in JupyterLab and run its cell)")
    if args.port is None:
        print(f"It serves on port {8888 if args.lab else 8866} by default (open the address it prints); "
              "haunted-kit tutorial --port N chooses another.")
    if args.no_open:
        return 0
    print("Opening it now; Ctrl-C stops the app (your progress is kept).", flush=True)
    try:
        return subprocess.call([sys.executable, *module, name, *flags], cwd=args.dir)
    except OSError as exc:
        print(f"haunted-kit: cannot start {' '.join(app)}: {exc}", file=sys.stderr)
        return 1


def _game_command(sub, name: str, command: str):
    """Game ``name``'s hook for ``command`` (``handout``, ``teacher``: a function of its
    ``cli`` module); a game without it is a usage error (exit 2) saying so."""
    hook = getattr(game_cli(name), command, None)
    if hook is None:
        sub.error(f"{command} is not available for --game {name}")
    return hook


def _handout(sub, args) -> int:
    """``handout``: the game's printable handout (its ``cli.handout(parser, args, box)``)."""
    hook = _game_command(sub, args.game, "handout")
    game = get_game(args.game)
    box = _box(sub, game, args.box)  # another game's box is named, not offered: --game chose the handout
    args.players = _players(sub, box, args.players, game)
    return hook(sub, args, box)


def _teacher(sub, args) -> int:
    """``teacher``: the teacher copies of every notebook holding exercises of any game (or
    of ``--game``), into ``NOTEBOOKS/.teacher``; the notes come from each game's
    ``exercises`` module (``EXERCISES``, ``exercise_note``). Exit 0 written (or nothing to
    write), 1 a notebook or folder that fails, 2 misuse."""
    from .exercises import TEACHER_DIR, exercise_notes, write_teacher_copies  # lazy: only teacher needs it

    names = [args.game] if args.game is not None else game_names()
    modules = [m for m in (game_module(n, "exercises") for n in names) if m is not None and hasattr(m, "exercise_note")]
    if not modules:
        sub.error(f"teacher is not available for --game {args.game}: it has no exercises")
    src = args.notebooks if args.notebooks is not None else Path(__file__).resolve().parents[1] / "notebooks"
    if not src.is_dir():
        sub.error(f"--notebooks {src}: {'is not a folder' if src.exists() else 'no such folder'}")
    out = args.out if args.out is not None else src / TEACHER_DIR
    try:
        written = write_teacher_copies(sorted(src.glob("*.ipynb")), out, exercise_notes(modules))
    except (ValueError, KeyError) as exc:  # a notebook that is not nbformat JSON, an exercise that fails
        print(f"haunted-kit teacher: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"haunted-kit teacher: cannot write to {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    if not written:
        print(f"no notebook in {src} holds an exercise; nothing written")
    return 0


def _simulate_interrupted(out, kept: int | None = None, total: int | None = None) -> int:
    """The one message of an interrupted ``simulate`` (exit 130): what is kept and how to resume."""
    what = f"{kept} of {total} games are kept" if kept is not None else "the games finished so far are kept"
    print(f"Interrupted: {what} in {out}; run the same command again to resume.", file=sys.stderr)
    return 130


def _simulate(parser, args) -> int:
    # lazy: only simulate needs these; they pull multiprocessing and the search agent (see the note at the top)
    from .bots import BotSpecError, parse_lineup
    from .simulate import DatasetError, Grid, SchedulerError, load_dataset, simulate

    game = get_game(args.game)
    options = game_option_values(parser, game, args, grid=True)
    players = args.players or [default_players(game)]
    try:
        lineups = [",".join(parse_lineup(x)) for x in (args.agents or [default_agent(game)])]
        grid = Grid(game=args.game, players=tuple(players), options=options, lineups=tuple(lineups),
                    games=args.games, first_seed=args.first_seed)
    except (BotSpecError, ValueError) as exc:
        parser.error(str(exc))
    box = None
    if args.box is not None:  # a house-rule box of the grid's game (each game reads its own files)
        try:
            load = game_hook(get_game(args.game), "load_box", "--box")
        except MissingHook as exc:
            parser.error(str(exc))
        try:
            box = load(args.box)
        except (ValueError, OSError) as exc:
            _bad_box(parser, args.box, exc, args.game, game_option=True)
    try:
        grid.check(box)
        report = simulate(grid, args.out, box=box, workers=args.workers, dask=args.dask, scheduler=args.scheduler,
                          events=args.events, progress=not args.no_progress, connect_timeout=args.connect_timeout)
    except SchedulerError as exc:  # before OSError: it is one (a ConnectionError), but nothing failed to write
        print(f"haunted-kit: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a bad grid cell, a dataset of another grid (DatasetError)
        if isinstance(exc, DatasetError):
            print(f"haunted-kit: {exc}", file=sys.stderr)
            return 1
        _raise_game_fault(exc, "simulate")
        parser.error(str(exc))
    except OSError as exc:
        print(f"haunted-kit: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a Ctrl-C that lands outside simulate's own play loop (starting or
        return _simulate_interrupted(args.out)  # stopping the workers): the parts written are kept all the same
    if report.removed:
        print(f"Removed {len(report.removed)} partial part file{'s' * (len(report.removed) != 1)} left by a killed run "
              f"({', '.join(os.path.relpath(p, args.out) for p in report.removed)} in {args.out}); their games were played again.", file=sys.stderr)
    if report.interrupted:
        return _simulate_interrupted(args.out, report.resumed + report.played, report.total)
    frame = load_dataset(args.out)
    print(f"{report.total} games ({len(frame)} rows) in {args.out}: {report.played} played now, {report.resumed} already there.")
    capped = frame[frame["capped"]] if "capped" in frame else frame.iloc[:0]
    if len(capped):
        seeds = sorted(set(capped["seed"]))
        print(f"WARNING: {capped['game_id'].nunique()} games did not end within the decision cap and were stopped "
              f"there (rows with capped = true, no result; left out below): seeds "
              f"{', '.join(map(str, seeds[:20]))}{' ...' if len(seeds) > 20 else ''}; box: "
              f"{box_words(get_game(args.game), box)}. Check the box with 'haunted-kit check-box'.", file=sys.stderr)
        frame = frame[~frame["capped"]]
    game = get_game(args.game)
    columns = dict(games=("game_id", "nunique"), win_rate=("won", "mean"), mean_score=("score", "mean"))
    meanings = {m["name"]: m["meaning"] for m in frame.attrs["metadata"]["schema"]}
    if meanings["collective_loss"] != SCORE_ONLY_MEANINGS["collective_loss"]:  # else always false: no column
        columns["collective_loss"] = ("collective_loss", "mean")
    if frame.empty:
        print("No game ended within the decision cap: no figures to show.")
        return 0
    # one line per grid cell and seat agent: the options and lineups the grid varies are kept apart
    frame = frame.assign(options=frame["options"].map(_options_label))
    keys = ["players", *(k for k in ("options", "lineup") if frame[k].nunique() > 1), "agent"]
    table = frame.groupby(keys).agg(**columns).reset_index()
    won = meanings["won"]
    print(f"score: {getattr(game, 'score_name', 'score')}. win_rate: games won, where won = {won}.")
    print(table.round(3).to_string(index=False))
    return 0


def _options_label(text: str) -> str:
    """A dataset's ``options`` JSON as ``name=value`` pairs joined by ``;``, with no space
    (``extra_ghost_cards=[2,3];mode=wanderer``): one word in the summary's table."""
    return ";".join(f"{k}={v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}"
                    for k, v in json.loads(text).items()) or "-"


def _server(sub, args) -> int:
    # lazy: only server needs these; they pull tornado and sqlite3 (see the note at the top)
    from .server import serve as serve_tables
    from .store import StoreError

    game = get_game(args.game)  # the first table's game
    options = game_option_values(sub, game, args)
    box = _box(sub, game, args.box, game_option=True)
    players = _players(sub, box, args.players, game)
    asked = args.players is not None or args.seed is not None or bool(args.bots) or args.box is not None
    args.seed = 1 if args.seed is None else args.seed
    _check_settings(sub, game.name, box, players, args.seed, options)
    if any(not 1 <= b <= players for b in args.bots):
        sub.error(f"--bots: bot seats must be between 1 and {players}, got {','.join(map(str, args.bots))}")
    _check_outputs(sub, {"--store": args.store, "--log": args.log})
    # a first table only when asked for: an empty store otherwise opens on the new-table form
    first = {"game": game.name, "players": players, "seed": args.seed, **options,
             "box": args.box, "bots": [b - 1 for b in args.bots]} if asked else None
    try:
        return serve_tables(args.store, ip=args.ip, port=args.port, allow_hosts=args.allow_host, size=args.size,
                            bot_delay=args.bot_delay, first_table=first, log_path=args.log, new_token=args.new_token,
                            compress=args.compress, game=game.name,
                            tutorial=args.tutorial)
    except StoreError as exc:
        print(f"haunted-kit server: {exc}", file=sys.stderr)
        if "--store" not in str(exc):  # the store file itself is refused: what to do, the file kept as it is
            print(f"haunted-kit server: {args.store} is kept as it is; start with another --store FILE (a new file "
                  "starts an empty store), or restore the file from a copy", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"haunted-kit server: cannot serve on {args.ip} port {args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1


_COMMANDS = {"play": _play, "simulate": _simulate, "compare": _compare, "replay": _replay, "review": _review, "check-box": _check_box, "teacher": _teacher,
             "handout": _handout, "classroom": _classroom, "server": _server, "tutorial": _tutorial}


def main(argv=None) -> int:
    """Run the command line; returns the exit status (0 fine, 1 failed, 2 misuse,
    130 interrupted)."""
    try:
        argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
        ap = build_parser()
        subs = {a.dest: a for a in ap._actions if isinstance(a, argparse._SubParsersAction)}["command"].choices
        name = _named_game(argv)
        command = argv[0] if argv else None
        if command in GAME_OPTION_COMMANDS and name in game_names():  # an unknown --game: its parser's choices refuse it
            add_game_options(subs[command], get_game(name), grid=GAME_OPTION_COMMANDS[command])
        args, extra = ap.parse_known_args(argv)
        sub = subs[args.command]
        if extra:
            sub.error(_foreign_flags(extra, getattr(args, "game", None) or DEFAULT_GAME)
                      or f"unrecognized arguments: {' '.join(extra)}")
        _check_apart(sub, args.command, args)
        return _COMMANDS[args.command](sub, args)
    except KeyboardInterrupt:
        print("haunted-kit: interrupted", file=sys.stderr)
        return 130
    except DecisionCapReached as exc:  # a game that did not end: its seed and box, no traceback
        print(f"haunted-kit: {exc}", file=sys.stderr)
        return 1
    except HookFailed as exc:  # a game's hook returned what the kit cannot read: the game's fault, named
        print(f"haunted-kit {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. `haunted-kit replay save.json | head -1`: the reader left

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    except Exception as exc:  # noqa: BLE001 - an error a game's hook raised is the game's, named; the kit's own passes
        failed = hook_failure(exc, argv[0] if argv else "haunted-kit")
        if failed is None:
            raise
        print(f"haunted-kit {failed}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
