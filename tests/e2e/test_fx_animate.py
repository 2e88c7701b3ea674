"""The table's effects in Chromium (``web.ui.fx``): an effect's Web Animation on a panel element
cancels the one before it on that element, and starting one does not ask the element for its
animations (that would make the browser work out the page's style inside the redraw); the effects
of a redraw play in a browser task of their own once the page is idle (after the tasks it has
queued), for every view drawn, in order; a
control the redraw replaced gets the keyboard focus back after the next frame, not inside the
redraw (focusing there made the browser work out the page's style at once)."""

from __future__ import annotations

import json

import pytest

from .fx_panel import panel_code
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

# Three redraws in one task (life 10, 7, 9 at seat 0): nothing is shown inside it, nor in the
# three tasks the page queued meanwhile (the effects wait for the page's own work); once the page
# is idle, the hit and the heal, in order.
LATER = """async () => {
  const during = await window.magicTable.pyodide.runPythonAsync(`
import json
from web.ui import fx, table_views
from web.ui.sound import Sound
later = fx.Effects(Sound(True))  # a spectator's: silent
for life in (10, 7, 9):
    seats = [{"seat": 0, "life": life, "alive": True}]
    table_views.LAST_VIEW.update({"game": "rumble", "view": {"fight": 1, "seats": seats}})
    later.after_render()
from js import setTimeout
from pyodide.ffi import create_once_callable
queued = []
for _ in range(3):
    setTimeout(create_once_callable(lambda: queued.append(len(later.shown))), 0)
json.dumps(list(later.shown))
`);
  await new Promise((done) => setTimeout(done, 200));
  const after = window.magicTable.pyodide.runPython("json.dumps([list(later.shown), queued])");
  const [shown, queued] = JSON.parse(after);
  return JSON.stringify({during: JSON.parse(during), queued, after: shown});
}"""


# A panel whose redraw replaces its focused button (as a move's buttons are replaced after the
# click): the focus, lost in the redraw's task, is back on the new button after the next frame.
REFOCUS = """async () => {
  const during = await window.magicTable.pyodide.runPythonAsync(`
import json
from js import document
from web.ui import fx
from web.ui.sound import Sound

class Panel:
    def render(self):
        document.getElementById("table").innerHTML = '<button data-action="seal">Seal</button>'

panel = document.createElement("div")
panel.id = "table"
document.body.appendChild(panel)
shown = Panel()
fx.attach(shown, Sound(True))
shown.render()
document.querySelector("#table button").focus()
shown.render()  # the focused button is replaced
json.dumps(document.activeElement.tagName)
`);
  const before = document.activeElement.tagName;
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)));
  const after = document.activeElement;
  return JSON.stringify({during: JSON.parse(during), before,
    after: after.tagName + ":" + after.getAttribute("data-action"),
    fresh: after === document.querySelector("#table button")});
}"""


async def test_effects_animate_one_at_a_time_and_play_and_refocus_after_the_redraw() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            result = json.loads(await player.page.evaluate(TWICE))
            assert result == {"first": "idle", "kept": "running", "asked": 0, "running": 1}
            played = json.loads(await player.page.evaluate(LATER))
            assert played == {"during": [], "queued": [0, 0, 0], "after": ["hit", "heal"]}
            focus = json.loads(await player.page.evaluate(REFOCUS))
            assert focus == {
                "during": "BODY",  # not refocused inside the redraw's task
                "before": "BODY",
                "after": "BUTTON:seal",
                "fresh": True,
            }


# A banner's animations, each as the ms from its start to its end (delay + duration), while it
# stands and once it leaves; whether it began to leave, and whether it is gone after its lifetime.
BANNER = """async () => {
  await window.magicTable.pyodide.runPythonAsync(`
from web.ui import fx
from web.ui.sound import Sound
fx.Effects(Sound(True)).banner("Огненный шар", ["/art/ui/hit.svg", "/art/ui/dice.svg"])
`);
  const banner = document.querySelector("#fx-layer .fx-banner");
  const ends = () => banner.getAnimations({subtree: true})
    .map((a) => a.effect.getComputedTiming().endTime);
  const standing = ends();
  const until = async (done) => {  // at most 5 s: a banner that never leaves fails, not hangs
    for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    return done();
  };
  const left = await until(() => banner.classList.contains("leaving"));
  const leaving = left ? ends() : [];
  const gone = await until(() => !banner.isConnected);
  return JSON.stringify({standing, leaving, left, gone});
}"""


