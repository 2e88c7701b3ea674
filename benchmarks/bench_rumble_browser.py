"""«Схватка» in the browser: click-to-every-page time, the longest main-thread task during a fight,
and memory per tab, with three Chromium pages and a server bot over real WebRTC.

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_rumble_browser [--steps]'``

``--steps`` also times every step of the pages' Python (each asyncio callback) and prints the
kinds of step that took longest, each named by where its coroutine resumed and where it paused,
and how many of the long tasks held such a step.
``--profile`` runs the first guest's Python under ``cProfile`` for the fight and prints its
functions by own time and by total time (the profiler slows the page: its figures are then not
the product's). ``--path`` times each leg of a click's way to every page (``entry_path``).
``--fights 2`` or ``3`` plays a tournament of that many fights (more clicks, steadier percentiles).
``--think 0.3-1.2`` plays with ``light_driver`` instead of the tests' driver: each page is read when
its table changes and makes its move a random 0.3–1.2 s after it was offered, as players do;
without it every page clicks the moment it sees a move (a stress test of the two cores).
``--trace`` records a Chrome trace of the game and prints, for the tasks over 50 ms, how long
each ran on its thread (``task_trace``): the rest of its time it waited for a core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from collections import defaultdict
from typing import Any

from playwright.async_api import Error as PlaywrightError

from benchmarks import cpu_use, entry_path, light_driver, longtasks, options, samples, task_trace
from benchmarks.bench_table_browser import PINGS, TRACE, finished, latencies, panel_stage, pct
from tests.e2e import table_driver
from tests.e2e.harness import Player, chromium, signaling_server
from tests.e2e.rumble_driver import act, setup_lobby, start_rumble
from tests.e2e.table_driver import seat_players

# Wraps the page's event loop: every step over LIMIT ms, with its coroutine's place around it.
STEPS = """
import js
from asyncio import events
STEPS, LIMIT = [], 15.0
def _where(callback):
    task = getattr(callback, "__self__", None)
    coro = task.get_coro() if hasattr(task, "get_coro") else None
    places = []
    while coro is not None and getattr(coro, "cr_frame", None) is not None:
        code = coro.cr_frame.f_code
        if not code.co_filename.endswith(("/asyncio/tasks.py", "/asyncio/locks.py", "/pace.py")):
            places.append(f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}")
        coro = coro.cr_await
    return " > ".join(places[-3:]) or getattr(callback, "__qualname__", "?")
_run = events.Handle._run
def _timed(handle):
    before, start = _where(handle._callback), js.performance.now()
    _run(handle)
    took = js.performance.now() - start
    if took > LIMIT:
        STEPS.append([took, before, _where(handle._callback), start])
events.Handle._run = _timed
"""
STEPS_READ = "() => window.magicTable.pyodide.runPython('import json; json.dumps(STEPS)')"


PROFILE = "import cProfile; PROFILER = cProfile.Profile(); PROFILER.enable()"
PROFILE_READ = r"""
import io, json, pstats
PROFILER.disable()
_out = io.StringIO()
_stats = pstats.Stats(PROFILER, stream=_out)
_stats.sort_stats("tottime").print_stats(30)
_stats.sort_stats("cumulative").print_stats(45)
json.dumps([_stats.total_tt, _stats.total_calls, _out.getvalue()])
"""

RUN = "(code) => window.magicTable.pyodide.runPython(code)"


async def profile_start(player: Player) -> None:
    """Run ``player``'s Python under ``cProfile`` from now on."""
    await player.page.evaluate(RUN, PROFILE)


async def profile_read(player: Player) -> tuple[float, int, str]:
    """Stop the profiler: the seconds of Python it saw, its function calls, and its listing."""
    total, calls, listing = json.loads(await player.page.evaluate(RUN, PROFILE_READ))
    return float(total), int(calls), str(listing)


def profile_report(profile: tuple[float, int, str], entries: int) -> str:
    """The profiled page's Python in all and per log entry, then its listing. The calls per
    entry depend far less on the machine's load than the seconds do."""
    total, calls, listing = profile
    per = max(1, entries)
    return (
        f"cProfile of the first guest's page during the game: {total:.2f} s of Python,"
        f" {1000 * total / per:.1f} ms and {calls / per:.0f} function calls per entry"
        f" ({entries} entries)\n{listing}"
    )


MEMORY = """() => ({ js: performance.memory ? performance.memory.usedJSHeapSize : 0,
  wasm: window.magicTable.pyodide._module.HEAP8.length })"""


