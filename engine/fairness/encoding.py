"""Length-prefixed field encoding used by every hash in the fairness layer."""

from __future__ import annotations

Field = bytes | str | int


def field_bytes(value: Field) -> bytes:
    """Bytes of one field: str as UTF-8, int as signed decimal text, bytes as they are."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, bool):
        raise TypeError("booleans are not fields")
    if isinstance(value, int):
        return str(value).encode()
    return value.encode()


def join_fields(*fields: Field) -> bytes:
    """Concatenate fields, each prefixed by its 4-byte big-endian length (no ambiguity)."""
    out = bytearray()
    for value in fields:
        data = field_bytes(value)
        out += len(data).to_bytes(4, "big") + data
    return bytes(out)
