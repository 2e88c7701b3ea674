"""What the games' scenario runners share: the error a malformed scenario raises."""

from __future__ import annotations


class ScenarioError(ValueError):
    """The scenario file is not a playable position."""


def need(condition: bool, message: str) -> None:
    """Raise ``ScenarioError(message)`` unless ``condition`` holds."""
    if not condition:
        raise ScenarioError(message)
