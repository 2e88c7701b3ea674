"""The benchmarks' CPU reading (``benchmarks.cpu_use``): the time each kind of process spent
between two snapshots, per log entry. (Nothing is timed: the readings are made up, but one.)"""

from __future__ import annotations

import os
import sys

import pytest

from benchmarks import cpu_use


def test_time_is_summed_by_kind_between_snapshots() -> None:
    before = {1: ("renderers", 2.0), 2: ("renderers", 1.0), 3: ("GPU process", 5.0)}
    after = {
        1: ("renderers", 3.5),
        2: ("renderers", 1.5),
        3: ("GPU process", 6.0),
        4: ("other", 0.5),
    }
    spent = cpu_use.spent(before, after)
    assert spent == {"renderers": 2.0, "GPU process": 1.0, "other": 0.5, "all": 3.5}
    line = cpu_use.report(spent, entries=100, wall=2.0)
    assert "renderers 20.0" in line and "GPU process 10.0" in line and "all 35.0" in line


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_this_process_is_read() -> None:
    sum(i * i for i in range(200_000))  # some CPU time of its own
    kind, seconds = cpu_use.snapshot()[os.getpid()]
    assert kind == "other" and seconds > 0
