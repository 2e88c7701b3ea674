"""Every effect of the table runs on the compositor in Chromium (``web.ui.fx``, ``style.css``).

The browser's own record says so: a Chrome trace of a page playing each kind of effect holds,
for each animation it started, why it could not run on the compositor, if it could not. Two
animations running at once on one property of one element (a flight and its landing, as the
flown icon had) cannot: both then run on the page's main thread, its style worked out on every
frame. ``tests/web/test_motion.py`` checks the style sheet and the keyframes
without a browser; this checks what Chromium made of them.
"""

from __future__ import annotations

import json

import pytest

from tests.web.animation_trace import BENIGN, started_animations

from .fx_panel import panel_code
from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

CATEGORIES = ["blink.animations", "devtools.timeline"]

# A panel with two seats, a roll of dice and the Circle's spell card, all in view (an effect out
# of view is not played); then every kind of effect: a flown icon, a floating number, a shake, a
# ghost, a banner, the dice's tumble, and the spell's flight once its entrance has ended (a Web
# Animation after a CSS animation on one element).
SPELL_RING = (
    '<div class="c-ring" style="width:300px"><button id="spell" class="c-spell"'
    ' style="--tx:50%;--ty:50%;--dx:20cqw;--dy:10cqh"><b>x</b></button></div>'
)
PLAY = (
    "async () => {\n  await window.magicTable.pyodide.runPythonAsync(`\n"
    + panel_code([(40, 300), (600, 200)], "position:absolute;left:300px;top:400px", SPELL_RING)
    + """shown = fx.Effects(Sound(True))
shown.fly(0, 1, icon("hit"))
shown.float_at(1, "−3", "hit")
shown.icon_at(0, icon("ghost"), "ghost")
shown.shake(1)
shown.banner("Огненный шар", ["/art/ui/hit.svg", "/art/ui/dice.svg"])
shown.dice()
shown._place()
`);
  await new Promise((done) => setTimeout(done, 600));  // the spell's entrance (.35 s) has ended
  window.magicTable.pyodide.runPython("fx.Effects.spell_flight()");
  await new Promise((done) => setTimeout(done, 1500));  // every effect has started
}"""
)


async def test_every_effect_runs_on_the_compositor() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            await browser.start_tracing(page=player.page, categories=CATEGORIES)
            try:
                await player.page.evaluate(PLAY)
            finally:
                trace = json.loads(await browser.stop_tracing())
            started = started_animations(trace.get("traceEvents", []))
            names = {name for name, _ in started}
            # Each effect was seen: the CSS animations by name, the Web Animations by element.
            assert {"fx-fly", "fx-float", "fx-banner-in", "fx-flip", "c-fly"} <= names, names
            assert any("die" in name for name in names), names
            assert any("wizard" in name for name in names), names  # the shake
            assert any("c-spell" in name for name in names), names  # the spell's flight
            off = [(name, reasons) for name, reasons in started if reasons & ~BENIGN]
            assert not off, off
