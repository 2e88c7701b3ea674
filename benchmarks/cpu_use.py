"""CPU time the machine's processes spent during a benchmark's game, by kind (Chromium's
renderers, its GPU process, the rest of the browser, the server bot, everything), read from
``/proc``: a steadier figure than the wall-clock tails, which stretch with every process that
shares the two cores. Linux only; elsewhere the readings are empty."""

from __future__ import annotations

import os
from pathlib import Path

KINDS = (
    ("renderers", "--type=renderer"),
    ("GPU process", "--type=gpu-process"),
    ("rest of the browser", "chromium"),
    ("server bot", "signaling.peer"),
)
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def snapshot() -> dict[int, tuple[str, float]]:
    """Every process now: its kind (``KINDS``, or ``other``) and CPU seconds so far."""
    seen: dict[int, tuple[str, float]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        seconds = (int(fields[11]) + int(fields[12])) / TICKS
        kind = next((name for name, mark in KINDS if mark in command), "other")
        seen[int(entry.name)] = (kind, seconds)
    return seen


def spent(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    """CPU seconds by kind between two snapshots (a process that ended meanwhile is not
    counted), and ``all``."""
    totals: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        used = seconds - before.get(pid, (kind, 0.0))[1]
        totals[kind] = totals.get(kind, 0.0) + used
    totals["all"] = sum(totals.values())
    return totals


def report(totals: dict[str, float], entries: int, wall: float) -> str:
    """The CPU per log entry by kind, and how busy the two cores were."""
    if not totals:
        return "CPU use: not readable here"
    per = max(1, entries)
    parts = ", ".join(f"{name} {1000 * totals.get(name, 0.0) / per:.1f}" for name, _ in KINDS)
    cores = os.cpu_count() or 1
    busy = 100 * totals["all"] / max(wall * cores, 1e-9)
    return (
        f"CPU per log entry (ms): {parts}; all {1000 * totals['all'] / per:.1f}"
        f" — the {cores} cores {busy:.0f} % busy during the game"
    )
