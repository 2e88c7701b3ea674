"""The page's own event loop in Chromium runs its ready asyncio steps through the step batch
(``engine.core.step_batch``, installed by ``web.ui.app.batch_steps``): steps queued together
share one browser task, and ``pace.yield_to_page`` still ends the task.

The batch's budget is lifted while the steps are queued: a task ends once it has run the budget
(2 ms), and a step of the page's own (its warm-up imports) or the thread waiting for a core could
spend that between two of the test's steps (a clean-clone run once saw them split 3 + 2)."""

from __future__ import annotations

import json

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

STEPS = """async () => await window.magicTable.pyodide.runPythonAsync(`
import asyncio, json
from js import window
from engine.protocol.pace import yield_to_page
batch = window.magicTableSteps
loop = asyncio.get_event_loop()
seen = []
budget, batch.budget_ms = batch.budget_ms, 10_000.0
for _ in range(5):
    loop.call_soon(lambda: seen.append(batch.tasks))
await asyncio.sleep(0.05)
batch.budget_ms = budget
before = batch.tasks
await yield_to_page()
json.dumps({"seen": seen, "pair": [before, batch.tasks]})
`)"""


async def test_ready_steps_share_a_task_and_a_yield_ends_it() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            result = json.loads(await player.page.evaluate(STEPS))
            assert len(result["seen"]) == 5 and len(set(result["seen"])) == 1, result
            before, after = result["pair"]
            assert after > before, result
