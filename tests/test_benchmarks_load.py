"""Every benchmark `make bench` runs can at least be loaded: a renamed engine part breaks the
import at once here, not only on the next benchmark run. (Nothing is timed.)"""

from __future__ import annotations

import importlib

import pytest

from benchmarks.__main__ import BENCHMARKS


@pytest.mark.parametrize("command", BENCHMARKS)
def test_the_benchmark_imports(command: str) -> None:
    module = command.split()[0]
    loaded = importlib.import_module(module)
    assert callable(getattr(loaded, "main", None)), f"{module} has no main()"


def test_the_nevermore_benchmarks_games_option() -> None:
    from benchmarks.bench_nevermore_browser import games_asked

    assert games_asked([]) == 1
    assert games_asked(["--games", "2", "--json", "x"]) == 2
    assert games_asked(["--games", "1", "--path"]) == 1
    for wrong in (["--games"], ["--games", "two"], ["--games", "0"], ["--games", "6"]):
        with pytest.raises(SystemExit, match="from 1 to 5"):
            games_asked(wrong)
    with pytest.raises(SystemExit, match="--path"):
        games_asked(["--games", "2", "--path"])
