"""Helpers of the table-feel and accessibility browser tests: axe-core, keyboard reach, effects."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Page

from .harness import ROOT, Player

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
EFFECTS = """() => window.magicTable.pyodide.runPython(`
import json
from web.ui import feel
fx = feel.STATE["effects"]
json.dumps({"shown": list(fx.shown) if fx else [], "played": list(feel.sound().played)})
`)"""
# Every enabled control of the table panel, as a selector-free description (tag, action, text).
CONTROLS = """() => [...document.querySelectorAll(
  '#table button:not([disabled]), #table input, #table select')]
  .filter((e) => e.offsetParent !== null).map((e) =>
  `${e.tagName}|${e.id}|${e.dataset.action || ''}|${e.dataset.slot || ''}|${e.dataset.index || ''}`
  + `|${e.dataset.hero || ''}`)"""
FOCUSED = """() => { const e = document.activeElement; return e && e.closest('#table') ?
  `${e.tagName}|${e.id}|${e.dataset.action || ''}|${e.dataset.slot || ''}|${e.dataset.index || ''}`
  + `|${e.dataset.hero || ''}` : ''; }"""


NEVERMORE_VIEW = """() => window.magicTable.pyodide.runPython(`
import json
from js import window
peer = window.magicTableApp.table.session.peer
out = {"stage": "", "phase": "", "tokens": [], "log": []}
if peer is not None and peer.table.state is not None:
    view = peer.view()
    out = {"stage": peer.table.stage, "phase": view["need"].get("phase", ""),
           "tokens": list(view["tokens_revealed"]), "log": []}
json.dumps(out)
`)"""


async def nevermore_view(player: Player) -> dict[str, Any]:
    """What a «Невермор» page shows (from its view only): stage, phase, revealed tokens."""
    return dict(json.loads(await player.page.evaluate(NEVERMORE_VIEW)))


async def axe_violations(player: Player, context: str = "body") -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page (injected by ``evaluate``: the
    page's Content-Security-Policy refuses an added script tag)."""
    page = player.page
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.evaluate("() => {" + AXE.read_text() + "\n}")
    result = await page.evaluate(
        """async (context) => {
        const r = await axe.run(document.querySelector(context) || document,
          { resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
      }""",
        context,
    )
    return [v for v in result if v["impact"] in SERIOUS]


async def keyboard_reach(player: Player, presses: int = 160) -> tuple[set[str], set[str]]:
    """The table's enabled controls, and those Tab reached from the page's top."""
    page = player.page
    controls = set(await page.evaluate(CONTROLS))
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    reached: set[str] = set()
    for _ in range(presses):
        await page.keyboard.press("Tab")
        focused = await page.evaluate(FOCUSED)
        if focused:
            reached.add(focused)
        if controls <= reached:
            break
    return controls, reached


async def effects(player: Player) -> dict[str, list[str]]:
    """The effects this page has shown and the sounds it has played."""
    return dict(json.loads(await player.page.evaluate(EFFECTS)))


async def shots(players: list[Player], name: str) -> None:
    """A screenshot of each page (desktop and phone) under ``test-artifacts/``."""
    for player in players:
        size = player.page.viewport_size or {"width": 0}
        await player.screenshot(f"feel-{name}-{size['width']}")


DOCK = """(where) => {
  window.scrollTo(0, where === "end" ? document.scrollingElement.scrollHeight : 0);
  const dock = document.querySelector("#table .dock").getBoundingClientRect();
  const last = document.getElementById("app").getBoundingClientRect();
  return {top: dock.top, bottom: dock.bottom, height: innerHeight, lastBottom: last.bottom,
          pad: parseFloat(getComputedStyle(document.body).paddingBottom)};
}"""


async def hand_stays_on_screen(page: Page) -> None:
    """The dock (hand and prompt) is on screen at the top and at the end of the page, and at the
    end the page's content ends above it (room was kept for it).

    The room is the dock's height, set by ``web/ui/dock.py`` from a ResizeObserver, so at the
    frame after the dock changed: a game still running may have just redrawn it, and a reading
    in that frame is taken again (for up to five seconds) before it is judged."""
    for where in ("top", "end"):
        for _ in range(50):
            box = await page.evaluate(DOCK, where)
            if box["pad"] > 40 and abs(box["pad"] - (box["bottom"] - box["top"])) <= 1:
                break
            await asyncio.sleep(0.1)
        assert abs(box["pad"] - (box["bottom"] - box["top"])) <= 1, (where, "room kept", box)
        assert abs(box["bottom"] - box["height"]) <= 1, (where, box)
        assert 40 < box["bottom"] - box["top"] <= 0.6 * box["height"], (where, box)
        if where == "end":
            assert box["lastBottom"] <= box["top"] + 1, box
