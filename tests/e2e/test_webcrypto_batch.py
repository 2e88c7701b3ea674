"""The page's WebCrypto backend in Chromium: its batch (``web/static/ecdh.js`` ``multMany``)
gives the pure-Python answers, in order, in a worker (the page's own thread makes no WebCrypto
call for it), and a bad point anywhere in it is refused; the page's own batch, used when no
worker runs (one that fails is replaced, its batches included), is cut into several browser
tasks; boxes between two seats agree with pure Python, a tampered or misaddressed one is refused,
and a second box between the same seats costs one WebCrypto call (the pair's secret and AES key
are kept)."""

from __future__ import annotations

import json

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

# Counts the batch helper's pauses between its slices (scheduler.yield in Chromium).
COUNT_PAUSES = """() => { window.__pauses = 0; const own = scheduler.yield.bind(scheduler);
  scheduler.yield = () => { window.__pauses += 1; return own(); }; }"""
# Counts every call the page makes to crypto.subtle, by method.
COUNT_CALLS = """() => { window.__subtle = {}; const subtle = crypto.subtle;
  for (const name of ["importKey", "deriveBits", "encrypt", "decrypt", "sign", "verify"]) {
    const own = subtle[name].bind(subtle);
    subtle[name] = (...args) => { window.__subtle[name] = (window.__subtle[name] || 0) + 1;
      return own(...args); };
  }
  window.__subtleReset = () => { window.__subtle = {}; };
  window.__subtleRead = () => JSON.stringify(window.__subtle); }"""
# The pairs of a batch, and whether ``via`` (a multMany of the page) gives the pure-Python answers
# and refuses a bad point.
BATCH = """async (via) => await window.magicTable.pyodide.runPythonAsync(`
import json
from js import window
from engine.fairness import curve
from engine.fairness.backends import webcrypto
from engine.fairness.backends.base import CryptoError
from engine.fairness.backends.webcrypto import WebCryptoBackend
pairs = [
    (curve.scalar_from_bytes(b"batch", bytes([i % 19])), curve.hash_to_x(b"batch", bytes([i % 23])))
    for i in range(40)
]
own = webcrypto._MULT_MANY
webcrypto._MULT_MANY = getattr(window.magicCrypto, "${via}", None) or getattr(window, "${via}")
try:
    got = await WebCryptoBackend().mult_many(pairs)
    try:
        await WebCryptoBackend().mult_many([*pairs[:30], (3, 2)])  # x = 2 is not on P-256
        refused = False
    except CryptoError:
        refused = True
finally:
    webcrypto._MULT_MANY = own
json.dumps({"same": got == [curve.mult_x(k, x) for k, x in pairs], "refused": refused})
`)"""
# The page's own batch (window.__pageBatch, from ecdh.js), and a batcher whose worker cannot
# start (its script is missing), counting the batches it hands to the page's own.
BROKEN = """async () => {
  const { offThread, multMany } = await import("/ecdh.js");
  window.__pageBatch = multMany;
  window.__inPage = 0;
  const inPage = (...args) => { window.__inPage += 1; return window.__pageBatch(...args); };
  const Own = window.Worker;
  window.Worker = class extends Own {
    constructor() { super("/no-such-worker.js", { type: "module" }); }
  };
  window.__broken = offThread(inPage);
  const batch = window.__broken;
  window.__broken = (...args) => { const out = batch(...args); window.Worker = Own; return out; };
}"""


async def test_a_batch_runs_in_a_worker_and_the_pages_own_in_slices() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            page = player.page
            await page.evaluate(COUNT_CALLS)
            await page.evaluate(COUNT_PAUSES)
            result = json.loads(await page.evaluate(BATCH, "multMany"))
            assert result == {"same": True, "refused": True}
            calls = json.loads(await page.evaluate("() => window.__subtleRead()"))
            assert "deriveBits" not in calls and "importKey" not in calls  # all in the worker
            assert await page.evaluate("() => window.__pauses") == 0
            await page.evaluate(BROKEN)  # also puts the page's own batch at window.__pageBatch
            result = json.loads(await page.evaluate(BATCH, "__pageBatch"))
            assert result == {"same": True, "refused": True}
            # 19 keys, 23 points and 40 pairs in slices of 16: 1 + 1 + 2 pauses (and one more
            # for the second batch's 20 keys before its bad point is refused).
            assert await page.evaluate("() => window.__pauses") >= 4
            result = json.loads(await page.evaluate(BATCH, "__broken"))
            assert result == {"same": True, "refused": True}
            assert await page.evaluate("() => window.__inPage") == 2  # both, by the page


BOXES = """async () => await window.magicTable.pyodide.runPythonAsync(`
import json
from js import window
from engine.fairness.backends.base import CryptoError, KeyPair
from engine.fairness.backends.pure import PureBackend
from engine.fairness.backends.webcrypto import WebCryptoBackend
from engine.protocol.boxes import open_box, seal_box
pure = PureBackend()
ann, bob, eve = [await pure.generate_keypair() for _ in range(3)]
sealer, opener = WebCryptoBackend(), WebCryptoBackend()
first = await seal_box(sealer, ann, bob.public, "room", "game", "to bob", b"card one")
opened = await open_box(pure, bob, ann.public, "room", "game", "to bob", first)
window.__subtleReset()
second = await seal_box(sealer, ann, bob.public, "room", "game", "to bob", b"card two")
calls_second_seal = json.loads(window.__subtleRead())
back = [
    await open_box(opener, bob, ann.public, "room", "game", "to bob", box)
    for box in (first, second)
]
refused = []
tampered = second[:-2] + ("00" if second[-2:] != "00" else "01")
for who, box, aad in ((bob, tampered, "to bob"), (eve, second, "to bob"), (bob, second, "to eve")):
    try:
        await open_box(opener, who, ann.public, "room", "game", aad, box)
        refused.append(False)
    except CryptoError:
        refused.append(True)
json.dumps({
    "opened": [opened.decode(), *(b.decode() for b in back)],
    "same_secret": await opener.ecdh(bob, ann.public) == await pure.ecdh(bob, ann.public),
    "calls_second_seal": calls_second_seal,
    "refused": refused,
})
`)"""


async def test_boxes_agree_with_pure_python_and_a_pair_keeps_its_secret() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            await player.page.evaluate(COUNT_CALLS)
            result = json.loads(await player.page.evaluate(BOXES))
            assert result["opened"] == ["card one", "card one", "card two"]
            assert result["same_secret"]
            assert result["calls_second_seal"] == {"encrypt": 1}  # no import, no derivation
            assert result["refused"] == [True, True, True]
