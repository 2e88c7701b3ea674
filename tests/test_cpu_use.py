"""The benchmarks' CPU reading (``benchmarks.cpu_use``): the time each kind of process spent
between two snapshots, per log entry. (Nothing is timed: the readings are made up, but one.)"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
    assert "server bot's" not in line  # no bot played: no ratio to it


def test_everything_is_also_read_against_the_server_bots_share() -> None:
    spent = {"renderers": 3.0, "server bot": 0.5, "all": 4.0}
    line = cpu_use.report(spent, entries=100, wall=2.0)
    assert "server bot 5.0" in line and "all 40.0 = 8.0× the server bot's" in line


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_this_process_is_read() -> None:
    sum(i * i for i in range(200_000))  # some CPU time of its own
    kind, seconds = cpu_use.snapshot()[os.getpid()]
    assert kind == "other" and seconds > 0


def test_main_threads_running_and_waiting_are_summed_per_entry() -> None:
    before = {10: (1_000_000_000, 500_000_000), 11: (0, 0)}
    after = {10: (1_300_000_000, 900_000_000), 11: (100_000_000, 0), 12: (50_000_000, 50_000_000)}
    ran, waits = cpu_use.waited(before, after)
    assert (round(ran, 3), round(waits, 3)) == (0.45, 0.45)
    line = cpu_use.wait_report(ran, waits, entries=90)
    assert "ran 5.0 ms, waited for a core 5.0 ms (1.00× their running time)" in line
    assert "not readable" in cpu_use.wait_report(0.0, 0.0, entries=90)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_only_page_renderers_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path
    for pid, command in (
        (5, b"chromium\0--type=renderer\0"),
        (6, b"chromium\0--type=renderer\0--top-chrome-webui\0"),
        (7, b"chromium\0--type=gpu-process\0"),
    ):
        (root / str(pid)).mkdir()
        (root / str(pid) / "cmdline").write_bytes(command)
        (root / str(pid) / "schedstat").write_text(f"{pid}000 {pid}00 3\n")
    real = cpu_use.Path
    monkeypatch.setattr(cpu_use, "Path", lambda path: root if path == "/proc" else real(path))
    assert cpu_use.main_threads() == {5: (5000, 500)}


def test_threads_are_grouped_by_process_and_name() -> None:
    page, gpu = "chromium --type=renderer", "chromium --type=gpu-process"
    assert cpu_use.thread_group(5, 5, "chromium", page) == cpu_use.PAGE_MAIN
    assert cpu_use.thread_group(5, 9, "Compositor", page) == cpu_use.PAGE_COMPOSITOR
    assert cpu_use.thread_group(5, 8, "ThreadPoolForeg", page) == cpu_use.PAGE_OTHER
    assert cpu_use.thread_group(7, 11, "VizCompositorTh", gpu) == cpu_use.DISPLAY
    assert cpu_use.thread_group(7, 7, "chromium", gpu) is None
    assert cpu_use.thread_group(6, 6, "chromium", page + " --top-chrome-webui") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_each_threads_cpu_is_read_into_its_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = {
        (5, b"chromium\0--type=renderer\0"): {5: "chromium", 9: "Compositor", 8: "WebRTC_W_and_N"},
        (6, b"chromium\0--type=renderer\0--top-chrome-webui\0"): {6: "chromium"},
        (7, b"chromium\0--type=gpu-process\0"): {7: "chromium", 11: "VizCompositorTh"},
        (3, b"python\0-m\0signaling\0"): {3: "python"},
    }
    for (pid, command), named in threads.items():
        (tmp_path / str(pid) / "task").mkdir(parents=True)
        (tmp_path / str(pid) / "cmdline").write_bytes(command)
        for tid, name in named.items():
            task = tmp_path / str(pid) / "task" / str(tid)
            task.mkdir()
            (task / "comm").write_text(name + "\n")
            # utime and stime (the 14th and 15th fields): tid ticks each
            fields = ["S"] + ["0"] * 10 + [str(tid), str(tid)] + ["0"] * 5
            (task / "stat").write_text(f"{tid} ({name}) " + " ".join(fields) + "\n")
    real = cpu_use.Path
    monkeypatch.setattr(cpu_use, "Path", lambda path: tmp_path if path == "/proc" else real(path))
    tick = 1 / cpu_use.TICKS
    seconds = cpu_use.by_thread()
    assert seconds == pytest.approx(
        {
            cpu_use.PAGE_MAIN: 10 * tick,
            cpu_use.PAGE_COMPOSITOR: 18 * tick,
            cpu_use.PAGE_OTHER: 16 * tick,
            cpu_use.DISPLAY: 22 * tick,
        }
    )
