"""The benchmarks' trace reading (``benchmarks.task_trace``): only the pages' main-thread tasks
count, each with its wall and thread time. (Nothing is timed: the trace is made up.)"""

from __future__ import annotations

from typing import Any

from benchmarks import task_trace


def meta(pid: int, tid: int, what: str, name: str) -> dict[str, Any]:
    return {"ph": "M", "pid": pid, "tid": tid, "name": what, "args": {"name": name}}


def task(pid: int, tid: int, wall_ms: float, cpu_ms: float) -> dict[str, Any]:
    return {
        "ph": "X",
        "pid": pid,
        "tid": tid,
        "name": task_trace.TASK,
        "dur": wall_ms * 1000,
        "tdur": cpu_ms * 1000,
    }


TRACE = {
    "traceEvents": [
        meta(1, 0, "process_name", "Renderer"),
        meta(1, 10, "thread_name", "CrRendererMain"),
        meta(1, 11, "thread_name", "Compositor"),
        meta(2, 0, "process_name", "GPU Process"),
        meta(2, 20, "thread_name", "CrRendererMain"),  # not a page: another process kind
        meta(3, 0, "process_name", "WebUI Top Renderer"),
        meta(3, 30, "thread_name", "CrRendererMain"),
        task(1, 10, 60.0, 12.0),  # long by the wall, short on its thread
        task(1, 10, 8.0, 7.5),
        task(1, 10, 20.0, 19.0),
        {**task(1, 10, 99.0, 99.0), "name": "RunTask"},  # the same task's outer event: not twice
        task(1, 11, 90.0, 90.0),  # the page's compositor
        task(2, 20, 90.0, 90.0),
        task(3, 30, 90.0, 90.0),
    ]
}


def test_only_the_pages_main_thread_tasks_are_read() -> None:
    tasks = task_trace.tasks_of(TRACE)
    assert [(t.wall, t.cpu) for t in tasks] == [(60.0, 12.0), (8.0, 7.5), (20.0, 19.0)]


def test_the_report_names_what_long_tasks_ran_on_their_thread() -> None:
    line = task_trace.report(task_trace.tasks_of(TRACE))
    assert "3; 1 over 50 ms by the wall (60 ms ran 12 on the thread)" in line
    assert "the longest on its thread 19.0 ms" in line
    assert "ran 44% of their wall time on a core" in line  # 38.5 of 88 ms


def test_a_trace_without_long_tasks_says_so() -> None:
    line = task_trace.report([task_trace.Task(10.0, 5.0)])
    assert "0 over 50 ms by the wall;" in line and "50%" in line
    assert task_trace.report([]).startswith("traced main-thread tasks: 0; 0 over")
