"""Rooms: time to interactive (first and second visit) and wire bytes against bare Pyodide, mesh
set-up, chat latency. A second visit is a reload in the same browser context: our page starts from
its service worker and the interpreter snapshot its first visit made (the reload waits for both),
bare Pyodide from the browser's HTTP cache (each file revalidated).

A first visit's bytes are counted twice: by the page's Resource Timing (its own fetches' bodies) and
by a counting proxy between the browser and the server (every byte received, headers too, the
service worker's install and the workers' fetches included), until our page's service worker holds
the build and the interpreter snapshot is made, and until bare Pyodide has started.

Run inside a loopback-only namespace after the build (``make bench`` does both):
``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_rooms'``.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Browser

from benchmarks import options
from tests.e2e.harness import DIST, Player, Server, chromium, signaling_server
from tests.e2e.wire import counting
from web.build import PYODIDE_DIR, PYODIDE_FILES, STDLIB_ZIP

BARE_PAGE = """<!doctype html><meta charset="utf-8"><script type="module">
import { loadPyodide } from "/pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("/pyodide/", location.href).href });
window.bareMs = performance.now();
</script>"""
TRANSFERRED = """() => performance.getEntriesByType("navigation").concat(
  performance.getEntriesByType("resource")).reduce((sum, e) => sum + e.transferSize, 0)"""
KEPT = """async () => { await window.magicTable.offline; await navigator.serviceWorker.ready;
  return Boolean(navigator.serviceWorker.controller); }"""
SNAPSHOT = "async () => window.magicTable.snapshot"
STARTED_FROM = "() => window.magicTable.marks.from"
RUNS = 5


@dataclass
class Load:
    """One page's first and second visit: milliseconds to start and bytes over the wire (by
    Resource Timing; ``cold_wire``: every byte the browser received on the first visit)."""

    cold_ms: float
    cold_bytes: int
    warm_ms: float
    warm_bytes: int
    cold_wire: int
    warm_from: str = "start"


async def bare_pyodide(browser: Browser, server: Server) -> Load:
    """Bare Pyodide from our server (through a counting proxy; the page itself is answered by
    the browser): navigation to a started runtime, then a reload. It loads the site's runtime
    files, so the site's repacked standard library too (``web.stdlib``)."""
    async with counting(server.port) as proxy:
        context = await browser.new_context()
        await context.route(
            f"{proxy.origin}/bare.html",
            lambda route: route.fulfill(body=BARE_PAGE, content_type="text/html"),
        )
        page = await context.new_page()
        figures: list[float] = []
        for _ in range(2):
            if figures:
                await page.reload()
            else:
                await page.goto(f"{proxy.origin}/bare.html")
            await page.wait_for_function("() => window.bareMs", timeout=90_000)
            figures += [float(await page.evaluate("() => window.bareMs"))]
            figures += [float(await page.evaluate(TRANSFERRED))]
            if len(figures) == 2:
                wire = proxy.down
        await context.close()
    return Load(figures[0], int(figures[1]), figures[2], int(figures[3]), wire)


async def our_page(browser: Browser, server: Server) -> Load:
    """Our page (through a counting proxy): navigation until interactive, then (its service
    worker installed and the snapshot made) a reload."""
    async with counting(server.port) as proxy:
        player = await Player.open(browser, proxy.origin + "/", "bench", voice=False, snapshot=True)
        page = player.page
        cold = float(await page.evaluate("() => window.magicTable.interactiveMs"))
        cold_bytes = int(await page.evaluate(TRANSFERRED))
        await asyncio.wait_for(page.evaluate(KEPT), 60)
        made = await asyncio.wait_for(page.evaluate(SNAPSHOT), 120)
        if made != "made":
            raise RuntimeError(f"the first visit made no interpreter snapshot: {made}")
        wire = proxy.down
        await page.reload()
        await player.wait_ready()
        if not await asyncio.wait_for(page.evaluate(KEPT), 60):
            raise RuntimeError("the second visit was not served by the service worker")
        warm = float(await page.evaluate("() => window.magicTable.interactiveMs"))
        warm_bytes = int(await page.evaluate(TRANSFERRED))
        started = str(await page.evaluate(STARTED_FROM))
        await player.context.close()
    return Load(cold, cold_bytes, warm, warm_bytes, wire, started)


