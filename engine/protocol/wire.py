"""The one guard every inbound frame passes before any other work: size, JSON, depth, types.

A frame is a peer's wire message (canonical JSON text). ``parse_frame`` refuses anything
oversized, not JSON, nested deeper than ``MAX_DEPTH``, holding a float, NaN or infinity, or not an
object with a string ``k``, as a ``ProtocolError`` naming the sender; nothing it refuses reaches
the table.
"""

from __future__ import annotations

import json
from typing import Any

from engine.protocol.envelope import MAX_WIRE
from engine.protocol.errors import ProtocolError

MAX_DEPTH = 24
MAX_ITEMS = 20_000


class _Refused(ValueError):
    pass


def _no_floats(text: str) -> Any:
    raise _Refused(f"frame holds a non-integer number {text[:20]!r}")


def _check_shape(value: Any) -> str | None:
    """Why ``value`` is too deep or too big (``None``: it is fine); iterative, no recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    items = 0
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict):
            children: Any = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        if depth > MAX_DEPTH:
            return f"frame is nested deeper than {MAX_DEPTH} levels"
        for child in children:
            items += 1
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
        if items > MAX_ITEMS:
            return f"frame holds more than {MAX_ITEMS} values"
    return None


def parse_frame(sender: str, raw: Any) -> dict[str, Any]:
    """The checked message of one frame from ``sender``; ``ProtocolError`` if it is refused."""
    if not isinstance(raw, str) or len(raw) > MAX_WIRE:
        raise ProtocolError(sender, "wire message is oversized or not text")
    if raw.count("[") + raw.count("{") > MAX_ITEMS:
        raise ProtocolError(sender, f"frame holds more than {MAX_ITEMS} values")
    try:
        message = json.loads(raw, parse_float=_no_floats, parse_constant=_no_floats)
    except _Refused as exc:
        raise ProtocolError(sender, str(exc)) from exc
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(sender, "wire message is not JSON") from exc
    problem = _check_shape(message)
    if problem:
        raise ProtocolError(sender, problem)
    if not isinstance(message, dict) or not isinstance(message.get("k"), str):
        raise ProtocolError(sender, "wire message is not an object with a kind")
    return message
