"""The page's WebCrypto batch (``web/static/ecdh.js`` ``multMany``, through the WebCrypto
backend) in Chromium: a batch larger than one slice gives the pure-Python answers, in order, is
cut into several browser tasks, and a bad point anywhere in it is refused."""

from __future__ import annotations

import json

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

# Counts the batch helper's pauses between its slices (scheduler.yield in Chromium).
COUNT_PAUSES = """() => { window.__pauses = 0; const own = scheduler.yield.bind(scheduler);
  scheduler.yield = () => { window.__pauses += 1; return own(); }; }"""
BATCH = """async () => await window.magicTable.pyodide.runPythonAsync(`
import json
from engine.fairness import curve
from engine.fairness.backends.base import CryptoError
from engine.fairness.backends.webcrypto import WebCryptoBackend
pairs = [
    (curve.scalar_from_bytes(b"batch", bytes([i % 19])), curve.hash_to_x(b"batch", bytes([i % 23])))
    for i in range(40)
]
got = await WebCryptoBackend().mult_many(pairs)
try:
    await WebCryptoBackend().mult_many([*pairs[:30], (3, 2)])  # x = 2 is not on P-256
    refused = False
except CryptoError:
    refused = True
json.dumps({"same": got == [curve.mult_x(k, x) for k, x in pairs], "refused": refused})
`)"""


async def test_a_large_batch_is_right_and_cut_into_tasks() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            await player.page.evaluate(COUNT_PAUSES)
            result = json.loads(await player.page.evaluate(BATCH))
            assert result == {"same": True, "refused": True}
            # 19 keys, 23 points and 40 pairs in slices of 16: 1 + 1 + 2 pauses (and one more
            # for the second batch's 20 keys before its bad point is refused).
            assert await player.page.evaluate("() => window.__pauses") >= 4
