"""Long fuzz runs (``@pytest.mark.slow``) run only when asked for: ``pytest -m slow`` (or, for
«Схватка», ``RUMBLE_SLOW=1``)."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("-m") or ""):
        return
    rumble = os.environ.get("RUMBLE_SLOW") == "1"
    skip = pytest.mark.skip(reason="long fuzz run: pytest -m slow")
    for item in items:
        if "slow" in item.keywords and not (rumble and "rumble" in item.path.parts):
            item.add_marker(skip)
