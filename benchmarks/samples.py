"""A browser benchmark's raw samples as JSON (``--json PATH``), for ``benchmarks.ab`` to pool:
the latency in ms of each of its timed clicks (a «Схватка» click shown on every page, a «Невермор»
pass applied on every page, a «Волшебный круг» play shown in flight), each page's tasks over 50 ms,
and the CPU per log entry when read («Схватка» only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write(
    path: Path | None,
    clicks: list[float],
    long: list[list[float]],
    cpu_per_entry: float | None = None,
) -> None:
    """Write the samples to ``path`` (``--json``'s file), when the command line named one."""
    if path is None:
        return
    samples: dict[str, Any] = {"clicks": clicks, "long": long, "cpu_per_entry": cpu_per_entry}
    path.write_text(json.dumps(samples), encoding="utf-8")
