"""The trace reader of ``animation_trace``: each reason tied to its own animation."""

from __future__ import annotations

from .animation_trace import INCOMPATIBLE_ANIMATIONS, started_animations


def test_the_trace_reader_ties_each_reason_to_its_animation() -> None:
    events = [
        {"name": "Animation", "ph": "b", "ts": 1, "pid": 1, "id2": {"local": "0xa"},
         "args": {"data": {"displayName": "fx-fly", "nodeName": "IMG"}}},
        {"name": "Animation", "ph": "n", "ts": 2, "pid": 1, "id2": {"local": "0xa"},
         "args": {"data": {"compositeFailed": 64}}},
        {"name": "Animation", "ph": "b", "ts": 3, "pid": 1, "id2": {"local": "0xa"},
         "args": {"data": {"displayName": "", "nodeName": "SPAN class='die'"}}},
        {"name": "Animation", "ph": "n", "ts": 4, "pid": 1, "id2": {"local": "0xa"},
         "args": {"data": {"state": "running"}}},
    ]  # fmt: skip
    assert started_animations(events) == [
        ("fx-fly", INCOMPATIBLE_ANIMATIONS),
        ("SPAN class='die'", 0),
    ]
