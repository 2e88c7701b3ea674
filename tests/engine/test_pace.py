"""How a step under Pyodide ends its browser task (``engine.protocol.pace``), with the page
pretended (``IN_BROWSER``): ``yield_if_long`` ends the task only once it has run its budget, as
told by ``task_clock`` since the task began (with the step batch, ``test_step_batch``)."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import task_clock
from engine.protocol import pace


async def ran_between(budget: float) -> bool:
    """Whether a callback queued before ``yield_if_long(budget)`` ran before it returned (it
    does only if the step gave the loop back, as a browser task's end would)."""
    ran: list[bool] = []
    asyncio.get_running_loop().call_soon(ran.append, True)
    await pace.yield_if_long(budget)
    return bool(ran)


@pytest.fixture
def in_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pace, "IN_BROWSER", True)


async def test_a_short_task_goes_on_and_a_long_one_ends(in_browser: None) -> None:
    task_clock.began()
    assert not await ran_between(budget=1000.0)  # just begun: no pause
    assert await ran_between(budget=0.0)  # over its budget: the task ends here
    assert task_clock.running_ms() < 1000.0  # and the next one's clock starts at the pause


async def test_outside_a_page_nothing_pauses() -> None:
    assert not pace.IN_BROWSER
    assert not await ran_between(budget=0.0)
