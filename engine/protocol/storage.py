"""Where a peer keeps its table id, secret bundle and running table between reloads."""

from __future__ import annotations

from typing import Protocol


class Storage(Protocol):
    """Key-value text storage private to this peer (``sessionStorage`` in a browser)."""

    def getItem(self, key: str) -> str | None:
        """The stored text, or None."""
        ...

    def setItem(self, key: str, value: str) -> None:
        """Store text under ``key``."""
        ...


class MemoryStorage:
    """Storage in a dict (Python peers, tests)."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:
        """The stored text, or None."""
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:
        """Store text under ``key``."""
        self.items[key] = value

    def removeItem(self, key: str) -> None:
        """Forget ``key`` (as Web Storage does; nothing if it is not there)."""
        self.items.pop(key, None)
