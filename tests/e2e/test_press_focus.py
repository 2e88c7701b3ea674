"""A mouse press on a button of the table panel does not give it the keyboard focus (``App.
on_press``), and its click still comes; it takes the focus from a field typed in before, as a
press does: a focused control that the next redraw replaces made Chromium send ``blur`` and lay
out the whole page inside the redraw's task. A button elsewhere on the page takes the focus as
usual, and the keyboard still reaches the panel's buttons."""

from __future__ import annotations

import json

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

PANEL = """() => {
  const root = window.magicTableApp.root;
  const panel = document.createElement("div");
  panel.id = "table";
  panel.innerHTML = '<button id="in-panel">in</button><input id="in-field">';
  const outside = document.createElement("button");
  outside.id = "outside";
  outside.textContent = "out";
  root.prepend(outside);
  root.prepend(panel);
  window.__clicks = [];
  for (const button of [panel.firstChild, outside]) {
    button.addEventListener("click", () => window.__clicks.push(button.id));
  }
}"""
FOCUSED = "() => document.activeElement.id || document.activeElement.tagName"


async def test_a_press_on_a_table_button_does_not_focus_it() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            page = player.page
            await page.evaluate(PANEL)
            await page.click("#in-panel")
            pressed_in_panel = await page.evaluate(FOCUSED)
            await page.fill("#in-field", "30")  # a field typed in, then a button pressed
            await page.click("#in-panel")
            pressed_after_typing = await page.evaluate(FOCUSED)
            await page.click("#outside")
            pressed_outside = await page.evaluate(FOCUSED)
            await page.focus("#in-panel")  # the keyboard's way (as Tab) still reaches it
            keyboard = await page.evaluate(FOCUSED)
            clicks = await page.evaluate("() => window.__clicks")
            seen = [pressed_in_panel, pressed_after_typing, pressed_outside, keyboard, clicks]
            assert json.dumps(seen) == json.dumps(
                ["BODY", "BODY", "outside", "in-panel", ["in-panel", "in-panel", "outside"]]
            )
