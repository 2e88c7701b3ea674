"""A benchmark's command line is checked before anything runs (``benchmarks.options``): a wrong
option or ``--help`` must not start minutes of browsers."""

from __future__ import annotations

import importlib

import pytest

from benchmarks import options

BROWSER_BENCHMARKS = (
    "benchmarks.bench_rumble_browser",
    "benchmarks.bench_nevermore_browser",
    "benchmarks.bench_circle_browser",
    "benchmarks.bench_effects",
)


def test_known_options_and_their_values_pass() -> None:
    options.check(
        ["--steps", "--fights", "2", "--think", "0.3-1.2"], ["--steps"], ["--fights", "--think"], ""
    )
    options.check([], ["--steps"], ["--fights"], "")


def test_an_unknown_option_stops_with_the_known_ones() -> None:
    with pytest.raises(SystemExit, match=r"unknown option '--fight'.*--fights VALUE.*"):
        options.check(["--fight", "2"], ["--steps"], ["--fights"], "")
    with pytest.raises(SystemExit, match="unknown option '2'"):
        options.check(["--steps", "2"], ["--steps"], ["--fights"], "")


def test_help_prints_what_the_benchmark_says_of_itself() -> None:
    with pytest.raises(SystemExit, match="plays one fight"):
        options.check(["--help"], ["--steps"], [], "  It plays one fight.\n")
    with pytest.raises(SystemExit, match="no help"):
        options.check(["-h"], [], [], None)


@pytest.mark.parametrize("name", BROWSER_BENCHMARKS)
def test_each_browser_benchmark_refuses_a_wrong_option_before_it_starts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = importlib.import_module(name)
    monkeypatch.setattr(module.asyncio, "run", lambda *_: pytest.fail("the benchmark started"))
    monkeypatch.setattr(module.sys, "argv", [name, "--no-such-option"])
    with pytest.raises(SystemExit, match="unknown option '--no-such-option'"):
        module.main()
    monkeypatch.setattr(module.sys, "argv", [name, "--help"])
    with pytest.raises(SystemExit) as told:
        module.main()
    assert module.__doc__ is not None and module.__doc__.strip()[:30] in str(told.value)


def test_an_option_that_takes_a_value_must_have_one() -> None:
    with pytest.raises(SystemExit, match="--fights takes a value"):
        options.check(["--steps", "--fights"], ["--steps"], ["--fights"], "")


def test_the_fights_asked_are_checked_before_anything_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = importlib.import_module("benchmarks.bench_rumble_browser")
    monkeypatch.setattr(module.asyncio, "run", lambda *_: pytest.fail("the benchmark started"))
    for wrong in ("two", "4", "0"):
        monkeypatch.setattr(module.sys, "argv", ["bench", "--fights", wrong])
        with pytest.raises(SystemExit, match="--fights takes 1, 2 or 3"):
            module.main()
