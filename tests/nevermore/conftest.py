"""Long fuzz runs (``@pytest.mark.slow``) run only when asked for: ``pytest -m slow``."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long fuzz run: pytest -m slow")
    for item in items:
        if "slow" in item.keywords and "nevermore" in str(item.fspath):
            item.add_marker(skip)
