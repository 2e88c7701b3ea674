"""Chromium's animation events in a trace (``blink.animations``): which animations started, and
why each could not run on the compositor (read by ``tests/e2e/test_fx_composited.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# Chromium's reasons for not compositing an animation (``CompositorAnimations::FailureReason``);
# the benign ones say nothing of our style: the animation would change nothing seen (Chromium's
# own example: one off the screen), alone or with the element not in a state to composite.
INVALID_COMPOSITING_STATE = 1 << 5
INCOMPATIBLE_ANIMATIONS = 1 << 6
NO_VISIBLE_CHANGE = 1 << 17
BENIGN = INVALID_COMPOSITING_STATE | NO_VISIBLE_CHANGE


def started_animations(events: Iterable[dict[str, Any]]) -> list[tuple[str, int]]:
    """Each animation the trace saw start, as its name (its element's when it has none) and
    the reasons it was not composited (0 if it was)."""
    current: dict[tuple[Any, Any], int] = {}
    started: list[tuple[str, int]] = []
    for event in sorted((e for e in events if e.get("name") == "Animation"), key=lambda e: e["ts"]):
        key = (event.get("pid"), (event.get("id2") or {}).get("local", event.get("id")))
        data = (event.get("args") or {}).get("data") or {}
        if event.get("ph") == "b":
            current[key] = len(started)
            started.append((data.get("displayName") or str(data.get("nodeName", "?")), 0))
        elif event.get("ph") == "n" and "compositeFailed" in data and key in current:
            name, reasons = started[current[key]]
            started[current[key]] = (name, reasons | int(data["compositeFailed"]))
    return started
