"""Work that waits for the page to be idle: ``requestIdleCallback`` with a bound on the wait, or
a timer where the browser has none (Safari). Runs only under Pyodide."""

from __future__ import annotations

from collections.abc import Callable

from js import Object, window
from pyodide.ffi import create_once_callable, to_js


def when_idle(work: Callable[[], None], within_ms: int, otherwise_ms: int = 0) -> None:
    """Run ``work`` once the page has nothing queued (at most ``within_ms`` from now); in a
    browser without idle callbacks, ``otherwise_ms`` from now."""
    idle = getattr(window, "requestIdleCallback", None)
    if idle is None:
        window.setTimeout(create_once_callable(work), otherwise_ms)
        return
    options = to_js({"timeout": within_ms}, dict_converter=Object.fromEntries)
    idle(create_once_callable(lambda _deadline: work()), options)
