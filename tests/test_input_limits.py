"""Every number a user types is refused with a clear message or is finite and in its
range: bot specs (every game of the registry) and every numeric option of every
subcommand (read from the parser itself), fuzzed with hypothesis."""

import argparse
import contextlib
import io
import math

import pytest
from hypothesis import given, settings, strategies as st

from haunted_kit import limits
from haunted_kit.bots import BotSpecError, make_bot
from haunted_kit.cli import build_parser, main
from haunted_kit.games import game_names
from haunted_kit.search import SearchAgent

# what people type, and what breaks parsers: NaN, infinities, overflowing floats, huge
# and negative integers, ints written as floats, text
NUMBER_TEXT = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999", "0", "-0", "0.0", "1", "1.5", "1e3",
                     "0x10", "1_000", "", " ", "9" * 30, "-" + "9" * 30, "None", "full"]),
    st.floats().map(repr), st.floats(allow_nan=False).map(str), st.integers().map(str),
    st.integers(-10, 2_000_000).map(str), st.text(max_size=12))

KEYS = ["playouts", "seconds", "exploration", "rollout_depth", "rollout", "prior", "depth"]


def _spec(draw_pairs) -> str:
    return "search[" + ",".join(f"{k}={v}" for k, v in draw_pairs) + "]"


SPECS = st.one_of(st.lists(st.tuples(st.sampled_from(KEYS), NUMBER_TEXT), max_size=4).map(_spec),
                  st.text(max_size=30), st.sampled_from(["greedy", "random", "search", "search[]", "greedy[seconds=1]"]))


def _in_range(value, low, high, above=False) -> bool:
    return math.isfinite(value) and (low < value if above else low <= value) and value <= high


def assert_search_in_range(bot: SearchAgent) -> None:
    assert limits.PLAYOUTS_RANGE[0] <= bot.playouts <= limits.PLAYOUTS_RANGE[1] and type(bot.playouts) is int
    assert bot.seconds is None or _in_range(bot.seconds, *limits.SEARCH_SECONDS_RANGE, above=True)
    assert _in_range(bot.exploration, *limits.EXPLORATION_RANGE)
    depth = bot.rollout_depth
    assert depth in ("auto", None) or (type(depth) is int and limits.ROLLOUT_DEPTH_RANGE[0] <= depth <= limits.ROLLOUT_DEPTH_RANGE[1])


@pytest.mark.parametrize("game", game_names())
@settings(deadline=None)  # the first example loads the game
@given(spec=SPECS)
def test_a_bot_spec_is_refused_clearly_or_all_its_settings_are_in_range(game, spec):
    try:
        bot = make_bot(spec, 0, game)
    except BotSpecError as exc:
        assert str(exc).strip()
        return
    if isinstance(bot, SearchAgent):
        assert_search_in_range(bot)


@pytest.mark.parametrize("spec, needle", [
    ("search[seconds=inf]", "seconds must be a finite number more than 0 and at most 3,600, got inf"),
    ("search[seconds=nan]", "seconds must be a finite number more than 0 and at most 3,600, got nan"),
    ("search[seconds=0]", "seconds must be a finite number more than 0"),
    ("search[seconds=1e999]", "got inf"),
    ("search[exploration=nan]", "exploration must be a finite number from 0 to 100, got nan"),
    ("search[exploration=-0.5]", "exploration must be a finite number from 0 to 100, got -0.5"),
    ("search[playouts=0]", "playouts must be a whole number from 1 to 1,000,000, got 0"),
    ("search[playouts=10000000000]", "got 10000000000"),
    ("search[playouts=1e3]", "playouts='1e3' is not a whole number"),
    ("search[rollout_depth=-3]", "rollout_depth must be a whole number from 0 to 100,000, got -3"),
    ("search[playouts=5,playouts=6]", "playouts is given twice"),
])
def test_the_issue_s_specs_are_refused_naming_the_setting(spec, needle):
    for game in game_names():
        with pytest.raises(BotSpecError, match=needle.replace("[", r"\[")):
            make_bot(spec, 0, game)


@pytest.mark.parametrize("kwargs", [{"seconds": math.inf}, {"exploration": math.nan}, {"playouts": True},
                                    {"playouts": 2.0}, {"rollout_depth": 10 ** 9}, {"exploration": float("-inf")}])
def test_search_agent_in_python_refuses_the_same(kwargs):
    with pytest.raises(ValueError, match="must be a"):
        SearchAgent(0, **kwargs)


def test_play_refuses_an_endless_search_budget_before_playing(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "--agents", "search[seconds=inf],greedy"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith("usage:") and "Traceback" not in err
    assert "argument --agents: search setting: seconds must be a finite number" in err


# ------------------------------------------------------------------ every numeric option

def _subparsers():
    ap = build_parser()
    action = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return ap, action.choices


#: the arguments a command needs before its options parse (positional or required)
REQUIRED = {"replay": ["save.json"], "review": ["save.json"], "check-box": ["box"], "simulate": ["--out", "x"],
            "compare": ["--box", "x"]}


PARSER = build_parser()


def _numeric_options():
    _, subs = _subparsers()
    out = []
    for name, sub in subs.items():
        for a in sub._actions:
            if a.option_strings and getattr(a.type, "kind", None) in ("whole", "finite"):
                out.append((name, a.option_strings[0], a.dest, a.type))
    return out


def test_no_option_reads_a_number_without_its_range():
    """Every numeric option uses a type of haunted_kit.limits (plain int/float would let
    NaN, infinities and huge values through)."""
    _, subs = _subparsers()
    plain = [(n, a.option_strings) for n, sub in subs.items() for a in sub._actions if a.type in (int, float)]
    assert plain == []
    assert len(_numeric_options()) >= 20  # the fuzz below covers them all


@pytest.mark.parametrize("command, option, dest, kind", _numeric_options(),
                         ids=[f"{c} {o}" for c, o, _, _ in _numeric_options()])
@settings(deadline=None, max_examples=60)
@given(text=NUMBER_TEXT)
def test_a_numeric_option_is_refused_as_usage_or_in_range(command, option, dest, kind, text):
    ap = PARSER
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            args = ap.parse_args([command, *REQUIRED.get(command, []), f"{option}={text}"])
    except SystemExit as exc:
        msg = err.getvalue()
        assert exc.code == 2 and msg.startswith("usage:") and "Traceback" not in msg
        assert f"argument {option}: the value must be a " in msg
        return
    value = getattr(args, dest)
    if kind.kind == "whole":
        assert type(value) is int and kind.low <= value <= kind.high
    else:
        assert type(value) is float and _in_range(value, kind.low, kind.high, kind.above)


@pytest.mark.parametrize("lineup", ["search[exploration=nan]", "greedy,search[seconds=inf]"])
def test_simulate_refuses_a_lineup_out_of_range_and_writes_nothing(tmp_path, capsys, lineup):
    from haunted_kit import simulate as S

    with pytest.raises(BotSpecError, match="search setting: "):
        S.Grid(players=(2,), lineups=(lineup,), games=1)
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--out", str(tmp_path / "d"), "--games", "1", "--players", "2", "--agents", lineup])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "search setting: " in err and "Traceback" not in err
    assert not (tmp_path / "d").exists()
