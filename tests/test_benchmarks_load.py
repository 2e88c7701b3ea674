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
