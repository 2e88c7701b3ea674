"""The main thread's long tasks (over 50 ms, the Long Tasks API) on the pages of a browser
benchmark: observed from when a game starts, reported as the longest and how many."""

from __future__ import annotations

from tests.e2e.harness import Player

OBSERVE = """() => { window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  return performance.now(); }"""
SINCE = """(since) => window.__longTasks.filter(([start]) => start >= since)"""


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
