"""The pages' main-thread tasks from a Chrome trace: how long each ran by the wall clock (what the
Long Tasks API counts) and how long on its thread (CPU time). A task that is long by the wall but
short on its thread spent the difference waiting for a core, not working: three pages on two
cores wait for each other whenever a log entry reaches them all at once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Browser

CATEGORIES = ["toplevel"]  # the scheduler's tasks, each with its wall and thread durations
TASK = "ThreadControllerImpl::RunTask"
MAIN = "CrRendererMain"
RENDERER = "Renderer"
LONG_MS = 50.0


@dataclass
class Task:
    """One main-thread task of a page: wall and thread milliseconds."""

    wall: float
    cpu: float


async def start(browser: Browser) -> None:
    """Record the scheduler's tasks of every process from now on."""
    await browser.start_tracing(categories=CATEGORIES)


async def stop(browser: Browser) -> list[Task]:
    """Stop recording; the pages' main-thread tasks (``tasks_of`` the trace)."""
    return tasks_of(json.loads(await browser.stop_tracing()))


def thread_names(events: list[dict[str, Any]]) -> dict[tuple[int, int], tuple[str, str]]:
    """``(pid, tid) → (process name, thread name)`` from a trace's metadata events."""
    processes = {
        e["pid"]: e.get("args", {}).get("name", "")
        for e in events
        if e.get("ph") == "M" and e.get("name") == "process_name"
    }
    return {
        (e["pid"], e["tid"]): (processes.get(e["pid"], ""), e.get("args", {}).get("name", ""))
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }


def tasks_of(trace: dict[str, Any]) -> list[Task]:
    """Every task run on a page's main thread (a ``Renderer`` process's ``CrRendererMain``)."""
    events = trace.get("traceEvents", [])
    names = thread_names(events)
    mains = {thread for thread, name in names.items() if name == (RENDERER, MAIN)}
    return [
        Task(e["dur"] / 1000, e.get("tdur", 0) / 1000)
        for e in events
        if e.get("ph") == "X" and e.get("name") == TASK and (e.get("pid"), e.get("tid")) in mains
    ]


def report(tasks: list[Task]) -> str:
    """The tasks long by the wall, what they ran on their thread, and the longest by CPU."""
    long = [t for t in tasks if t.wall > LONG_MS]
    by_cpu = max((t.cpu for t in tasks), default=0.0)
    wall = sum(t.wall for t in tasks)
    share = sum(t.cpu for t in tasks) / wall if wall else 0.0
    ran = ", ".join(f"{t.wall:.0f} ms ran {t.cpu:.0f}" for t in sorted(long, key=lambda t: -t.wall))
    return (
        f"traced main-thread tasks: {len(tasks)}; {len(long)} over {LONG_MS:.0f} ms by the wall"
        + (f" ({ran} on the thread)" if long else "")
        + f"; the longest on its thread {by_cpu:.1f} ms; the pages' tasks ran {share:.0%} of"
        " their wall time on a core"
    )
