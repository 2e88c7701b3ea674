"""Plain values read out of table messages: hex fields, committed items, numbers.

Each check raises ``ProtocolError`` naming the sender; none reads the table.
"""

from __future__ import annotations

from typing import Any

from engine.protocol.errors import ProtocolError

DELIVERY_TAG = b"magic-table/delivery/v1\0"


def hex_bytes(value: Any, size: int, name: str, what: str) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size:
        raise ProtocolError(name, f"{what} must be {size} bytes of hex")
    try:
        return bytes.fromhex(value)
    except ValueError as exc:
        raise ProtocolError(name, f"{what} is not hex") from exc


# Fields a committed item may not carry: they belong to the move or to the table.
RESERVED_FIELDS = frozenset(
    {
        "type",
        "seat",
        "open",
        "show",
        "keys",
        "commit",
        "seal",
        "secret",
        "nonce",
        "item",
        "index",
        "card",
        "point",
        "step",
    }
)


def committed_fields(choice: Any, name: str) -> dict[str, Any]:
    """The fields a committed item adds to a move: a slot, a value, or a dict of plain fields."""
    if isinstance(choice, dict):
        bad = set(choice) & RESERVED_FIELDS
        if bad:
            raise ProtocolError(name, f"a committed item may not carry {sorted(bad)}")
        if "slot" in choice and opened_slot(choice) is None:
            raise ProtocolError(name, "a committed slot must be a slot number")
        return dict(choice)
    if opened_slot(choice) is not None:
        return {"slot": choice}
    return {"value": choice}


def as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def json_loads(text: str) -> Any:
    import json

    return json.loads(text)


def opened_slot(choice: Any) -> int | None:
    """The hidden-deck slot a committed choice names (an int, or a dict with ``slot``), if any."""
    slot = choice.get("slot") if isinstance(choice, dict) else choice
    if isinstance(slot, int) and not isinstance(slot, bool):
        return slot
    return None
