"""«Волшебный круг» in the browser: time from a key press to every page seeing the spell move,
against a raw data-channel ping measured in the same run (3 Chromium pages + a server bot, real
WebRTC, a whole game).

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_circle_browser'``
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from benchmarks.bench_table_browser import PINGS, TRACE, pct
from tests.e2e.circle_driver import blow_away, table_state
from tests.e2e.harness import Player, chromium, signaling_server

COUNTDOWN = 2
# A press counts only if its action is among the next few entries (a press refused because the
# spell had moved on has no entry, and must not borrow a later one).
NEAR = 2


def key_latencies(traces: list[dict[str, Any]]) -> list[float]:
    """For each key press, ms until its action entry was shown on the slowest page."""
    log = traces[0]["log"]
    result = []
    for trace in traces:
        for pressed, entries in trace["submitted"]:
            start = int(entries)
            index = next(
                (
                    i
                    for i in range(start, min(len(log), start + NEAR + 1))
                    if log[i][0] == trace["tid"] and log[i][1] == "action"
                ),
                None,
            )
            if index is None:
                continue
            shown = [t["applied"][index] for t in traces if index < len(t["applied"])]
            if len(shown) == len(traces):
                result.append(max(shown) - pressed)
    return result


async def run() -> dict[str, Any]:
    with signaling_server() as server:
        async with chromium() as browser:
            players = [
                await Player.open(browser, server.origin + "/", name, voice=False)
                for name in ("Аня", "Боря", "Вера")
            ]
            code = await players[0].create_room()
            for player in players[1:]:
                await player.join_room(code)
            await players[0].page.click("#add-bot")
            for player in players:
                await player.wait_open_channels(3, timeout=60)
            for player in players:
                await player.page.click("#ready")
            host = players[0].page
            await host.select_option("#table-game", "circle")
            await host.fill("#table-countdown", str(COUNTDOWN))
            await host.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
            await host.click("#open-table")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 600
            while True:
                states = [await table_state(p) for p in players]
                if all(s["stage"] == "done" for s in states):
                    break
                if loop.time() > deadline:
                    raise RuntimeError("the game did not finish")
                for player, state in zip(players, states, strict=True):
                    await blow_away(player, state, keep=1)
                await asyncio.sleep(0.05)
            traces = [json.loads(await p.page.evaluate(TRACE)) for p in players]
            pings: list[float] = []
            for player in players:
                pings += list(await player.page.evaluate(PINGS, 20))
            refused = sum(len(s["refused"]) for s in states)
            return {
                "keys": key_latencies(traces),
                "pings": pings,
                "refused": refused,
                "entries": len(traces[0]["log"]),
            }


def main() -> None:
    figures = asyncio.run(run())
    keys, pings = figures["keys"], figures["pings"]
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


if __name__ == "__main__":
    main()
