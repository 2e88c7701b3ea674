"""Work after a quiet spell (``web.ui.idle.AfterQuiet``): a burst of pokes runs the work once,
after the last poke and its quiet spell, when the page is idle. Runs ``web.ui.idle`` against a
stand-in for the browser's ``js`` module with a clock and timers the test moves."""

from __future__ import annotations

import asyncio
import importlib
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest


class Page:
    """A clock, its timers and idle callbacks: ``advance`` runs what falls due, in order."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self.idle: list[Callable[[Any], None]] = []
        self._order = 0

    def setTimeout(self, work: Callable[[], None], ms: float) -> None:
        self._order += 1
        self.timers.append((self.now + ms, self._order, work))

    def requestIdleCallback(self, work: Callable[[Any], None], _options: Any) -> None:
        self.idle.append(work)

    def advance(self, ms: float) -> None:
        """Move the clock by ``ms``, running each timer as it falls due; the page is idle at
        the end (its idle callbacks run)."""
        end = self.now + ms
        while due := sorted(t for t in self.timers if t[0] <= end):
            self.timers.remove(due[0])
            self.now = due[0][0]
            due[0][2]()
        self.now = end
        idle, self.idle = self.idle, []
        for work in idle:
            work(None)


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Page]]:
    shown = Page()
    js = types.ModuleType("js")
    js.window = shown  # type: ignore[attr-defined]
    js.performance = types.SimpleNamespace(now=lambda: shown.now)  # type: ignore[attr-defined]
    js.Object = types.SimpleNamespace(fromEntries=dict)  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_once_callable = lambda f: f  # type: ignore[attr-defined]
    ffi.to_js = lambda value, **_: value  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.delitem(sys.modules, "web.ui.idle", raising=False)
    yield importlib.import_module("web.ui.idle"), shown
    sys.modules.pop("web.ui.idle", None)


def test_a_burst_of_pokes_runs_the_work_once_after_its_quiet_spell(page: tuple[Any, Page]) -> None:
    idle, clock = page
    runs: list[float] = []
    after = idle.AfterQuiet(lambda: runs.append(clock.now), quiet_ms=1000, within_ms=400)
    for _ in range(6):  # an entry every 300 ms: never quiet for a second
        after.poke()
        clock.advance(300)
    assert runs == []
    clock.advance(600)  # 900 ms since the last poke
    assert runs == []
    clock.advance(200)
    assert len(runs) == 1 and runs[0] >= 1500 + 1000, runs  # the sixth poke at 1500 ms
    clock.advance(5000)
    assert len(runs) == 1  # nothing poked since: nothing more to run


def test_a_poke_after_the_run_books_the_next_one(page: tuple[Any, Page]) -> None:
    idle, clock = page
    runs: list[float] = []
    after = idle.AfterQuiet(lambda: runs.append(clock.now), quiet_ms=1000, within_ms=400)
    after.poke()
    clock.advance(1100)
    after.poke()
    clock.advance(1100)
    assert len(runs) == 2, runs


def test_an_idle_result_is_the_works_result_or_its_error_once_the_page_is_idle(
    page: tuple[Any, Page],
) -> None:
    idle, clock = page

    async def both() -> tuple[list[Any], list[str]]:
        got = asyncio.ensure_future(idle.idle_result(lambda: clock.now, 500))
        failed = asyncio.ensure_future(idle.idle_result(lambda: 1 // 0, 500))
        await asyncio.sleep(0)
        before = [got.done(), failed.done()]
        clock.advance(30)  # the page falls idle: both works run
        errors = []
        try:
            await failed
        except ZeroDivisionError as exc:
            errors.append(type(exc).__name__)
        return [before, await got], errors

    (before, value), errors = asyncio.run(both())
    assert before == [False, False]  # not before the page is idle
    assert value == 30
    assert errors == ["ZeroDivisionError"]
