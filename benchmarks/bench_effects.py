"""What each of the table's effects costs the machine: three Chromium pages (the browser games'
setting) play one kind of effect again and again through the page's own ``web.ui.fx`` (silent,
as a spectator's), and the CPU of the pages' threads and the display compositor is read from
``/proc`` (``cpu_use.by_thread``); the same pages idle for as long are the floor, measured in
the same run before, between and after the effects. Each figure is one effect on one page.

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_effects [--times N]'``

An effect's cost is mostly its frames: while anything moves, every page's compositor and the
display compositor draw one at the screen's rate; what it shows standing still costs nearly
nothing. Each kind's Python is compiled once in the page (``SET_UP``); the benchmark's call for
an effect is then one call of a prepared function (``PLAY``), not a compilation of its source.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from benchmarks import cpu_use, options
from tests.e2e.fx_panel import panel_code
from tests.e2e.harness import Player, chromium, signaling_server

PAGES = 3
PERIOD_MS = 3000  # one effect every 3 s: longer than the longest effect's life (a banner, 2.6 s)
CARDS = ("src_spark_lord", "q_spark_scorching", "d_spark_thunderbolt")  # a spell of «Схватка»
# Each kind of effect: the page's Python that plays one (``shown``, ``picture`` and ``icon`` are
# set up by ``SET_UP``); the seats are in view, as an effect out of view is not played.
KINDS = {
    "banner": "shown.banner('Огненный шар', [picture(f'/art/rumble/{c}.svg') for c in CARDS])",
    "floating number": "shown.float_at(1, '−3', 'hit')",
    "flown icon": "shown.fly(0, 1, icon('hit'))",
    "ghost": "shown.icon_at(0, icon('ghost'), 'ghost')",
    "shake": "shown.shake(1)",
    "dice tumble": "shown._roll = ''\nshown.dice()",
}
SET_UP = (
    panel_code([(60, 200), (700, 260)], "position:absolute;left:400px;top:420px")
    + "from web.ui.i18n import picture\n"
    + f"CARDS = {CARDS!r}\n"
    + "shown = fx.Effects(Sound(True))\n"
    # Compiled once here: a compilation of a kind's source for every effect was counted in the
    # pages' main-thread figures (2–3 ms of each).
    + "PLAYS = {kind: compile(code + '\\nshown._place()', kind, 'exec')"
    + f" for kind, code in {KINDS!r}.items()}}\n"
    + "def play_effect(kind):\n    exec(PLAYS[kind], globals())\n"
)
PLAY = """async ([kind, times, period]) => {
  const play = window.magicTable.pyodide.globals.get("play_effect");
  try {
    for (let i = 0; i < times; i++) {
      play(kind);
      await new Promise((done) => setTimeout(done, period));
    }
  } finally {
    play.destroy();
  }
}"""
IDLE = "async (ms) => { await new Promise((done) => setTimeout(done, ms)); }"
GROUPS = (cpu_use.PAGE_MAIN, cpu_use.PAGE_COMPOSITOR, cpu_use.PAGE_OTHER, cpu_use.DISPLAY)
Reading = dict[str, float]  # CPU seconds by thread group, and "all" (every process)


def reading() -> Reading:
    """The CPU so far: the pages' threads and the display compositor, and every process."""
    everything = sum(seconds for _, seconds in cpu_use.snapshot().values())
    return {**cpu_use.by_thread(), "all": everything}


def difference(before: Reading, after: Reading) -> Reading:
    return {group: after[group] - before.get(group, 0.0) for group in after}


async def spend(players: list[Player], script: str, argument: object) -> tuple[Reading, float]:
    """Run ``script`` on every page at once; the CPU it took and the seconds it lasted."""
    before, began = reading(), time.monotonic()
    await asyncio.gather(*(p.page.evaluate(script, argument) for p in players))
    return difference(before, reading()), time.monotonic() - began


def per_effect(spent: Reading, floor: Reading, seconds: float, effects: int) -> Reading:
    """Milliseconds of CPU one effect on one page cost over the floor (the idle pages' CPU a
    second, taken for as long as the effects ran)."""
    return {g: 1000 * (spent[g] - floor[g] * seconds) / effects for g in spent}


def floor_of(idles: list[tuple[Reading, float]]) -> Reading:
    """The idle pages' CPU seconds per second, over every idle spell."""
    seconds = sum(s for _, s in idles)
    return {g: sum(r[g] for r, _ in idles) / seconds for g in idles[0][0]}


def row(name: str, figures: Reading, floor: Reading) -> str:
    """One effect's line: ms by group, in all, and as seconds of the idle pages' floor."""
    parts = "  ".join(f"{figures[g]:6.1f}" for g in (*GROUPS, "all"))
    idle_seconds = figures["all"] / (1000 * floor["all"]) if floor["all"] > 0 else float("nan")
    return f"{name:16s} {parts}   = {idle_seconds:5.1f} s of the idle pages"


def command_line(args: list[str] | None = None) -> argparse.Namespace:
    """``--times N``: effects of each kind per page (default 5), checked before anything
    starts (``--help``: the docstring above)."""
    parser = options.parser(__doc__)
    parser.add_argument("--times", type=options.whole(1, 50, "effects"), default=5)
    return parser.parse_args(args)


async def run(times: int) -> tuple[dict[str, Reading], Reading]:
    with signaling_server() as server:
        async with chromium() as browser:
            players = [
                await Player.open(browser, server.origin + "/", f"Зритель {i}", voice=False)
                for i in range(PAGES)
            ]
            for player in players:
                await player.page.evaluate(
                    "(code) => window.magicTable.pyodide.runPythonAsync(code)", SET_UP
                )
            spell = times * PERIOD_MS
            idles = [await spend(players, IDLE, spell)]
            spent: dict[str, tuple[Reading, float]] = {}
            for number, kind in enumerate(KINDS):
                spent[kind] = await spend(players, PLAY, [kind, times, PERIOD_MS])
                if number == len(KINDS) // 2:
                    idles.append(await spend(players, IDLE, spell))
            idles.append(await spend(players, IDLE, spell))
            floor = floor_of(idles)
            effects = times * PAGES
            return {
                kind: per_effect(cpu, floor, seconds, effects)
                for kind, (cpu, seconds) in spent.items()
            }, floor


def main() -> None:
    times = command_line().times
    costs, floor = asyncio.run(run(times))
    print(
        f"## The table's effects: {PAGES} Chromium pages, each playing every kind {times} times"
        f" (one every {PERIOD_MS / 1000:g} s), silent"
    )
    print(
        "floor, the same pages idle (ms of CPU a second): "
        + ", ".join(f"{g} {1000 * floor[g]:.1f}" for g in GROUPS)
        + f"; every process {1000 * floor['all']:.1f}"
    )
    print("CPU of one effect on one page over the floor (ms):")
    print(f"{'':16s}   main  compos  others  display   all")
    for kind, figures in costs.items():
        print(row(kind, figures, floor))


if __name__ == "__main__":
    main()
