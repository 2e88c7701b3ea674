"""No browser task of a table's peers runs long on pure-Python point arithmetic: every loop of curve
operations ends its task once the task has run its budget (``pace``), so a task goes past the
budget by at most one operation (a share's check: a full multiplication, and the small ones of
Horner's rule over the sharing's commitments).

A CPython loop stands for a page (``StepBatch``, ``IN_BROWSER``, as in ``test_step_batch``) and the
task clock moves only by the curve operations a page does in Python (the crypto backend's work is
WebCrypto there, asynchronous, and counts nothing here): a check or lift of an x-coordinate
1.2 ms (16 checks took 20–24 ms in a page on the loaded two-core machine), a multiplication 25 ms
for a full scalar (less for a small one), about twenty checks' worth as in an idle page (2–5 ms
against 0.14 ms). A «Схватка» match with a re-shuffle is played through the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import task_clock
from engine.core.step_batch import StepBatch
from engine.fairness import curve, sharing
from engine.games.rumble import RumbleRules
from engine.protocol import pace
from tests.engine.harness import make_table

X_MS = 1.2  # is_valid_x, lift_x: a Legendre symbol, a modular power (counted as the power)
MULTIPLY_MS = 25.0  # a full 256-bit scalar times a point
SMALL_MS = 0.3  # the least a multiplication costs here (a seat's small x times a point)
COMMITMENTS = 3  # of a sharing among four seats: its small multiplications in a share's check
# The budget, overrun by one operation at most: the longest is a share's check.
LIMIT_MS = pace.TASK_BUDGET_MS + MULTIPLY_MS + COMMITMENTS * SMALL_MS


class PointClock:
    """The task clock, moved by the curve operations only; notes each operation that ends past
    ``LIMIT_MS`` into its browser task."""

    def __init__(self) -> None:
        self.now = 0.0  # seconds
        self.over: list[tuple[str, float]] = []
        self.operations = 0

    def __call__(self) -> float:
        return self.now

    def costed(self, name: str, cost: Callable[..., float], operation: Any) -> Any:
        def run(*args: Any) -> Any:
            self.operations += 1
            self.now += cost(*args) / 1000.0
            if task_clock.running_ms() > LIMIT_MS:
                self.over.append((name, round(task_clock.running_ms(), 1)))
            return operation(*args)

        return run


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> PointClock:
    points = PointClock()
    monkeypatch.setattr(task_clock, "clock", points)
    for name in ("is_valid_x", "lift_x"):
        costed = points.costed(name, lambda *_: X_MS, getattr(curve, name))
        monkeypatch.setattr(curve, name, costed)

    def multiply_ms(k: int, *_: Any) -> float:
        return max(SMALL_MS, MULTIPLY_MS * k.bit_length() / 256)

    monkeypatch.setattr(curve, "multiply", points.costed("multiply", multiply_ms, curve.multiply))
    monkeypatch.setattr(sharing, "_openssl_ec", lambda: None)  # as in a page: no OpenSSL
    return points


@pytest.fixture
async def page_loop(monkeypatch: pytest.MonkeyPatch) -> StepBatch:
    """The running loop's ready steps, run a browser task's worth at a time, as in a page."""
    loop = asyncio.get_running_loop()
    plain = loop.call_soon
    steps = StepBatch(loop, lambda: plain(steps.run), budget_ms=pace.BATCH_BUDGET_MS)
    monkeypatch.setattr(loop, "call_soon", steps.call_soon)
    monkeypatch.setattr(pace, "IN_BROWSER", True)
    return steps


async def test_curve_work_ends_its_task_once_the_budget_is_spent(
    clock: PointClock, page_loop: StepBatch
) -> None:
    seats = 4  # three shares rebuild a seat's secret: three commitments each to make
    h = await make_table(seats, rules=RumbleRules(), room="room-w", game="game-w")
    await h.peers[0].start({"seats": seats, "mode": "two_wins"}, timer=30)
    await h.settle()
    try:
        state = h.peers[0].table.state
        assert all(peer.errors == [] for peer in h.peers), [p.errors for p in h.peers]
        assert state["need"]["kind"] == "terminal"
        assert {"e": "reshuffle"} in state["g"]["log"]  # the re-shuffle's checks ran too
        assert clock.operations > 1000 and page_loop.tasks > 100
        assert clock.over == [], clock.over[:10]
    finally:
        await h.bus.close()