async def test_a_banner_moves_only_as_it_comes_and_goes() -> None:
    """Between its entrance and its exit a banner runs no animation: a moving banner made every
    page draw a frame at the screen's rate for its whole life (2.4 s per spell)."""
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            timings = json.loads(await player.page.evaluate(BANNER))
            standing, leaving = timings["standing"], timings["leaving"]
            assert len(standing) == 3  # the banner's entrance and each card's turn
            assert max(standing) <= 1000
            assert timings["left"] and timings["gone"]
            assert any(end <= 500 for end in leaving) and max(leaving) <= 1000


# Seat 0 in view, seat 1 and the dice far below it: every kind of effect at each seat.
OUT_OF_VIEW = (
    "async () => {\n  await window.magicTable.pyodide.runPythonAsync(`\n"
    + panel_code([(40, 100), (40, 5000)], dice_style="position:absolute;top:5200px")
    + """seen = fx.Effects(Sound(True))
for seat in (0, 1):
    seen.float_at(seat, f"−{seat + 1}", "hit")
    seen.icon_at(seat, icon("ghost"), "ghost")
    seen.shake(seat)
seen.fly(0, 1, icon("hit"))
seen.fly(1, 0, icon("heal"))
seen.dice()
seen._place()
`);
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100)));
  const layer = [...document.querySelectorAll("#fx-layer > *")];
  const seat = (n) => document.querySelector(`#table [data-seat="${n}"]`);
  return JSON.stringify({
    shown: layer.map((e) => e.className).sort(),
    texts: layer.map((e) => e.textContent).filter((t) => t),
    flown: layer.filter((e) => e.classList.contains("fx-fly"))
      .map((e) => [e.getAttribute("src"), e.style.getPropertyValue("--dy")]),
    shaken: [0, 1].map((n) => seat(n).magicTableAnimation !== undefined),
    tumbled: document.querySelector("#dice .die").magicTableAnimation !== undefined,
    heard: JSON.parse(window.magicTable.pyodide.runPython("import json; json.dumps(seen.shown)")),
  });
}"""
)


async def test_an_effect_ending_out_of_view_is_not_played() -> None:
    """Nobody sees an effect at a seat scrolled out of view, and while it runs every frame is
    drawn: it is not played (its moment is still noted). A flight from a seat out of view into
    view is played, from where that seat is."""
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            seen = json.loads(await player.page.evaluate(OUT_OF_VIEW))
            assert seen["shown"] == ["fx-float ghost", "fx-float hit", "fx-fly"], seen
            assert seen["texts"] == ["−1"]
            [(src, dy)] = seen["flown"]
            assert "/heal" in src and float(dy.removesuffix("px")) > 4000  # from seat 1, below
            assert seen["shaken"] == [True, False]
            assert not seen["tumbled"]
            assert seen["heard"] == ["dice"]  # the roll is still noted (and heard)


STATE = "() => window.magicTable.pyodide.runPython('heard._ctx.state')"
PLAY = """(name) => window.magicTable.pyodide.runPython(`
from web.ui.sound import Sound
if "heard" not in globals():
    heard = Sound()
    heard.volume = 0.4
heard.play("${name}")
`)"""
ENDED = "() => window.magicTable.pyodide.runPython('heard._ctx.currentTime >= heard._quiet_at')"


