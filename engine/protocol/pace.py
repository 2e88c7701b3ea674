"""Yield to the page between the parts of a long step.

Under Pyodide every ``await asyncio.sleep(0)`` ends a browser task, so the page can draw and take
input in between; no step keeps the main thread for long. Elsewhere (bots, tests, the server)
there is no page to yield to, and the step runs on without a pause, scheduled exactly as before.
The peer's entry points are serialized (``Peer._lock``), so a pause lets nothing else change the
table midway.
"""

from __future__ import annotations

import asyncio
import sys

IN_BROWSER = sys.platform == "emscripten"


async def yield_to_page() -> None:
    """End this browser task here (a no-op outside the browser)."""
    if IN_BROWSER:
        await asyncio.sleep(0)
