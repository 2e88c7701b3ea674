"""An effect's Web Animation on a panel element (``web.ui.fx.animate``) in Chromium: a new one
cancels the one before it on that element, and starting one does not ask the element for its
animations (that would make the browser work out the page's style inside the redraw)."""

from __future__ import annotations

import json

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

TWICE = """async () => {
  let asked = 0;
  const own = Element.prototype.getAnimations;
  Element.prototype.getAnimations = function (...args) {
    asked += 1;
    return own.apply(this, args);
  };
  const result = await window.magicTable.pyodide.runPythonAsync(`
import json
from js import document
from web.ui import fx
box = document.createElement("div")
document.body.appendChild(box)
fx.animate(box, fx.SHAKE, 5000)
first = getattr(box, fx.RUNNING)
fx.animate(box, fx.SHAKE, 5000)
json.dumps({"first": first.playState, "kept": getattr(box, fx.RUNNING).playState})
`);
  Element.prototype.getAnimations = own;
  const box = document.body.lastElementChild;
  return JSON.stringify({...JSON.parse(result), asked, running: own.call(box).length});
}"""


async def test_a_new_effect_cancels_the_last_one_without_asking_the_page() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            result = json.loads(await player.page.evaluate(TWICE))
            assert result == {"first": "idle", "kept": "running", "asked": 0, "running": 1}
