"""A benchmark's command line is read by ``argparse`` before anything runs
(``benchmarks.options``): a wrong option or value, or ``--help``, must not start minutes of
browsers, and each value a benchmark takes is checked."""

from __future__ import annotations

import argparse
import importlib
import runpy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import benchmarks
from benchmarks import (
    bench_circle_browser,
    bench_effects,
    bench_nevermore_browser,
    bench_rumble_browser,
    bench_table_browser,
    options,
)
from benchmarks.__main__ import BENCHMARKS

# Every benchmark ``make bench`` runs (``benchmarks.__main__``), and the others of the folder.
EVERY_BENCHMARK = sorted(
    {command.split()[0] for command in BENCHMARKS}
    | {f"benchmarks.{path.stem}" for path in Path(benchmarks.__file__).parent.glob("bench_*.py")}
)


def refusal(
    read: Callable[[list[str]], Any], args: list[str], capsys: pytest.CaptureFixture[str]
) -> str:
    """What the command line ``args`` is refused with (the usage error argparse prints)."""
    with pytest.raises(SystemExit) as stopped:
        read(args)
    assert stopped.value.code == 2
    return capsys.readouterr().err


# runpy warns when the module was imported before (by this file): it runs it afresh, as wanted.
@pytest.mark.filterwarnings("ignore:.*found in sys.modules after import:RuntimeWarning")
@pytest.mark.parametrize("name", EVERY_BENCHMARK)
def test_every_benchmark_refuses_a_wrong_option_before_it_starts(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run as ``python -m`` runs it, with a word it does not take, then with ``--help``."""
    monkeypatch.setattr("asyncio.run", lambda *_: pytest.fail("the benchmark started"))
    monkeypatch.setattr("sys.argv", [name, "--no-such-option"])
    with pytest.raises(SystemExit) as stopped:
        runpy.run_module(name, run_name="__main__")
    assert stopped.value.code == 2
    assert "unrecognized arguments: --no-such-option" in capsys.readouterr().err
    monkeypatch.setattr("sys.argv", [name, "--help"])
    with pytest.raises(SystemExit) as told:
        runpy.run_module(name, run_name="__main__")
    assert told.value.code == 0
    about = importlib.import_module(name).__doc__
    assert about is not None and about.strip()[:30] in capsys.readouterr().out


def test_the_rumble_benchmarks_options(capsys: pytest.CaptureFixture[str]) -> None:
    read = bench_rumble_browser.command_line
    asked = read(["--steps", "--fights", "2", "--think", "0.3-1.2", "--json", "s.json"])
    assert (asked.steps, asked.profile, asked.fights, asked.think) == (True, False, 2, (0.3, 1.2))
    assert asked.json == Path("s.json")
    assert (read([]).fights, read([]).think, read([]).json) == (1, None, None)
    flags = read(["--trace", "--path", "--profile"])
    assert (flags.trace, flags.path, flags.profile, flags.steps) == (True, True, True, False)
    assert not read([]).trace
    for wrong in ("two", "4", "0"):
        assert "--fights" in refusal(read, ["--fights", wrong], capsys)
    assert "--fights: expected one argument" in refusal(read, ["--steps", "--fights"], capsys)
    assert "--json: expected one argument" in refusal(read, ["--json"], capsys)


def test_think_times_are_read_and_bad_ones_refused(capsys: pytest.CaptureFixture[str]) -> None:
    think = bench_rumble_browser.think_times
    assert think("0.3-1.2") == (0.3, 1.2)
    assert think("0-0") == (0.0, 0.0)
    for bad in ("1.2-0.3", "fast", "0.3", "-1-2", "0-11"):
        with pytest.raises(argparse.ArgumentTypeError):
            think(bad)
    told = refusal(bench_rumble_browser.command_line, ["--think", "fast"], capsys)
    assert "--think: takes LOW-HIGH seconds" in told


def test_the_nevermore_benchmarks_games(capsys: pytest.CaptureFixture[str]) -> None:
    read = bench_nevermore_browser.command_line
    assert read([]).games == 1
    assert read(["--games", "2", "--json", "x"]).games == 2
    assert read(["--games", "1", "--path"]).path
    for wrong in (["--games"], ["--games", "two"], ["--games", "0"], ["--games", "6"]):
        assert "--games" in refusal(read, wrong, capsys)
    assert "from 1 to 5 games" in refusal(read, ["--games", "6"], capsys)
    assert "use it with --games 1" in refusal(read, ["--games", "2", "--path"], capsys)


def test_the_circle_and_effects_benchmarks_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_circle_browser.command_line(["--profile"]).profile
    assert "unrecognized" in refusal(bench_circle_browser.command_line, ["--games", "2"], capsys)
    read = bench_effects.command_line
    assert (read([]).times, read(["--times", "3"]).times) == (5, 3)
    for wrong in (["--times"], ["--times", "three"], ["--times", "0"], ["--times", "51"]):
        assert "--times" in refusal(read, wrong, capsys)


def test_the_table_benchmarks_game_and_pages(capsys: pytest.CaptureFixture[str]) -> None:
    read = bench_table_browser.command_line
    assert (read([]).game, read([]).pages) == ("toy", 4)
    assert (read(["nevermore", "3"]).game, read(["nevermore", "3"]).pages) == ("nevermore", 3)
    assert "invalid choice: 'chess'" in refusal(read, ["chess"], capsys)
    assert "from 2 to 6 pages" in refusal(read, ["toy", "9"], capsys)


def test_a_whole_number_in_a_range() -> None:
    read = options.whole(1, 5, "games")
    assert read("3") == 3
    for wrong, said in (("x", "whole number of games"), ("6", r"from 1 to 5 games \(not 6\)")):
        with pytest.raises(argparse.ArgumentTypeError, match=said):
            read(wrong)