async def test_the_sound_is_suspended_when_its_effects_have_ended_and_resumed_by_the_next() -> None:
    """A running audio context keeps the audio device busy with silence (a thread of the page and
    one of the browser): it sleeps once its sounds have ended, and the next effect wakes it."""
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            page = player.page
            await page.evaluate(PLAY, "hit")
            await page.wait_for_function(f"() => ({STATE})() === 'running'", timeout=5000)
            await page.wait_for_function(f"() => ({STATE})() === 'suspended'", timeout=10000)
            assert await page.evaluate(ENDED)  # not before its sound had ended
            await page.evaluate(PLAY, "vp")
            await page.wait_for_function(f"() => ({STATE})() === 'running'", timeout=5000)


# Web Audio node creations on the live context while ``sound`` (a page global) plays ``name``
# (an effect's first play builds its voices live), then whether its buffer came back from the
# offline rendering and how loud it is.
COUNTED = """async ([sound, name]) => {
  const made = {};
  const proto = AudioContext.prototype;
  const wrapped = {};
  for (const method of ["createGain", "createOscillator", "createBufferSource"]) {
    wrapped[method] = proto[method];
    proto[method] = function (...args) {
      made[method] = (made[method] || 0) + 1;
      return wrapped[method].apply(this, args);
    };
  }
  window.magicTable.pyodide.runPython(`${sound}.play("${name}")`);
  for (const method in wrapped) proto[method] = wrapped[method];
  for (let i = 0; i < 100; i++) {  // at most 5 s for the offline rendering
    if (window.magicTable.pyodide.runPython(`"${name}" in ${sound}._buffers`)) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  const buffer = window.magicTable.pyodide.runPython(`${sound}._buffers.get("${name}")`);
  const samples = buffer ? buffer.getChannelData(0) : [];
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  return JSON.stringify({made, seconds: buffer ? buffer.duration : 0, peak});
}"""


async def test_an_effect_is_synthesised_once_and_then_played_from_its_buffer() -> None:
    """A sound's voices are built live only on its first play; it is synthesised off the page's
    thread meanwhile, and every later play is one buffer source (no voice built on the page)."""
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            page = player.page
            await page.evaluate(PLAY, "heal")  # makes the context (its volume's gain)
            first = json.loads(await page.evaluate(COUNTED, ["heard", "cast"]))
            assert first["made"] == {"createGain": 2, "createOscillator": 2}
            assert first["seconds"] == pytest.approx(0.35, abs=0.01)  # its last voice's end
            assert first["peak"] > 0.1  # not silence
            again = json.loads(await page.evaluate(COUNTED, ["heard", "cast"]))
            assert again["made"] == {"createBufferSource": 1}


PREPARE = """() => window.magicTable.pyodide.runPython(`
from web.ui.sound import Sound
ready = Sound()
ready.volume = 0.4
muted = Sound()
muted.volume = 0.0
ready.prepare()
muted.prepare()
str(ready._ctx is None)
`)"""
PREPARED = "() => window.magicTable.pyodide.runPython('len(ready._buffers)')"


async def test_the_sounds_are_made_before_the_first_effect_while_the_page_is_idle() -> None:
    """Joining a room asks for the sounds ahead of the game: the context, the noise and every
    effect's buffer are made later, while the page is idle (not in the asking task), the context
    is left suspended, and an effect's first play is then one buffer source. A muted player's
    page makes nothing."""
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            page = player.page
            assert await page.evaluate(PREPARE) == "True"  # nothing made in the asking task
            recipes = await page.evaluate(
                "() => window.magicTable.pyodide.runPython("
                "'from web.ui.sound import RECIPES; len(RECIPES)')"
            )
            assert recipes >= 9
            await page.wait_for_function(f"() => ({PREPARED})() === {recipes}", timeout=10000)
            state = "() => window.magicTable.pyodide.runPython('ready._ctx.state')"
            assert await page.evaluate(state) == "suspended"
            code = "ready._noise is not None and muted._ctx is None and not muted._buffers"
            assert await page.evaluate(f"() => window.magicTable.pyodide.runPython('{code}')")
            first = json.loads(await page.evaluate(COUNTED, ["ready", "dice"]))
            assert first["made"] == {"createBufferSource": 1}, first  # no voice built live
            assert not player.errors, player.errors
