"""The log-picture benchmark: how it reads a Chrome trace, and its stand-in for the old pictures."""

from __future__ import annotations

import re
from typing import Any

import pytest

from benchmarks import bench_log_paint, task_trace
from web.ui import log_icons


def meta(pid: int, tid: int, process: str, thread: str) -> list[dict[str, Any]]:
    return [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": tid, "args": {"name": process}},
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": thread}},
    ]


def slice_(pid: int, tid: int, name: str, cpu_us: int) -> dict[str, Any]:
    return {"ph": "X", "name": name, "pid": pid, "tid": tid, "dur": 3 * cpu_us, "tdur": cpu_us}


def test_rendering_is_read_per_part_and_per_change() -> None:
    events = [
        *meta(1, 10, "Renderer", "CrRendererMain"),
        *meta(1, 11, "Renderer", "Compositor"),
        *meta(1, 12, "Renderer", "ThreadPoolForegroundWorker"),
        *meta(2, 20, "GPU Process", "VizCompositorThread"),
        *meta(3, 30, "Browser", "CrBrowserMain"),
        slice_(1, 10, "Paint", 3000),
        slice_(1, 10, "Layout", 1000),
        slice_(1, 10, "FunctionCall", 9000),  # script: not rendering
        slice_(1, 11, task_trace.TASK, 800),
        slice_(1, 12, "TaskGraphRunner::RunTask", 1200),
        slice_(2, 20, task_trace.TASK, 400),
        slice_(3, 30, "Paint", 5000),  # the browser's own window
        {"ph": "B", "name": "Paint", "pid": 1, "tid": 10},  # not a complete slice
    ]
    parts = bench_log_paint.rendering_ms({"traceEvents": events}, changes=2)
    assert parts == pytest.approx(
        {"main thread": 2.0, "compositor": 0.4, "raster": 0.6, "GPU process": 0.2}
    )


def test_an_empty_trace_reads_as_nothing() -> None:
    assert bench_log_paint.rendering_ms({}, changes=5) == {}


def test_the_former_pictures_cover_every_category_as_masked_svg() -> None:
    style = bench_log_paint.masked_svg_style()
    named = re.findall(r'li\[data-k="(\w+)"\] \{ --log-icon: url\("data:image/svg\+xml,', style)
    assert sorted(named) == sorted(log_icons.ICONS)
    assert "mask: var(--log-icon)" in style and "content: ''" in style
