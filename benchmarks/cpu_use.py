"""CPU time the machine's processes spent during a benchmark's game, by kind (Chromium's
renderers, its GPU process, the rest of the browser, the server bot, everything), read from
``/proc``: a steadier figure than the wall-clock tails, which stretch with every process that
shares the two cores. Also how long the pages' main threads ran and how long they waited on the
kernel's run queue for a core (``/proc/<pid>/schedstat``): a task that is long by the wall clock
but waited most of it was slowed by the machine, not by its own work. And the CPU of the pages'
threads by kind, with the display compositor's (``by_thread``). Linux only; elsewhere the
readings are empty."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

BOT = "server bot"  # its work per entry is the same in every run: a yardstick of the machine
KINDS = (
    ("renderers", "--type=renderer"),
    ("GPU process", "--type=gpu-process"),
    ("rest of the browser", "chromium"),
    (BOT, "signaling.peer"),
)
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = "--type=renderer"
BROWSERS_OWN = "--top-chrome-webui"  # a renderer of the browser's own pages, not of ours
GPU = "--type=gpu-process"
# The threads ``by_thread`` tells apart, by the process they are in and their name (``comm``).
PAGE_MAIN = "pages' main threads"
PAGE_COMPOSITOR = "pages' compositor threads"
PAGE_OTHER = "pages' other threads (raster, WebRTC...)"
DISPLAY = "display compositor (GPU process)"


def _processes() -> Iterator[tuple[Path, str]]:
    """Every process now: its ``/proc`` folder and its command line (one that ends while it is
    read is left out)."""
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        yield entry, command.replace(b"\0", b" ").decode(errors="replace")


def snapshot() -> dict[int, tuple[str, float]]:
    """Every process now: its kind (``KINDS``, or ``other``) and CPU seconds so far."""
    seen: dict[int, tuple[str, float]] = {}
    for entry, command in _processes():
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        seconds = _thread_seconds(stat)
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
    """The CPU per log entry by kind, and how busy the two cores were. With a server bot, also
    everything over the bot's share: the bot does the same work for an entry in every run, so
    the ratio compares runs on a machine whose speed drifts (the milliseconds alone do not)."""
    if not totals:
        return "CPU use: not readable here"
    per = max(1, entries)
    parts = ", ".join(f"{name} {1000 * totals.get(name, 0.0) / per:.1f}" for name, _ in KINDS)
    cores = os.cpu_count() or 1
    busy = 100 * totals["all"] / max(wall * cores, 1e-9)
    bot = totals.get(BOT, 0.0)
    versus_bot = f" = {totals['all'] / bot:.1f}× the server bot's" if bot > 0 else ""
    return (
        f"CPU per log entry (ms): {parts}; all {1000 * totals['all'] / per:.1f}{versus_bot}"
        f" — the {cores} cores {busy:.0f} % busy during the game"
    )


def _thread_seconds(stat: str) -> float:
    """A ``/proc/.../stat`` line's user and system CPU seconds."""
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_group(pid: int, tid: int, name: str, command: str) -> str | None:
    """Which of ``by_thread``'s groups a thread belongs to, if any: a page's main thread is its
    renderer's first thread; the display compositor is the GPU process's ``VizCompositorTh``."""
    if PAGE in command and BROWSERS_OWN not in command:
        if tid == pid:
            return PAGE_MAIN
        return PAGE_COMPOSITOR if name == "Compositor" else PAGE_OTHER
    if GPU in command and name.startswith("VizCompositor"):
        return DISPLAY
    return None


def by_thread() -> dict[str, float]:
    """CPU seconds so far of the pages' threads and the display compositor, by group (every
    thread of every process now; one that ends while it is read is left out)."""
    totals = dict.fromkeys((PAGE_MAIN, PAGE_COMPOSITOR, PAGE_OTHER, DISPLAY), 0.0)
    for entry, command in _processes():
        if PAGE not in command and GPU not in command:
            continue
        for task in entry.glob("task/[0-9]*"):
            try:
                name = (task / "comm").read_text().strip()
                seconds = _thread_seconds((task / "stat").read_text())
            except (OSError, ValueError):
                continue
            group = thread_group(int(entry.name), int(task.name), name, command)
            if group is not None:
                totals[group] += seconds
    return totals


def main_threads() -> dict[int, tuple[int, int]]:
    """Each page's main thread now (its renderer process's first thread): nanoseconds it has
    run and nanoseconds it has waited on a run queue for a core."""
    seen: dict[int, tuple[int, int]] = {}
    for entry, command in _processes():
        if PAGE not in command or BROWSERS_OWN in command:
            continue
        try:
            ran, waited, _ = (entry / "schedstat").read_text().split()
        except (OSError, ValueError):  # gone meanwhile, or no scheduler statistics
            continue
        seen[int(entry.name)] = (int(ran), int(waited))
    return seen


def waited(
    before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]
) -> tuple[float, float]:
    """Seconds the pages' main threads ran, and waited for a core, between two readings."""
    ran = waits = 0
    for pid, (run_ns, wait_ns) in after.items():
        run0, wait0 = before.get(pid, (0, 0))
        ran, waits = ran + run_ns - run0, waits + wait_ns - wait0
    return ran / 1e9, waits / 1e9


def wait_report(ran: float, waits: float, entries: int) -> str:
    """The pages' main threads' running and waiting per log entry."""
    if ran <= 0:
        return "the pages' main threads: not readable here"
    per = 1000 / max(1, entries)
    return (
        f"the pages' main threads per log entry: ran {ran * per:.1f} ms, waited for a core"
        f" {waits * per:.1f} ms ({waits / ran:.2f}× their running time)"
    )
