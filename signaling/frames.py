"""Parsing and validation of client → server frames of the signalling protocol."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from signaling.rooms import CODE_ALPHABET, CODE_LENGTH, ROLES, Role, normalize_code


class FrameError(Exception):
    """A frame the server refuses; ``code`` goes into the error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Create:
    """``{"type":"create","name":N,"role":R,"room"?:CODE}``: ``room`` re-creates a room that is
    gone (the server restarted) under its old code, if no room has it now."""

    name: str
    role: Role
    room: str | None = None


@dataclass(frozen=True)
class Join:
    """``{"type":"join","room":CODE,"name":N,"role":R,"resume"?:TOKEN}``."""

    room: str
    name: str
    role: Role
    resume: str | None


@dataclass(frozen=True)
class Signal:
    """``{"type":"signal","to":ID,"data":ANY}``."""

    to: str
    data: Any


@dataclass(frozen=True)
class Leave:
    """``{"type":"leave"}``."""


@dataclass(frozen=True)
class Ping:
    """``{"type":"ping"}``."""


@dataclass(frozen=True)
class AddBot:
    """``{"type":"add-bot"}``: the host asks the server to seat a bot."""


Frame = Create | Join | Signal | Leave | Ping | AddBot


def _text(obj: dict[str, Any], key: str, required: bool = True) -> str | None:
    """A string field, or a bad-message error."""
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise FrameError("bad-message", f"field {key!r} must be a string")
    return value


def _role(obj: dict[str, Any]) -> Role:
    """The role field; "player" when absent."""
    value = obj.get("role", "player")
    for role in ROLES:
        if value == role:
            return role
    raise FrameError("bad-message", 'field "role" must be "player" or "spectator"')


def _code(raw: str | None) -> str | None:
    """A room code asked for in ``create``, normalised; a malformed one is bad-message."""
    if raw is None:
        return None
    code = normalize_code(raw)
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise FrameError("bad-message", f'field "room" must be a room code ({CODE_LENGTH} symbols)')
    return code


def _finite(literal: str) -> float:
    """A JSON number with a fraction or exponent; one out of float range (1e400) is refused."""
    value = float(literal)
    if not math.isfinite(value):
        raise FrameError("bad-json", "numbers must be finite (this one is out of range)")
    return value


def _no_constant(literal: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity`` are not JSON."""
    raise FrameError("bad-json", f"{literal} is not JSON")


def parse_frame(text: str) -> Frame:
    """Decode one text frame into a typed frame, or raise FrameError."""
    try:
        obj = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise FrameError("bad-json", "frame is not valid JSON") from exc
    if not isinstance(obj, dict):
        raise FrameError("bad-message", "frame must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise FrameError("bad-message", 'field "type" must be a string')
    if kind == "create":
        wanted = _text(obj, "room", required=False)
        return Create(name=_text(obj, "name") or "", role=_role(obj), room=_code(wanted))
    if kind == "join":
        return Join(
            room=_text(obj, "room") or "",
            name=_text(obj, "name") or "",
            role=_role(obj),
            resume=_text(obj, "resume", required=False),
        )
    if kind == "signal":
        if "data" not in obj:
            raise FrameError("bad-message", 'field "data" is missing')
        return Signal(to=_text(obj, "to") or "", data=obj["data"])
    if kind == "leave":
        return Leave()
    if kind == "ping":
        return Ping()
    if kind == "add-bot":
        return AddBot()
    raise FrameError("unknown-type", f"unknown frame type {kind[:40]!r}")
