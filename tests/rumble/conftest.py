"""Long fuzz runs (``@pytest.mark.slow``) run only with ``RUMBLE_SLOW=1`` or ``-m slow``."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("RUMBLE_SLOW") == "1" or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long fuzz run: set RUMBLE_SLOW=1 or pass -m slow")
    for item in items:
        if "slow" in item.keywords and item.path.is_relative_to(os.path.dirname(__file__)):
            item.add_marker(skip)
