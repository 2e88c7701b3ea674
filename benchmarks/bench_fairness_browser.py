"""Shuffle + deal + audit of a 97-card deck inside headless Chromium, per browser backend.

Runs ``benchmarks/bench_fairness.py``'s ``run`` under Pyodide in a page of our site (WebCrypto and
the pure-Python fallback), and compares with one native scalar multiplication measured by CPython
in the same run. Run inside a loopback-only namespace after the build:
``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_fairness_browser'``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from benchmarks import bench_fairness, options
from tests.e2e.harness import Player, chromium, signaling_server

DRIVER = """
import json
from engine.fairness.backends import available_backends, self_test
results = []
for backend in available_backends():
    if await self_test(backend):
        for seats in (3, 6, 8):
            results.append([backend.name, seats, await run(backend, seats)])
json.dumps(results)
"""


def module_source() -> str:
    """bench_fairness.py without its command-line entry point."""
    source = Path(bench_fairness.__file__).read_text()
    return source.split('if __name__ == "__main__":')[0]


async def browser_results() -> list[list[Any]]:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "bench", voice=False)
            script = "(code) => window.magicTable.pyodide.runPythonAsync(code)"
            await player.page.evaluate(script, module_source())
            text = await player.page.evaluate(script, DRIVER)
            return list(json.loads(text))


def main() -> None:
    options.parser(__doc__).parse_args()  # --help, or a word it does not take
    floor = asyncio.run(bench_fairness.native_floor())
    results = asyncio.run(browser_results())
    print(f"floor: one native P-256 scalar multiplication (CPython) = {floor * 1e6:.1f} µs")
    print("| backend (Chromium) | seats | shuffle s | ×floor | deal 97 s | audit s | share s |")
    print("|---|---|---|---|---|---|---|")
    for name, seats, r in results:
        print(
            f"| {name} | {seats} | {r['shuffle']:.3f} | {r['shuffle'] / floor:.0f} |"
            f" {r['deal']:.3f} | {r['audit']:.3f} | {r['share']:.3f} |"
        )


if __name__ == "__main__":
    main()
