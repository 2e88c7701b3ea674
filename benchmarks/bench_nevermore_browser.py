"""«Невермор» in the browser: time from a draft pass's confirm click on one page until every page
has applied that log entry, against a raw data-channel ping measured in the same run. Three
Chromium pages and a server bot play a whole game over real WebRTC.

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_nevermore_browser'``
(add ``--games N`` to play N games in a row on the same pages and pool their passes — one game
gives 36-120 passes, so its p95 rests on its two to six slowest —, ``--profile`` for the first
guest's Python under ``cProfile``, ``--path`` for the legs of a click, ``--trace`` for what the
tasks over 50 ms ran on their thread, as in ``bench_rumble_browser``)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from benchmarks import entry_path, longtasks, options, samples, task_trace
from benchmarks.bench_rumble_browser import profile_read, profile_report, profile_start
from benchmarks.bench_table_browser import PINGS, click_entries, finished, panel_stage, pct
from tests.e2e import table_driver
from tests.e2e.harness import Player, chromium, signaling_server
from tests.e2e.nevermore_driver import act, start_nevermore, table_state
from tests.e2e.table_driver import say_ready, seat_players

# Per log entry: who posted it, its kind, and whether it is a draft pass (an action committing
# the passed cards); plus each page's click and first-shown times (``web.ui.table.TableUI``).
TRACE = """() => { const t = window.magicTableApp.table; return JSON.stringify({
  applied: t.applied_at.toJs(), submitted: t.submitted_at.toJs(), tid: t.session.tid,
  log: t.session.peer.table.log.toJs({dict_converter: Object.fromEntries}).map((e) => {
    const a = e.msg.body.action;
    return [e.msg.from, e.msg.body.t, !!a && a.type === "pass" && a.commit !== undefined]; }) });
}"""


def last_of_step(log: list[list[Any]], index: int) -> bool:
    """Whether the pass at ``index`` is the last commit of its draft step (it completes the step,
    so pages open and deliver the passed cards right after it)."""
    for entry in log[index + 1 :]:
        if entry[1] == "action":
            return not entry[2]
    return True


def pass_latencies(traces: list[dict[str, Any]]) -> list[tuple[float, bool]]:
    """For each pass confirm click: ms until its entry was applied on the slowest page, and
    whether it completed the step (clicks on anything but a draft pass are left out)."""
    log = traces[0]["log"]
    return [(ms, last_of_step(log, i)) for ms, i in click_entries(traces) if log[i][2]]


async def run(
    profile: bool = False, path: bool = False, games: int = 1, trace: bool = False
) -> dict[str, Any]:
    """Play ``games`` games in a row on the same three pages (the host opens each when the last
    is over) and pool their passes."""
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, ["Аня", "Боря", "Вера"])
            await say_ready(players)
            if profile:
                await profile_start(players[1])
            if path:
                await entry_path.start(players)
            if trace:
                await task_trace.start(browser)
            since = await longtasks.observe(players)
            passes: list[tuple[float, bool]] = []
            entries, rounds = [], []
            games_read: list[list[dict[str, Any]]] = []  # each game's pages, for the long tasks
            for _ in range(games):
                await start_nevermore(players[0], 60)
                await opened(players[0])
                await table_driver.play_until(
                    players, finished, state=panel_stage, act=act, timeout=900
                )
                state = await table_state(players[0])
                traces = [json.loads(await p.page.evaluate(TRACE)) for p in players]
                passes += pass_latencies(traces)
                games_read.append(traces)
                entries.append(len(traces[0]["log"]))
                rounds.append(state["round"])
            long_tasks = await longtasks.collect_timed(players, since)
            origins = await longtasks.origins(players)
            traced = await task_trace.stop(browser) if trace else []
            profiled = await profile_read(players[1]) if profile else (0.0, 0, "")
            paths = await entry_path.read(players) if path else []
            pings: list[float] = []
            for player in players:
                with contextlib.suppress(PlaywrightError):  # timed out under load
                    pings += list(await player.page.evaluate(PINGS, 20))
            return {
                "long": [[d for _, d in page] for page in long_tasks],
                "long_when": longtasks.when_traced(long_tasks, games_read, origins),
                "profile": profiled,
                "passes": passes,
                "pings": pings,
                "entries": entries,
                "rounds": rounds,
                "path": entry_path.click_legs(paths, traces) if path else {},
                "traced": traced,
            }


async def opened(host: Player) -> None:
    """Wait until the host's panel has left the last game (its stage reads «done» until the new
    table opens)."""
    await host.page.wait_for_selector('#table-status:not([data-stage="done"])', timeout=60_000)


def command_line(args: list[str] | None = None) -> argparse.Namespace:
    """The options, checked before anything starts (``--help``: the docstring above); ``--path``
    reads one game's legs only."""
    parser = options.parser(__doc__)
    for flag in ("--profile", "--path", "--trace"):
        parser.add_argument(flag, action="store_true")
    parser.add_argument("--games", type=options.whole(1, 5, "games"), default=1)
    options.add_samples(parser)
    asked = parser.parse_args(args)
    if asked.games > 1 and asked.path:
        parser.error("--path times one game's legs: use it with --games 1")
    return asked


def main() -> None:
    asked = command_line()
    games = asked.games
    figures = asyncio.run(run(asked.profile, asked.path, games, trace=asked.trace))
    timed, pings = figures["passes"], figures["pings"] or [float("nan")]
    passes = [ms for ms, _ in timed]
    last = [ms for ms, final in timed if final]
    others = [ms for ms, final in timed if not final]
    one_way = pct(pings, 0.5) / 2
    played = "a whole game" if games == 1 else f"{games} whole games in a row"
    rounds = " + ".join(str(r) for r in figures["rounds"])
    print(
        f"## «Невермор», {played}: 3 Chromium pages + 1 server bot"
        f" ({rounds} rounds, {sum(figures['entries'])} entries)"
    )
    print(
        f"pass confirm to applied on every page ({len(passes)} passes):"
        f" p50 {pct(passes, 0.5):.1f} ms, p95 {pct(passes, 0.95):.1f} ms"
    )
    for label, values in (("completing the step", last), ("the others", others)):
        if values:
            print(
                f"  {label} ({len(values)}): p50 {pct(values, 0.5):.1f} ms,"
                f" p95 {pct(values, 0.95):.1f} ms"
            )
    print(
        f"data-channel ping ({len(pings)}): p50 {pct(pings, 0.5):.2f} ms round trip,"
        f" one-way {one_way:.2f} ms (pass p50 = {pct(passes, 0.5) / one_way:.0f}x one-way)"
    )
    print(longtasks.summary(figures["long"]))
    longtasks.print_when(figures["long_when"])
    samples.write(asked.json, passes, figures["long"])
    if asked.profile:
        print(profile_report(figures["profile"], sum(figures["entries"])))
    if asked.path:
        print(entry_path.report(figures["path"]))
    if figures["traced"]:
        print(task_trace.report(figures["traced"]))


if __name__ == "__main__":
    main()
