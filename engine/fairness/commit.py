"""Commit-reveal for secret choices.

``commit = SHA-256(tag ‖ room ‖ game ‖ round ‖ phase ‖ seat ‖ nonce ‖ choice)``, every field
length-prefixed, the nonce 32 fresh random bytes. The choice is canonical JSON, so a card slot
(an int) and any other JSON value commit the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from engine.core.model import JSON, canonical_json
from engine.fairness.encoding import join_fields

TAG = "magic-table/commit/v1"
NONCE_BYTES = 32


@dataclass(frozen=True)
class CommitContext:
    """Where a commitment was made: binds it to one room, game, round, phase and seat."""

    room: str
    game: str
    round: int
    phase: str
    seat: int


@dataclass(frozen=True)
class Opening:
    """What reveals a commitment: the nonce and the choice."""

    nonce: bytes
    choice: JSON


def commitment(context: CommitContext, opening: Opening) -> str:
    """Hex SHA-256 digest of the length-prefixed fields."""
    if len(opening.nonce) != NONCE_BYTES:
        raise ValueError("the nonce must be 32 bytes")
    data = join_fields(
        TAG,
        context.room,
        context.game,
        context.round,
        context.phase,
        context.seat,
        opening.nonce,
        canonical_json(opening.choice),
    )
    return hashlib.sha256(data).hexdigest()


def commit(context: CommitContext, choice: JSON) -> tuple[str, Opening]:
    """A fresh commitment to ``choice`` and the opening to keep secret until the reveal."""
    opening = Opening(secrets.token_bytes(NONCE_BYTES), choice)
    return commitment(context, opening), opening


def verify(context: CommitContext, digest: str, opening: Opening) -> bool:
    """True when ``opening`` opens ``digest`` made in ``context``."""
    try:
        expected = commitment(context, opening)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(expected, digest)


def is_digest(value: object) -> bool:
    """True for a 64-character lowercase hex string."""
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )
