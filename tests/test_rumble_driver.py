"""The browser tests' «mid-fight» reading (``tests.e2e.rumble_driver.mid_fight``): a fight in play
in which a spell is being cast or has been cast, however short the moment of casting was."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.rumble_driver import mid_fight


def reading(stage: str, casting: bool, cast: bool) -> dict[str, Any]:
    return {"stage": stage, "casting": casting, "cast": cast}


@pytest.mark.parametrize(
    ("stage", "casting", "cast", "expected"),
    [
        ("play", True, True, True),  # a spell shown being cast
        ("play", False, True, True),  # its moment missed: the log keeps the cast
        ("play", False, False, False),  # sealing, nothing cast yet
        ("shuffle1", False, False, False),  # the deck is still being shuffled
        ("audit", False, True, False),  # the fight is over
        ("done", False, True, False),
    ],
)
def test_mid_fight(stage: str, casting: bool, cast: bool, expected: bool) -> None:
    assert mid_fight(reading(stage, casting, cast)) is expected
