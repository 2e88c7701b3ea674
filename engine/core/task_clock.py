"""How long the page's current browser task has run, as far as Python can tell.

Under Pyodide the page's asyncio steps run a browser task's worth at a time
(``engine.core.step_batch``), and each such task calls ``began``; a long step asks
``running_ms`` before its next piece of work and ends the task once it has run for a while
(``end_task``, ``engine.protocol.pace.yield_if_long``). Python run straight from a page event
(a click, a message) runs outside a batch and does not mark its task: the clock then counts from
the last batch's start, so a step there yields sooner than it needs to, never later.
"""

from __future__ import annotations

import time

clock = time.perf_counter  # seconds (the page's own clock under Pyodide)
_began = clock()
_ending = False


def began() -> None:
    """A new browser task starts here."""
    global _began, _ending
    _began = clock()
    _ending = False


def end_task() -> None:
    """Ask for the current browser task to end after the running step."""
    global _ending
    _ending = True


def ending() -> bool:
    """Whether a step asked for the current browser task to end."""
    return _ending


def running_ms() -> float:
    """Milliseconds since the last ``began``."""
    return (clock() - _began) * 1000.0
