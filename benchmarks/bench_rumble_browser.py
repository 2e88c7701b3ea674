"""«Схватка» in the browser: click-to-every-page time, the longest main-thread task during a fight,
and memory per tab, with three Chromium pages and a server bot over real WebRTC.

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_rumble_browser'``
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from benchmarks import longtasks
from benchmarks.bench_table_browser import PINGS, TRACE, finished, latencies, panel_stage, pct
from tests.e2e import table_driver
from tests.e2e.harness import chromium, signaling_server
from tests.e2e.rumble_driver import act, setup_lobby, start_rumble
from tests.e2e.table_driver import seat_players

MEMORY = """() => ({ js: performance.memory ? performance.memory.usedJSHeapSize : 0,
  wasm: window.magicTable.pyodide._module.HEAP8.length })"""


async def run() -> dict[str, Any]:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, ["Аня", "Боря", "Вера"])
            await setup_lobby(players)
            starts = await longtasks.observe(players)
            await start_rumble(players[0], "tournament", 1, 60, 60)
            await table_driver.play_until(
                players, finished, state=panel_stage, act=act, timeout=900
            )
            long_tasks = await longtasks.collect(players, starts)  # before the readings below
            traces = [json.loads(await p.page.evaluate(TRACE)) for p in players]
            pings: list[float] = []
            for player in players:
                pings += list(await player.page.evaluate(PINGS, 20))
            memory = [await p.page.evaluate(MEMORY) for p in players]
            return {
                "clicks": latencies(traces),
                "pings": pings,
                "long": long_tasks,
                "memory": memory,
                "entries": len(traces[0]["log"]),
            }


def main() -> None:
    figures = asyncio.run(run())
    clicks, pings = figures["clicks"], figures["pings"]
    one_way = pct(pings, 0.5) / 2
    mb = [(m["js"] + m["wasm"]) / 1e6 for m in figures["memory"]]
    entries = figures["entries"]
    print(f"## «Схватка», one fight: 3 Chromium pages + 1 server bot ({entries} entries)")
    print(
        f"click to shown on every page ({len(clicks)} clicks): p50 {pct(clicks, 0.5):.1f} ms,"
        f" p95 {pct(clicks, 0.95):.1f} ms; one-way ping {one_way:.2f} ms"
        f" (click p50 = {pct(clicks, 0.5) / one_way:.0f}x)"
    )
    print(longtasks.summary(figures["long"]))
    print("memory per tab (JS heap + Python heap): " + ", ".join(f"{m:.0f} MB" for m in mb))


if __name__ == "__main__":
    main()
