"""Yield to the page between the parts of a long step.

Under Pyodide ``yield_to_page`` ends the browser task (``task_clock.end_task``: the step batch,
``engine.core.step_batch``, runs no more steps in it), so the page can draw and take input in
between; no step keeps the main thread for long. Elsewhere (bots, tests, the server)
there is no page to yield to, and the step runs on without a pause, scheduled exactly as before.
The peer's entry points are serialized (``Peer._lock``), so a pause lets nothing else change the
table midway.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Sequence
from typing import TypeVar

from engine.core import task_clock

IN_BROWSER = sys.platform == "emscripten"
POINTS_PER_SLICE = 4  # curve points hashed or checked (a Legendre symbol or more each) per slice
# Milliseconds a browser task may run before a step that can pause ends it: the page's own
# frame, the other tabs and the player's input then fit in before the 50 ms a task is "long".
TASK_BUDGET_MS = 4.0
# Milliseconds of the page's ready asyncio steps run together in one browser task
# (``engine.core.step_batch``): short, since the step that crosses it runs to its end first.
BATCH_BUDGET_MS = 2.0
T = TypeVar("T")


async def yield_to_page() -> None:
    """End this browser task here (a no-op outside the browser): the step batch runs no more
    steps in it, and this one goes on in a later task."""
    if IN_BROWSER:
        task_clock.end_task()
        await asyncio.sleep(0)


async def yield_if_long(budget_ms: float = TASK_BUDGET_MS) -> None:
    """End this browser task if it has already run ``budget_ms`` (a no-op outside the browser)."""
    if IN_BROWSER and task_clock.running_ms() >= budget_ms:
        await yield_to_page()


async def in_slices(items: Sequence[T], size: int = POINTS_PER_SLICE) -> AsyncIterator[Sequence[T]]:
    """``items`` a slice of ``size`` at a time, the browser task ending after any slice that
    leaves it ``TASK_BUDGET_MS`` old (a check of a point took 0.14 ms in an idle page, 1.3–1.5 ms
    in one of three pages sharing two busy cores)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
        await yield_if_long()
