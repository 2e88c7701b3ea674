"""The main thread's long tasks (over 50 ms, the Long Tasks API) on the pages of a browser
benchmark: observed from when a game starts, reported as the longest and how many."""

from __future__ import annotations

import bisect
from itertools import groupby
from typing import Any

from tests.e2e.harness import Player

OBSERVE = """() => { window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  return performance.now(); }"""
SINCE = """(since) => window.__longTasks.filter(([start]) => start >= since)"""
ORIGIN = "() => performance.timeOrigin"
AROUND_MS = 300.0  # how far before and after a long task ``when`` looks for entries shown


async def observe(players: list[Player]) -> list[float]:
    """Start watching every page; each page's clock reading at that moment."""
    return [float(await p.page.evaluate(OBSERVE)) for p in players]


async def collect(players: list[Player], since: list[float]) -> list[list[float]]:
    """Each page's long-task durations (ms) since its ``observe`` reading."""
    return [[d for _, d in page] for page in await collect_timed(players, since)]


async def collect_timed(players: list[Player], since: list[float]) -> list[list[list[float]]]:
    """Each page's long tasks since its ``observe`` reading: ``[start, duration]`` (ms, on the
    page's clock)."""
    return [
        [[float(t), float(d)] for t, d in await p.page.evaluate(SINCE, start)]
        for p, start in zip(players, since, strict=True)
    ]


async def origins(players: list[Player]) -> list[float]:
    """Each page's ``performance.timeOrigin``: added to a long task's start (the page's clock),
    it gives the wall-clock time (ms since the epoch) on which the table stamps each entry shown."""
    return [float(await p.page.evaluate(ORIGIN)) for p in players]


def runs(kinds: list[str]) -> str:
    """``kinds`` in order, a run of one kind as ``kind ×n``: ``shuffle2 ×3, deliver``."""
    return (
        ", ".join(
            f"{kind} ×{count}" if (count := len(list(group))) > 1 else kind
            for kind, group in groupby(kinds)
        )
        or "nothing"
    )


def when(
    tasks: list[list[list[float]]],
    shown: list[list[float]],
    kinds: list[str],
    origins: list[float],
    around_ms: float = AROUND_MS,
) -> list[str]:
    """Where in the game each long task came: for each page's ``[start, duration]`` (its clock),
    the kinds of the log entries (``kinds``, the same log on every page) that page showed
    (``shown``: ms since the epoch, one per entry) in the ``around_ms`` before the task began and
    in those after it ended. Tasks that come at the same moment of the game on every run (a
    deal, a round's end) point at their cause."""
    lines = []
    for page, (page_tasks, stamps, origin) in enumerate(zip(tasks, shown, origins, strict=True)):
        for start, duration in page_tasks:
            began, ended = origin + start, origin + start + duration
            first = bisect.bisect_left(stamps, began - around_ms)
            at = bisect.bisect_left(stamps, began)
            last = bisect.bisect_right(stamps, ended + around_ms)
            after = bisect.bisect_right(stamps, ended)
            lines.append(
                f"page {page}: {duration:.0f} ms at entry {at} of {len(stamps)};"
                f" shown in the {around_ms:.0f} ms before: {runs(kinds[first:at])};"
                f" during: {runs(kinds[at:after])}; after: {runs(kinds[after:last])}"
            )
    return lines


def when_traced(
    tasks: list[list[list[float]]],
    games: list[list[dict[str, Any]]],
    origins: list[float],
    around_ms: float = AROUND_MS,
) -> list[str]:
    """``when`` for games read off their pages (``bench_table_browser.TRACE``, one list of page
    readings a game: each page's ``applied`` stamps, and the log as ``[author, kind, ...]``). Each
    game's log starts again and comes after the last one's, so the games are joined in turn."""
    shown: list[list[float]] = [[] for _ in origins]
    kinds: list[str] = []
    for traces in games:
        for stamps, trace in zip(shown, traces, strict=True):
            stamps += trace["applied"]
        kinds += [str(entry[1]) for entry in traces[0]["log"]]
    return when(tasks, shown, kinds, origins, around_ms)


def print_when(lines: list[str]) -> None:
    """``when``'s lines under a heading, if there are any."""
    if lines:
        print("where in the game they came (the log entries each page showed around them):")
        print("\n".join("  " + line for line in lines))


def with_python(tasks: list[list[list[float]]], steps: list[list[list[float]]]) -> int:
    """How many long tasks hold a Python step of the page that was itself long (``steps``: each
    page's timed steps, ``[took, start]`` in ms); the others were the browser's own work (style,
    layout, paint) or JavaScript."""
    count = 0
    for page_tasks, page_steps in zip(tasks, steps, strict=True):
        for start, duration in page_tasks:
            count += any(start - 1 <= at <= start + duration for _, at in page_steps)
    return count


def summary(tasks: list[list[float]]) -> str:
    """``longest main-thread task … (n over 50 ms)`` over every page."""
    longest = max((max(page) for page in tasks if page), default=0.0)
    count = sum(len(page) for page in tasks)
    return f"longest main-thread task during the game: {longest:.0f} ms ({count} over 50 ms)"
