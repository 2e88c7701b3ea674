"""The main thread's long tasks (over 50 ms, the Long Tasks API) on the pages of a browser
benchmark: observed from when a game starts, reported as the longest and how many."""

from __future__ import annotations

from tests.e2e.harness import Player

OBSERVE = """() => { window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  return performance.now(); }"""
SINCE = """(since) => window.__longTasks.filter(([start]) => start >= since).map(([, d]) => d)"""


async def observe(players: list[Player]) -> list[float]:
    """Start watching every page; each page's clock reading at that moment."""
    return [float(await p.page.evaluate(OBSERVE)) for p in players]


async def collect(players: list[Player], since: list[float]) -> list[list[float]]:
    """Each page's long-task durations (ms) since its ``observe`` reading."""
    return [
        [float(d) for d in await p.page.evaluate(SINCE, start)]
        for p, start in zip(players, since, strict=True)
    ]


def summary(tasks: list[list[float]]) -> str:
    """``longest main-thread task … (n over 50 ms)`` over every page."""
    longest = max((max(page) for page in tasks if page), default=0.0)
    count = sum(len(page) for page in tasks)
    return f"longest main-thread task during the game: {longest:.0f} ms ({count} over 50 ms)"
