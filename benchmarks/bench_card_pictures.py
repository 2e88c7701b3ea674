"""What showing new card pictures costs a page: one Chromium page with the site's stylesheet shows
a «Схватка» hand of ``HAND`` cards ``HANDS`` times, each time ``HAND`` cards it has not shown
before, as when a fight deals. The page's rendering CPU per hand (its main thread's style,
layout, paint and layerizing; raster; the compositor; the GPU process) is read from a Chrome
trace, for the pictures as the site shows them (the build's WebP bitmaps at the card's own size,
``web/assets/bitmaps.py``), as SVG (how the site showed them before), and for the floor: the
same hand with no pictures. A new SVG picture is a document the page styles, lays out and paints
on its main thread; a bitmap is decoded off it.

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_card_pictures'``
"""

from __future__ import annotations

import asyncio
import json

from benchmarks import options
from benchmarks.bench_log_paint import open_page, rendering_ms
from tests.e2e.harness import chromium, signaling_server
from web.build import ROOT

HAND = 8
HANDS = 12
PAGE = "/bench-card-pictures"
HTML = (
    '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
    '<link rel="stylesheet" href="/style.css"></head><body><main class="app">'
    '<section class="rumble"><div id="hand" class="hand rumble-hand"></div></section>'
    "</main></body></html>"
)
# A hand of buttons as the board draws them; resolves once every picture is decoded and drawn.
SHOW = """(sources) => new Promise((done) => {
  const hand = document.getElementById('hand');
  hand.innerHTML = sources.map((s) => '<button class="hand-card"><img '
    + (s ? 'src="' + s + '"' : '') + ' alt=""><span class="card-name">Карта</span></button>')
    .join('');
  const pictures = [...hand.querySelectorAll('img[src]')].map((i) => i.decode().catch(() => null));
  Promise.all(pictures).then(() =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 30))));
})"""
SVG, BITMAPS, FLOOR = "SVG pictures (before)", "bitmaps (the site now)", "no pictures (the floor)"


def hands(kind: str) -> list[list[str]]:
    """``HANDS`` hands of cards not shown before, as ``kind`` draws them."""
    stems = sorted(p.stem for p in (ROOT / "web" / "dist" / "art" / "rumble").glob("*.svg"))
    if len(stems) < HAND * HANDS:
        raise SystemExit("build the site first (python -m web.build): too few card pictures")
    ending = {SVG: ".svg", BITMAPS: ".webp", FLOOR: ""}[kind]
    urls = [f"/art/rumble/{stem}{ending}" if ending else "" for stem in stems]
    return [urls[i * HAND : (i + 1) * HAND] for i in range(HANDS)]


async def measure(origin: str, kind: str) -> dict[str, float]:
    """One fresh page: ``HANDS`` new hands traced; rendering ms per hand by part."""
    async with chromium() as browser:
        page = await open_page(browser, origin + PAGE, HTML)
        await page.evaluate(SHOW, [""] * HAND)  # the page drawn once before the count
        await browser.start_tracing(categories=["toplevel", "devtools.timeline"])
        for hand in hands(kind):
            await page.evaluate(SHOW, hand)
        return rendering_ms(json.loads(await browser.stop_tracing()), HANDS)


async def run(rounds: int = 2) -> dict[str, list[dict[str, float]]]:
    """Each kind's rendering per hand, ``rounds`` times, the kinds in turn."""
    spent: dict[str, list[dict[str, float]]] = {kind: [] for kind in (SVG, BITMAPS, FLOOR)}
    with signaling_server() as server:
        for _ in range(rounds):
            for kind in spent:
                spent[kind].append(await measure(server.origin, kind))
    return spent


def main() -> None:
    options.parser(__doc__).parse_args()  # --help, or a word it does not take
    spent = asyncio.run(run())
    best = {kind: min(runs, key=lambda parts: sum(parts.values())) for kind, runs in spent.items()}
    floor = sum(best[FLOOR].values())
    floor_main = best[FLOOR].get("main thread", 0.0)
    print(f"## New card pictures: one page shows {HANDS} hands of {HAND} cards it has not shown")
    for kind, parts in best.items():
        total, main = sum(parts.values()), parts.get("main thread", 0.0)
        print(
            f"{kind}: {total:.1f} ms of rendering CPU per hand ({total / floor:.2f}x the floor),"
            f" of which the main thread {main:.1f} ms ({main / floor_main:.2f}x); best of"
            f" {len(spent[kind])}"
        )


if __name__ == "__main__":
    main()