async def run(
    steps: bool = False,
    profile: bool = False,
    path: bool = False,
    fights: int = 1,
    think: tuple[float, float] | None = None,
    trace: bool = False,
) -> dict[str, Any]:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, ["Аня", "Боря", "Вера"])
            await setup_lobby(players)
            for player in players if steps else []:
                await player.page.evaluate(
                    "(code) => window.magicTable.pyodide.runPython(code)", STEPS
                )
            if profile:
                await profile_start(players[1])
            if path:
                await entry_path.start(players)
            if trace:
                await task_trace.start(browser)
            starts = await longtasks.observe(players)
            cpu_before, began = cpu_use.snapshot(), time.monotonic()
            mains_before = cpu_use.main_threads()
            await start_rumble(players[0], "tournament", fights, 60, 60)
            if think is None:
                await table_driver.play_until(
                    players, finished, state=panel_stage, act=act, timeout=900
                )
            else:
                await light_driver.play(players, think, timeout=900)
            cpu = cpu_use.spent(cpu_before, cpu_use.snapshot())
            mains = cpu_use.waited(mains_before, cpu_use.main_threads())
            wall = time.monotonic() - began
            long_tasks = await longtasks.collect_timed(players, starts)  # before the readings
            origins = await longtasks.origins(players)
            traced = await task_trace.stop(browser) if trace else []
            timed = [json.loads(await p.page.evaluate(STEPS_READ)) for p in players if steps]
            profiled = await profile_read(players[1]) if profile else (0.0, 0, "")
            traces = [json.loads(await p.page.evaluate(TRACE)) for p in players]
            paths = await entry_path.read(players) if path else []
            pings: list[float] = []
            for player in players:
                with contextlib.suppress(PlaywrightError):  # timed out under load
                    pings += list(await player.page.evaluate(PINGS, 20))
            memory = [await p.page.evaluate(MEMORY) for p in players]
            return {
                "clicks": latencies(traces),
                "pings": pings,
                "long": [[d for _, d in page] for page in long_tasks],
                "long_when": longtasks.when_traced(long_tasks, [traces], origins),
                "long_with_python": (
                    longtasks.with_python(long_tasks, [[[s[0], s[3]] for s in p] for p in timed])
                    if steps
                    else None
                ),
                "memory": memory,
                "cpu": cpu,
                "mains": mains,
                "wall": wall,
                "entries": len(traces[0]["log"]),
                "steps": [step for page in timed for step in page],
                "profile": profiled,
                "path": entry_path.click_legs(paths, traces) if path else {},
                "traced": traced,
            }


def step_summary(steps: list[list[Any]], top: int = 12) -> list[str]:
    """The kinds of Python step over the limit, longest total first: count, total, longest."""
    kinds: dict[tuple[str, str], list[float]] = defaultdict(list)
    for took, before, after, _ in steps:
        kinds[(before, after)].append(float(took))
    ranked = sorted(kinds.items(), key=lambda item: -sum(item[1]))[:top]
    return [
        f"{len(times):4d} steps, {sum(times):7.0f} ms, longest {max(times):4.0f} ms:"
        f" {before}  →  {after}"
        for (before, after), times in ranked
    ]


def think_times(text: str) -> tuple[float, float]:
    """``--think``'s ``LOW-HIGH`` seconds."""
    try:
        low, high = (float(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"takes LOW-HIGH seconds, like 0.3-1.2 (not {text!r})"
        ) from None
    if not 0 <= low <= high <= 10:
        raise argparse.ArgumentTypeError(f"wants 0 <= LOW <= HIGH <= 10 seconds (not {text!r})")
    return low, high


def command_line(args: list[str] | None = None) -> argparse.Namespace:
    """The options, checked before anything starts (``--help``: the docstring above)."""
    parser = options.parser(__doc__)
    for flag in ("--steps", "--profile", "--path", "--trace"):
        parser.add_argument(flag, action="store_true")
    parser.add_argument("--fights", type=int, choices=(1, 2, 3), default=1)
    parser.add_argument("--think", type=think_times, metavar="LOW-HIGH")
    options.add_samples(parser)
    return parser.parse_args(args)


def main() -> None:
    asked = command_line()
    steps, profile, path, trace = asked.steps, asked.profile, asked.path, asked.trace
    fights, think = asked.fights, asked.think
    figures = asyncio.run(run(steps, profile, path, fights, think, trace))
    clicks, pings = figures["clicks"], figures["pings"] or [float("nan")]
    one_way = pct(pings, 0.5) / 2
    mb = [(m["js"] + m["wasm"]) / 1e6 for m in figures["memory"]]
    entries = figures["entries"]
    fought = "one fight" if fights == 1 else f"a tournament of {fights} fights"
    paced = (
        "every page clicks as soon as it sees a move"
        if think is None
        else f"each page moves {think[0]:g}–{think[1]:g} s after it is offered one"
    )
    print(f"## «Схватка», {fought}: 3 Chromium pages + 1 server bot ({entries} entries; {paced})")
    print(
        f"click to shown on every page ({len(clicks)} clicks): p50 {pct(clicks, 0.5):.1f} ms,"
        f" p95 {pct(clicks, 0.95):.1f} ms; one-way ping {one_way:.2f} ms"
        f" (click p50 = {pct(clicks, 0.5) / one_way:.0f}x)"
    )
    print(longtasks.summary(figures["long"]))
    longtasks.print_when(figures["long_when"])
    total = figures["cpu"].get("all")
    per_entry = 1000 * total / max(1, entries) if total else None
    samples.write(asked.json, clicks, figures["long"], per_entry)
    if trace:
        print(task_trace.report(figures["traced"]))
    print("memory per tab (JS heap + Python heap): " + ", ".join(f"{m:.0f} MB" for m in mb))
    print(cpu_use.report(figures["cpu"], entries, figures["wall"]))
    ran, waits = figures["mains"]
    print(cpu_use.wait_report(ran, waits, entries))
    if steps:
        count = sum(len(page) for page in figures["long"])
        print(
            f"of the {count} tasks over 50 ms, {figures['long_with_python']} held a Python step"
            " over 15 ms of the page's event loop; the others, the browser's own work (style,"
            " layout, paint), JavaScript, or Python called straight from a page event"
        )
        print("Python steps over 15 ms on the three pages (resumed at → paused at):")
        print("\n".join(step_summary(figures["steps"])))
    if profile:
        print(profile_report(figures["profile"], entries))
    if path:
        print(entry_path.report(figures["path"]))


if __name__ == "__main__":
    main()
