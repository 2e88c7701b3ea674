"""Import what the room and the table will need while the page sits in the lobby, one module per
browser task, so no import keeps the page busy for long (an import of the table at once is one
task of a second or more under Pyodide: every module is compiled on import).

Packages are walked in name order, so most modules find their dependencies already imported and
each step compiles about one file. A module that cannot be imported here (one that needs a
CPython-only library) is skipped; the code that needs it imports it, and fails, as before.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
import sys
from collections.abc import Iterator

from engine.protocol.pace import yield_to_page

PACKAGES = ("segno", "engine", "web.ui")
SKIP = ("web.ui.app",)  # running already
LAST = ("web.ui.pages", "web.ui.table", "web.ui.boards")  # entry points, after what they use
_running: list[asyncio.Task[list[str]]] = []


def module_names() -> Iterator[str]:
    """Every module of ``PACKAGES`` in name order, then the entry points."""
    for package in PACKAGES:
        try:
            root = importlib.import_module(package)
        except ImportError:
            continue
        yield package
        names = (info.name for info in pkgutil.walk_packages(root.__path__, package + "."))
        yield from sorted(names)
    yield from LAST


async def preload() -> list[str]:
    """Import each module in its own task; the names that could not be imported."""
    failed = []
    for name in module_names():
        if name in sys.modules or name in SKIP:
            continue
        try:
            importlib.import_module(name)
        except Exception:  # a CPython-only module, a command-line entry: not needed here
            failed.append(name)
        await yield_to_page()
    return failed


def start() -> asyncio.Task[list[str]]:
    """Run ``preload`` in the background (once)."""
    if not _running:
        _running.append(asyncio.ensure_future(preload()))
    return _running[0]
