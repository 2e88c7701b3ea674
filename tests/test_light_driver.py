"""The benchmarks' light «Схватка» driver makes the tests' driver's choices from one reading of a
page (``benchmarks.light_driver.choice``), and ``--think`` reads its seconds or says what it
wants. (Nothing is timed; the driver plays in ``bench_rumble_browser --think``.)"""

from __future__ import annotations

import random

import pytest

from benchmarks import light_driver
from benchmarks.light_driver import MOVE, PICKED, SEAL, UNPICKED, choice


class Fixed(random.Random):
    """``random()`` always ``value``; ``randrange(n)`` always the last choice."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return args[0] - 1


def assembly(seal: bool, picked: int, wild: list[bool]) -> dict[str, object]:
    return {"stage": "play", "phase": "assembly", "seal": seal, "picked": picked, "wild": wild}


@pytest.mark.parametrize("value", [0.2, 0.8])
def test_a_spell_is_built_as_the_tests_driver_builds_it(
    monkeypatch: pytest.MonkeyPatch, value: float
) -> None:
    monkeypatch.setattr(light_driver, "PICKS", Fixed(value))
    assert choice(assembly(True, 2, [False])) == (SEAL, 0)  # a seal offered is taken
    assert choice(assembly(False, 3, [False])) == (PICKED, -1)  # three without a seal: put back
    assert choice(assembly(False, 1, [])) == (PICKED, -1)  # nothing left to pick
    # A first card is not wild while a plain one is there (the last plain one, by ``Fixed``).
    assert choice(assembly(False, 0, [False, True, False, True])) == (UNPICKED, 2)
    assert choice(assembly(False, 0, [True, True])) == (UNPICKED, 1)
    # With a card picked and no seal: back half the time (``random() < 0.5``), else another.
    expected = (PICKED, -1) if value < 0.5 else (UNPICKED, 1)
    assert choice(assembly(False, 1, [True, True])) == expected
    assert choice(assembly(False, 0, [])) is None


def test_other_questions_take_the_first_move_and_no_prompt_nothing() -> None:
    assert choice({"stage": "play", "phase": "treasure", "move": True}) == (MOVE, 0)
    assert choice({"stage": "play", "phase": "treasure", "move": False}) is None
    assert choice({"stage": "play", "phase": None}) is None
