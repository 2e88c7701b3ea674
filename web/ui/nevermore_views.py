"""HTML of the «Невермор» table (pure Python, tested in CPython). First cut: the raw view."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from engine.core.model import Action


def settings(lang: str) -> str:
    """The host's «Невермор» lobby fields (none yet)."""
    return ""


def config(field: Any) -> dict[str, Any]:
    """The rules config from the lobby form."""
    return {}


def detail(card_id: str) -> str:
    """The card pane for a card id."""
    return f"<div><b>{escape(card_id)}</b></div>"


def max_selected(view: dict[str, Any], moves: list[Action]) -> int:
    """How many hand cards may be selected: the number to pass in the draft."""
    for move in moves:
        items = move.get("secret", {}).get("items", [])
        if move.get("type") == "pass" and items:
            return len(items)
    return 0


def board(view: dict[str, Any], me: int | None, moves: list[Action], selected: list[int]) -> str:
    """The whole table for one seat."""
    text = json.dumps(view, ensure_ascii=False, indent=1)
    return f'<pre id="table-view" class="view">{escape(text)}</pre>'
