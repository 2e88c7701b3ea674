"""Several of the page's asyncio steps in one browser task.

Pyodide's event loop runs every ready step (``call_soon``) in a browser task of its own: a
message posted and dispatched, a JavaScript callback made and dropped for each, a few dozen
such tasks for every log entry on every page. A ``StepBatch`` takes the loop's ``call_soon``:
ready steps wait in one queue, and one posted browser task (``post``) runs them in order
(``run``) until the queue is empty, the task has run ``budget_ms`` (``task_clock``) or a step
asked for the task to end (``task_clock.end_task``, as ``pace.yield_to_page`` does); then the
page draws and takes input, and a task posted for the rest goes on. Timers (``call_later`` with
a delay) stay the loop's own. Pure Python: the page posts the tasks (``web.ui.app``).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import Callable
from typing import Any

from engine.core import task_clock


class StepBatch:
    """The ready steps of ``loop``, run a browser task's worth at a time."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, post: Callable[[], None], budget_ms: float
    ) -> None:
        self._loop = loop
        self._post = post  # asks for one browser task that calls ``run``
        self.budget_ms = budget_ms
        self._ready: deque[asyncio.Handle] = deque()
        self._posted = False
        self.tasks = 0  # browser tasks run so far (tests read it)

    def call_soon(
        self,
        callback: Callable[..., Any],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.Handle:
        """The loop's ``call_soon``: queue the step, posting a task if none is on the way."""
        handle = asyncio.Handle(callback, args, self._loop, context=context)
        self._ready.append(handle)
        self._post_once()
        return handle

    def run(self) -> None:
        """One browser task: ready steps in order while the budget lasts."""
        self._posted = False
        self.tasks += 1
        task_clock.began()
        try:
            while self._ready:
                handle = self._ready.popleft()
                if not handle.cancelled():
                    handle._run()  # reports its own errors to the loop's exception handler
                if task_clock.ending() or task_clock.running_ms() >= self.budget_ms:
                    break
        finally:
            if self._ready:
                self._post_once()

    def _post_once(self) -> None:
        if not self._posted:
            self._posted = True
            self._post()
