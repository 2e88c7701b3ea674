"""A browser benchmark's raw samples as JSON (``--json PATH``), for ``benchmarks.ab`` to pool:
the latency in ms of each of its timed clicks (a «Схватка» click shown on every page, a «Невермор»
pass applied on every page, a «Волшебный круг» play shown in flight), each page's tasks over 50 ms,
and the CPU per log entry when read («Схватка» only)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def json_path(argv: list[str]) -> Path | None:
    """The file named after ``--json``, if any (a missing name is an error, not ignored)."""
    if "--json" not in argv:
        return None
    at = argv.index("--json") + 1
    if at >= len(argv) or argv[at].startswith("--"):
        raise SystemExit("--json takes the path of the file to write the samples to")
    return Path(argv[at])


def write_if_asked(
    clicks: list[float], long: list[list[float]], cpu_per_entry: float | None = None
) -> None:
    """Write the samples to ``--json``'s file when the command line asks for it."""
    path = json_path(sys.argv[1:])
    if path is None:
        return
    samples: dict[str, Any] = {"clicks": clicks, "long": long, "cpu_per_entry": cpu_per_entry}
    path.write_text(json.dumps(samples), encoding="utf-8")
