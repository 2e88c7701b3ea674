"""What a log line's picture costs the page each time the log changes: one Chromium page with the
site's stylesheet holds a game log of ``LINES`` lines; ``CHANGES`` times a line comes, the oldest
goes and the log scrolls to its end, as at a table. The page's rendering CPU per change (the main
thread's style, layout, paint and layerizing; raster; the compositor; the GPU process) is read
from a Chrome trace, for the log as the site draws it (each line painted apart, its picture a
glyph of the log's icon font), for those glyphs in lines painted together, for SVG pictures drawn
through a mask in the line's colour (how the site drew them before), and for the floor: the same
lines as bare text (no pictures, painted together).

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_log_paint'``
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any
from urllib.parse import quote

from playwright.async_api import Browser, Page

from benchmarks import options, task_trace
from tests.e2e.harness import chromium, signaling_server
from web.assets.icons import body, size
from web.ui import log_icons

LINES = 120  # a board keeps its last 40 to 139 lines (rumble_views.LOG_LINES, log_view.STEP)
CHANGES = 120
RENDERING = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize")
# A page of the site's origin with only its stylesheet (the app itself would start Python beside
# the measurement); Playwright answers for it, the server for the stylesheet and fonts.
PAGE = "/bench-log-paint"
HTML = (
    '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
    '<link rel="stylesheet" href="/style.css"></head><body><main class="app">'
    '<section class="rumble"><ol id="game-log" class="game-log"></ol></section>'
    "</main></body></html>"
)
SETUP = """([kinds, lines]) => {
  const log = document.getElementById('game-log');
  let count = 0;
  window.addLine = () => {
    const line = document.createElement('li');
    line.dataset.k = kinds[count % kinds.length];
    line.textContent = 'Строка ' + (count++) + ': Аня запечатывает 2 карты, Боря бросает кубики';
    log.append(line);
  };
  for (let i = 0; i < lines; i++) addLine();
}"""
CHANGE = """() => new Promise((done) => {
  const log = document.getElementById('game-log');
  addLine();
  log.firstElementChild.remove();
  requestAnimationFrame(() => {
    log.scrollTop = log.scrollHeight;
    requestAnimationFrame(() => setTimeout(done, 20));
  });
})"""


def masked_svg_style() -> str:
    """The former pictures: each category's game-icons SVG as a mask over the line's colour."""
    box = size()
    rules = [
        ".game-log li[data-k]::before { content: ''; display: inline-block; width: 1.05em;"
        " height: 1.05em; margin-right: .4em; vertical-align: -.2em; font: inherit;"
        " background: var(--log-tint, var(--muted));"
        " -webkit-mask: var(--log-icon) center / contain no-repeat;"
        " mask: var(--log-icon) center / contain no-repeat; }"
    ]
    for name, icon in log_icons.ICONS.items():
        view = f'viewBox="0 0 {box} {box}"'
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" {view}>{body(icon)}</svg>'
        rules.append(
            f'li[data-k="{name}"] {{ --log-icon: url("data:image/svg+xml,{quote(svg)}"); }}'
        )
    return "\n".join(rules)


TOGETHER = ".game-log li { contain: none; }"  # lines painted with the whole log, as before
FLOOR = "bare text lines (the floor)"
STYLES = {
    "the site's log (glyphs, each line painted apart)": "",
    "glyphs, the lines painted together": TOGETHER,
    "SVG pictures through a mask, the lines painted together (before)": (
        TOGETHER + masked_svg_style()
    ),
    FLOOR: TOGETHER + ".game-log li[data-k]::before { display: none; }",
}


def rendering_ms(trace: dict[str, Any], changes: int) -> dict[str, float]:
    """The page's rendering CPU per change by part, from a trace of ``toplevel`` and
    ``devtools.timeline`` events."""
    events = trace.get("traceEvents", [])
    names = task_trace.thread_names(events)
    page, task = task_trace.RENDERER, task_trace.TASK
    spent: Counter[str] = Counter()
    for e in events:
        if e.get("ph") != "X":
            continue
        process, thread = names.get((e["pid"], e["tid"]), ("", ""))
        cpu = e.get("tdur", 0) / 1000
        if (process, thread) == (page, task_trace.MAIN) and e["name"] in RENDERING:
            spent["main thread"] += cpu
        elif process == page and e["name"] == "TaskGraphRunner::RunTask":
            spent["raster"] += cpu
        elif (process, thread) == (page, "Compositor") and e["name"] == task:
            spent["compositor"] += cpu
        elif (process, thread) == ("GPU Process", "VizCompositorThread") and e["name"] == task:
            spent["GPU process"] += cpu
    return {part: ms / changes for part, ms in spent.items()}


async def open_page(browser: Browser, url: str, html: str) -> Page:
    """A new 1280×720 page at ``url`` (of the site's origin, so its stylesheet and files load)
    showing ``html``, which Playwright answers for."""
    page = await browser.new_page(viewport={"width": 1280, "height": 720})
    await page.route(url, lambda route: route.fulfill(body=html, content_type="text/html"))
    await page.goto(url)
    return page


async def measure(origin: str, style: str) -> dict[str, float]:
    """One fresh page: the log, ``style`` over the site's, ``CHANGES`` changes traced."""
    async with chromium() as browser:
        page = await open_page(browser, origin + PAGE, HTML)
        await page.evaluate(SETUP, [sorted(log_icons.ICONS), LINES])
        if style:
            await page.add_style_tag(content=style)
        await page.evaluate("() => document.fonts.ready.then(() => null)")
        for _ in range(10):  # pictures and glyphs loaded and drawn once before the count
            await page.evaluate(CHANGE)
        await browser.start_tracing(categories=["toplevel", "devtools.timeline"])
        for _ in range(CHANGES):
            await page.evaluate(CHANGE)
        return rendering_ms(json.loads(await browser.stop_tracing()), CHANGES)


async def run(rounds: int = 2) -> dict[str, list[float]]:
    """Each style's total rendering ms per change, ``rounds`` times, the styles in turn."""
    totals: dict[str, list[float]] = {name: [] for name in STYLES}
    with signaling_server() as server:
        for _ in range(rounds):
            for name, style in STYLES.items():
                totals[name].append(sum((await measure(server.origin, style)).values()))
    return totals


def main() -> None:
    options.parser(__doc__).parse_args()  # --help, or a word it does not take
    totals = asyncio.run(run())
    floor = min(totals[FLOOR])
    print(f"## The log's pictures: one page, a log of {LINES} lines changing {CHANGES} times")
    for name, values in totals.items():
        best = min(values)
        print(
            f"{name}: {best:.2f} ms of rendering CPU per change (best of {len(values)});"
            f" {best / floor:.2f}x the floor"
        )


if __name__ == "__main__":
    main()
