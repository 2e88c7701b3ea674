"""Rooms: time to interactive and first-load bytes against bare Pyodide, mesh set-up, chat latency.

Run inside a loopback-only namespace after the build (``make bench`` does both):
``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_rooms'``.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from typing import Any

from playwright.async_api import Browser

from tests.e2e.harness import Player, Server, chromium, signaling_server

BARE_PAGE = """<!doctype html><meta charset="utf-8"><script type="module">
import { loadPyodide } from "/pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("/pyodide/", location.href).href });
window.bareMs = performance.now();
</script>"""
TRANSFERRED = """() => performance.getEntriesByType("navigation").concat(
  performance.getEntriesByType("resource")).reduce((sum, e) => sum + e.transferSize, 0)"""
RUNS = 5


async def bare_pyodide(browser: Browser, server: Server) -> tuple[float, int]:
    """Milliseconds from navigation to a started bare Pyodide, and the bytes it transferred."""
    context = await browser.new_context()
    await context.route(
        f"{server.origin}/bare.html",
        lambda route: route.fulfill(body=BARE_PAGE, content_type="text/html"),
    )
    page = await context.new_page()
    await page.goto(f"{server.origin}/bare.html")
    await page.wait_for_function("() => window.bareMs", timeout=90_000)
    started = float(await page.evaluate("() => window.bareMs"))
    result = started, int(await page.evaluate(TRANSFERRED))
    await context.close()
    return result


async def our_page(browser: Browser, server: Server) -> tuple[float, int]:
    """Milliseconds from navigation until our page is interactive, and the bytes it transferred."""
    player = await Player.open(browser, server.origin + "/", "bench", voice=False)
    result = (
        float(await player.page.evaluate("() => window.magicTable.interactiveMs")),
        int(await player.page.evaluate(TRANSFERRED)),
    )
    await player.context.close()
    return result


async def mesh(browser: Browser, server: Server, size: int) -> tuple[float, list[Player]]:
    """Seconds from the first join click until ``size`` pages all have open channels."""
    players = [
        await Player.open(browser, server.origin + "/", f"p{i}", voice=False) for i in range(size)
    ]
    code = await players[0].create_room()
    start = time.perf_counter()
    await asyncio.gather(*(player.join_room(code) for player in players[1:]))
    await asyncio.gather(*(player.wait_open_channels(size - 1, 60) for player in players))
    return time.perf_counter() - start, players


async def latencies(players: list[Player], messages: int) -> tuple[list[float], list[float]]:
    """One-way chat latencies (ms, send to shown) and raw data-channel ping round trips (ms)."""
    for i in range(messages):
        for player in players:
            await player.say(f"замер {i}")
        await asyncio.sleep(0.02)
    expected = messages * (len(players) - 1)
    chat: list[float] = []
    for player in players:
        await player.page.wait_for_function(
            f"() => window.magicTableApp.latencies.length >= {expected}", timeout=30_000
        )
        chat += list(await player.page.evaluate("() => window.magicTableApp.latencies.toJs()"))
    pings: list[float] = []
    script = """async (n) => { const mesh = window.magicTableApp.mesh; const out = [];
      for (let i = 0; i < n; i++) for (const id of mesh.peers.keys()) out.push(await mesh.ping(id));
      return out; }"""
    for player in players:
        pings += list(await player.page.evaluate(script, messages))
    return chat, pings


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(only_load: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with signaling_server() as server:
        async with chromium() as browser:
            bare, ours = [], []
            for _ in range(RUNS):
                bare.append(await bare_pyodide(browser, server))
                ours.append(await our_page(browser, server))
            bare_ms = statistics.median(ms for ms, _ in bare)
            our_ms = statistics.median(ms for ms, _ in ours)
            figures["tti"] = (our_ms, bare_ms)
            figures["bytes"] = (ours[0][1], bare[0][1])
            if only_load:
                return figures
            for size in (3, 6):
                seconds, players = await mesh(browser, server, size)
                figures[f"mesh{size}"] = seconds
                if size == 3:
                    figures["latency"] = await latencies(players, 40)
                for player in players:
                    await player.context.close()
    return figures


def main() -> None:
    only_load = "--load" in sys.argv
    figures = asyncio.run(run(only_load))
    our_ms, bare_ms = figures["tti"]
    our_bytes, bare_bytes = figures["bytes"]
    print("## Rooms (headless Chromium, loopback namespace, median of", RUNS, "cold loads)")
    print(
        f"time to interactive: {our_ms:.0f} ms; bare Pyodide start: {bare_ms:.0f} ms;"
        f" ratio {our_ms / bare_ms:.2f}x"
    )
    print(
        f"first-load bytes: {our_bytes / 1e6:.2f} MB; bare Pyodide: {bare_bytes / 1e6:.2f} MB;"
        f" ratio {our_bytes / bare_bytes:.2f}x"
    )
    if only_load:
        return
    chat, pings = figures["latency"]
    one_way_ping = [p / 2 for p in pings]
    print(
        f"full mesh (data channels, voice off): 3 pages {figures['mesh3']:.2f} s;"
        f" 6 pages {figures['mesh6']:.2f} s"
    )
    print(
        f"chat one-way latency (3 pages, {len(chat)} deliveries): p50 {pct(chat, 0.5):.2f} ms,"
        f" p95 {pct(chat, 0.95):.2f} ms"
    )
    print(
        f"raw data-channel ping round trip: p50 {pct(pings, 0.5):.2f} ms,"
        f" p95 {pct(pings, 0.95):.2f} ms; chat p50 / one-way ping p50:"
        f" {pct(chat, 0.5) / pct(one_way_ping, 0.5):.1f}x"
    )


if __name__ == "__main__":
    main()
