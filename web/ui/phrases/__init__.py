"""Game logs as sentences: each game logs events ``{"e": kind, ...args}`` and a phrase table per
game says them in Russian or English (``render``). Pure Python, no page: the engine's tests use
it too, to check that the Russian sentences are the very ones the engine used to write."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import circle, nevermore, rumble

Table = Callable[[dict[str, Any], str, Sequence[str]], str]
TABLES: dict[str, Table] = {"circle": circle.say, "nevermore": nevermore.say, "rumble": rumble.say}


def render(game: str, event: Any, lang: str = "ru", names: Sequence[str] = ()) -> str:
    """The sentence for one log entry of ``game`` (a plain string is already one); ``names``
    are the seats' names."""
    if isinstance(event, str):
        return event
    if not isinstance(event, dict) or game not in TABLES:
        return str(event)
    return TABLES[game](event, "en" if lang == "en" else "ru", names)


def render_log(
    game: str, events: Sequence[Any], lang: str = "ru", names: Sequence[str] = ()
) -> list[str]:
    """Every entry of a log as a sentence."""
    return [render(game, e, lang, names) for e in events]
