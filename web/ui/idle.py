"""Work that waits for the page to be idle: ``requestIdleCallback`` with a bound on the wait, or
a timer where the browser has none (Safari); and work that also waits for a quiet spell first.
Runs only under Pyodide."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from js import Object, performance, window
from pyodide.ffi import create_once_callable, to_js

T = TypeVar("T")


def when_idle(work: Callable[[], None], within_ms: int, otherwise_ms: int = 0) -> None:
    """Run ``work`` once the page has nothing queued (at most ``within_ms`` from now); in a
    browser without idle callbacks, ``otherwise_ms`` from now."""
    idle = getattr(window, "requestIdleCallback", None)
    if idle is None:
        window.setTimeout(create_once_callable(work), otherwise_ms)
        return
    options = to_js({"timeout": within_ms}, dict_converter=Object.fromEntries)
    idle(create_once_callable(lambda _deadline: work()), options)


async def idle_result(work: Callable[[], T], within_ms: int, otherwise_ms: int = 0) -> T:
    """``work``'s result (or its exception), run by ``when_idle``."""
    done: asyncio.Future[T] = asyncio.get_running_loop().create_future()

    def run() -> None:
        try:
            done.set_result(work())
        except Exception as exc:  # handed to the awaiting coroutine
            done.set_exception(exc)

    when_idle(run, within_ms, otherwise_ms)
    return await done


class AfterQuiet:
    """Runs ``work`` once ``quiet_ms`` have passed since the last ``poke``, then when the page is
    idle (``when_idle``, at most ``within_ms`` later): a burst of pokes costs one run after it,
    not one each. One wait at a time; a poke during the wait moves its end."""

    def __init__(self, work: Callable[[], None], quiet_ms: int, within_ms: int) -> None:
        self._work = work
        self._quiet_ms = quiet_ms
        self._within_ms = within_ms
        self._due = 0.0
        self._waiting = False

    def poke(self) -> None:
        """Something changed: run the work after the next quiet spell."""
        self._due = float(performance.now()) + self._quiet_ms
        if not self._waiting:
            self._waiting = True
            window.setTimeout(create_once_callable(self._check), self._quiet_ms)

    def _check(self) -> None:
        left = self._due - float(performance.now())
        if left > 0:  # poked meanwhile: wait out the rest
            window.setTimeout(create_once_callable(self._check), int(left) + 1)
        else:
            when_idle(self._run, self._within_ms, 0)

    def _run(self) -> None:
        self._waiting = False
        self._work()
