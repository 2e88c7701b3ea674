"""«Волшебный круг» in the browser: time from a key press to every page seeing the spell move,
against a raw data-channel ping measured in the same run (3 Chromium pages + a server bot, real
WebRTC, a whole game).

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_circle_browser'``
(add ``--profile`` for the first guest's Python under ``cProfile``, as in ``bench_rumble_browser``)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from benchmarks import longtasks, options, samples
from benchmarks.bench_rumble_browser import profile_read, profile_report, profile_start
from benchmarks.bench_table_browser import PINGS, TRACE, latencies, pct
from tests.e2e.circle_driver import blow_away, start_circle, table_state
from tests.e2e.harness import Player, chromium, signaling_server
from tests.e2e.table_driver import play_until, say_ready, seat_players

IN_FLIGHT = """() => JSON.stringify(window.magicTableApp.table.in_flight_at.toJs())"""
COUNTDOWN = 2
# A press counts only if its action is among the next few entries (a press refused because the
# spell had moved on has no entry).
NEAR = 2


def in_flight(traces: list[dict[str, Any]], flights: list[list[list[Any]]]) -> list[float]:
    """For each press that was posted: ms until every page showed that play in flight (the
    first in-flight note for its author at or after the press, within a second)."""
    result = []
    for trace in traces:
        for clicked, _ in trace["submitted"]:
            seen = []
            for shown in flights:
                times = [
                    t for t, who in shown if who == trace["tid"] and clicked <= t < clicked + 1e3
                ]
                if times:
                    seen.append(min(times))
            if len(seen) == len(flights):
                result.append(max(seen) - clicked)
    return result


# What a page needs to know to press a key: the tests' full reading (``table_state``: the whole
# log said in words, the digest...) would itself be a long task of the page every tenth of a second.
PRESS_STATE = """() => window.magicTable.pyodide.runPython(`
import json
import sys
from js import window
peer = window.magicTableApp.table.session.peer
out = {"stage": "", "seat": None}
if peer is not None and peer.table.state is not None:
    view = peer.view()
    out = {"stage": peer.table.stage, "seat": peer.seat, "phase": view["phase"],
           "spell": view["spell"], "hand": len(view["hand"])}
json.dumps(out)
`)"""


async def press_state(player: Player) -> dict[str, Any]:
    """The part of the table a page's key press depends on."""
    return dict(json.loads(await player.page.evaluate(PRESS_STATE)))


async def run(profile: bool = False) -> dict[str, Any]:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, ["Аня", "Боря", "Вера"])
            await say_ready(players)
            if profile:
                await profile_start(players[1])
            since = await longtasks.observe(players)
            await start_circle(players[0], COUNTDOWN)

            async def act(player: Player) -> None:
                await blow_away(player, await press_state(player), keep=1)

            done = lambda s: s["stage"] == "done"  # noqa: E731
            await play_until(players, done, state=press_state, act=act, timeout=600)
            for player in players[1:]:  # the last entry reaches the others a moment later
                await player.page.wait_for_selector('#table-status[data-stage="done"]')
            long_tasks = await longtasks.collect_timed(players, since)  # before the readings
            origins = await longtasks.origins(players)
            profiled = await profile_read(players[1]) if profile else (0.0, 0, "")
            states = [await table_state(p) for p in players]
            traces = [json.loads(await p.page.evaluate(TRACE)) for p in players]
            flights = [json.loads(await p.page.evaluate(IN_FLIGHT)) for p in players]
            pings: list[float] = []
            for player in players:
                with contextlib.suppress(PlaywrightError):  # timed out under load
                    pings += list(await player.page.evaluate(PINGS, 20))
            refused = sum(len(s["refused"]) for s in states)
            return {
                "long": [[d for _, d in page] for page in long_tasks],
                "long_when": longtasks.when_traced(long_tasks, [traces], origins),
                "profile": profiled,
                "keys": latencies(traces, NEAR),
                "flights": in_flight(traces, flights),
                "pings": pings,
                "refused": refused,
                "entries": len(traces[0]["log"]),
            }


def command_line(args: list[str] | None = None) -> argparse.Namespace:
    """The options, checked before anything starts (``--help``: the docstring above)."""
    parser = options.parser(__doc__)
    parser.add_argument("--profile", action="store_true")
    options.add_samples(parser)
    return parser.parse_args(args)


def main() -> None:
    asked = command_line()
    profile = asked.profile
    figures = asyncio.run(run(profile))
    keys, pings = figures["keys"], figures["pings"] or [float("nan")]
    one_way = pct(pings, 0.5) / 2
    print(
        f"## «Волшебный круг», one game: 3 Chromium pages + 1 server bot"
        f" ({figures['entries']} entries, {figures['refused']} moves refused as too late)"
    )
    print(
        f"key press to the spell moving on every page ({len(keys)} presses):"
        f" p50 {pct(keys, 0.5):.1f} ms, p95 {pct(keys, 0.95):.1f} ms;"
        f" data-channel ping p50 {pct(pings, 0.5):.2f} ms, p95 {pct(pings, 0.95):.2f} ms"
        f" (key p50 = {pct(keys, 0.5) / one_way:.0f}x one-way ping,"
        f" {pct(keys, 0.5) / pct(pings, 0.5):.1f}x round trip)"
    )
    flights = figures["flights"]
    if flights:
        print(
            f"key press to the play shown in flight on every page ({len(flights)} presses):"
            f" p50 {pct(flights, 0.5):.1f} ms, p95 {pct(flights, 0.95):.1f} ms"
            f" (before the host's window of ordering; p50 = {pct(flights, 0.5) / one_way:.0f}x"
            " one-way ping)"
        )
    print(longtasks.summary(figures["long"]))
    longtasks.print_when(figures["long_when"])
    samples.write(asked.json, flights, figures["long"])
    if profile:
        print(profile_report(figures["profile"], figures["entries"]))


if __name__ == "__main__":
    main()
