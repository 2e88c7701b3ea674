"""On phones the hand and the prompt (the table's dock) stay fixed at the bottom of the screen.

The page keeps room for the dock below its own content (``--dock-h`` on the body, a property
that is not inherited, read by the phone layout in style.css), so the last lines of the page
can still be scrolled into view. The height comes from a ``ResizeObserver`` (after layout),
never from measuring on every redraw.
Runs only under Pyodide.
"""

from __future__ import annotations

from typing import Any

from js import ResizeObserver, document
from pyodide.ffi import create_proxy

_STATE: dict[str, Any] = {"observer": None, "dock": None, "room": None}


def _resized(entries: Any, _observer: Any) -> None:
    for entry in entries:
        _set_room(float(entry.borderBoxSize[0].blockSize))


def _set_room(height: float) -> None:
    """Set ``--dock-h`` when it changes (the dock is resized by most redraws without changing
    its height). It is set on the body and registered as not inherited (style.css), so a new
    value restyles the body alone, not every element of the page."""
    value = f"{height:.0f}px"
    if value != _STATE["room"]:
        _STATE["room"] = value
        document.body.style.setProperty("--dock-h", value)


def keep_room() -> None:
    """Watch the table's current dock (a new table draws a new one); no dock, no room."""
    dock = document.querySelector("#table .dock")
    watched = _STATE["dock"]
    if not dock:  # null: no table, or a table with no dock
        if watched is not None:
            _STATE["observer"].disconnect()
            _STATE["dock"] = None
            _set_room(0)
        return
    if watched is not None and watched.isSameNode(dock):
        return
    if _STATE["observer"] is None:
        _STATE["observer"] = ResizeObserver.new(create_proxy(_resized))
    observer = _STATE["observer"]
    observer.disconnect()
    observer.observe(dock)
    _STATE["dock"] = dock