def pyodide_compressed() -> tuple[int, int]:
    """Pyodide's own runtime files as the build compressed them, brotli and gzip bytes; its own
    ``python_stdlib.zip`` (deflated members: compression does not shrink it) counts as it is (the
    site serves a repacked one: ``web.stdlib``)."""
    folder = DIST / "pyodide"
    stdlib = (PYODIDE_DIR / STDLIB_ZIP).stat().st_size
    sizes = []
    for suffix in (".br", ".gz"):
        copies = [folder / (name + suffix) for name in PYODIDE_FILES]
        sizes.append(
            sum(
                c.stat().st_size if c.is_file() else c.with_suffix("").stat().st_size
                for c in copies
            )
            + stdlib
        )
    return sizes[0], sizes[1]


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
            figures["bare"], figures["ours"] = bare, ours
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


def median(loads: list[Load], field: str) -> float:
    return float(statistics.median(getattr(load, field) for load in loads))


def print_loads(bare: list[Load], ours: list[Load]) -> None:
    """The first- and second-visit figures, each against bare Pyodide in the same run."""
    cold, warm = median(ours, "cold_ms"), median(ours, "warm_ms")
    bare_cold, bare_warm = median(bare, "cold_ms"), median(bare, "warm_ms")
    print(f"## Rooms (headless Chromium, loopback namespace, median of {RUNS} loads)")
    print(
        f"first visit, time to interactive: {cold:.0f} ms; bare Pyodide start {bare_cold:.0f} ms;"
        f" ratio {cold / bare_cold:.2f}x"
    )
    started = ", ".join(sorted({load.warm_from for load in ours}))
    print(
        f"second visit (service worker, started from: {started}): {warm:.0f} ms ="
        f" {warm / cold:.2f}x the first visit; bare Pyodide's second visit (HTTP cache)"
        f" {bare_warm:.0f} ms = {warm / bare_warm:.2f}x"
    )
    ours_bytes, bare_bytes = median(ours, "cold_bytes"), median(bare, "cold_bytes")
    ours_wire, bare_wire = median(ours, "cold_wire"), median(bare, "cold_wire")
    br, gz = pyodide_compressed()
    print(
        f"first-visit bytes received (counting proxy: headers, service worker install and"
        f" workers included, until the build is kept and the snapshot made): {ours_wire / 1e6:.3f}"
        f" MB; bare Pyodide the same way {bare_wire / 1e6:.3f} MB ({ours_wire / bare_wire:.3f}x);"
        f" Pyodide's own files compressed: brotli {br / 1e6:.3f} MB ({ours_wire / br:.4f}x),"
        f" gzip {gz / 1e6:.3f} MB ({ours_wire / gz:.3f}x); bare Pyodide against brotli"
        f" {bare_wire / br:.3f}x"
    )
    print(
        f"  exactly: {ours_wire:.0f} bytes against brotli's {br} (the aim, 1.05x, is"
        f" {1.05 * br:.0f}: {1.05 * br - ours_wire:+.0f} bytes to spare)"
    )
    print(
        f"first-visit bytes by Resource Timing (the page's own fetches at interactive):"
        f" {ours_bytes / 1e6:.3f} MB; bare Pyodide {bare_bytes / 1e6:.3f} MB"
        f" ({ours_bytes / bare_bytes:.3f}x); against Pyodide's brotli {ours_bytes / br:.3f}x"
    )
    print(
        f"second-visit bytes on the wire: {median(ours, 'warm_bytes') / 1e3:.1f} kB;"
        f" bare Pyodide's {median(bare, 'warm_bytes') / 1e3:.1f} kB"
    )


def main() -> None:
    parser = options.parser(__doc__)
    parser.add_argument(
        "--load", action="store_true", help="only the first and second visits, no mesh or chat"
    )
    only_load = parser.parse_args().load
    figures = asyncio.run(run(only_load))
    print_loads(figures["bare"], figures["ours"])
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
