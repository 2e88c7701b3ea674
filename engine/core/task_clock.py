"""How long the page's current browser task has run, as far as Python can tell.

Under Pyodide every resumption after an awaited JavaScript promise or an ``asyncio.sleep(0)``
starts a new browser task. The places that resume so call ``began``; a long step then asks
``running_ms`` before its next piece of work and ends the task once it has run for a while
(``engine.protocol.pace.yield_if_long``). A resumption no one marked only makes the task look
older than it is: the step then yields once more than it needed to, never less.
"""

from __future__ import annotations

import time

clock = time.perf_counter  # seconds (the page's own clock under Pyodide)
_began = clock()


def began() -> None:
    """A new browser task starts here."""
    global _began
    _began = clock()


def running_ms() -> float:
    """Milliseconds since the last ``began``."""
    return (clock() - _began) * 1000.0
