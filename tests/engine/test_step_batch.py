"""The page's asyncio steps a browser task's worth at a time (``engine.core.step_batch``), on a
CPython loop whose own iterations stand for the browser's tasks: steps share a task until its
budget is spent or a step ends it (``pace.yield_to_page``, ``yield_if_long``); a cancelled step
does not run and a failing one does not stop the others."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.core import task_clock
from engine.core.step_batch import StepBatch
from engine.protocol import pace


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The task clock, in seconds, moved by the test only."""
    moment = [100.0]
    monkeypatch.setattr(task_clock, "clock", lambda: moment[0])
    return moment


@pytest.fixture
async def batch(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[StepBatch]:
    """A step batch on the running loop: each of its tasks is one iteration of the loop."""
    loop = asyncio.get_running_loop()
    plain = loop.call_soon
    steps = StepBatch(loop, lambda: plain(steps.run), budget_ms=8.0)
    monkeypatch.setattr(loop, "call_soon", steps.call_soon)
    monkeypatch.setattr(pace, "IN_BROWSER", True)
    yield steps


async def settle(done: Any) -> None:
    for _ in range(100):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("the steps did not run")


async def test_steps_share_a_task_until_its_budget_is_spent(
    batch: StepBatch, now: list[float]
) -> None:
    ran: list[tuple[int, int]] = []

    def work(i: int) -> None:
        ran.append((i, batch.tasks))
        now[0] += 0.003  # 3 ms each

    loop = asyncio.get_running_loop()
    for i in range(6):
        loop.call_soon(work, i)
    await settle(lambda: len(ran) == 6)
    first = ran[0][1]
    # 3 + 3 + 3 ms reach the 8 ms budget: the fourth step waits for the next task.
    assert ran == [(i, first + i // 3) for i in range(6)]


async def test_a_step_ends_its_task_only_when_it_yields_to_the_page(
    batch: StepBatch, now: list[float]
) -> None:
    seen: list[int] = []

    async def step(pause: Any) -> None:
        seen.append(batch.tasks)
        await pause()
        seen.append(batch.tasks)

    await asyncio.ensure_future(step(lambda: asyncio.sleep(0)))
    assert seen[1] == seen[0]  # a plain await goes on in the same task
    seen.clear()
    await asyncio.ensure_future(step(pace.yield_to_page))
    assert seen[1] == seen[0] + 1  # the page gets the thread in between


async def test_a_long_step_yields_once_its_task_has_run_the_budget(
    batch: StepBatch, now: list[float]
) -> None:
    seen: list[int] = []

    async def step() -> None:
        seen.append(batch.tasks)
        now[0] += 0.005  # 5 ms of work
        await pace.yield_if_long(8.0)
        seen.append(batch.tasks)  # same task
        now[0] += 0.004  # 9 ms in all
        await pace.yield_if_long(8.0)
        seen.append(batch.tasks)  # a new task
        now[0] += 0.004  # 4 ms into it
        await pace.yield_if_long(8.0)
        seen.append(batch.tasks)

    await asyncio.ensure_future(step())
    assert seen == [seen[0], seen[0], seen[0] + 1, seen[0] + 1]


async def test_a_cancelled_step_is_skipped_and_a_failing_one_stops_nothing(
    batch: StepBatch, now: list[float]
) -> None:
    loop = asyncio.get_running_loop()
    errors: list[str] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(str(context["exception"])))
    ran: list[str] = []

    def fail() -> None:
        raise ValueError("broken step")

    loop.call_soon(ran.append, "first")
    loop.call_soon(ran.append, "cancelled").cancel()
    loop.call_soon(fail)
    loop.call_soon(ran.append, "last")
    await settle(lambda: "last" in ran)
    loop.set_exception_handler(None)
    assert ran == ["first", "last"]
    assert errors == ["broken step"]
