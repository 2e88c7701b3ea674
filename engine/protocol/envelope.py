"""Signed canonical messages and host-signed log entries.

An envelope is ``{"room", "game", "from", "prev", "body", "sig"}``: ``sig`` is the author's ECDSA
signature over the canonical JSON of everything else (with a domain tag), ``prev`` the hash of the
log entry the author had last seen. A log entry is ``{"seq", "prev", "msg", "host", "hsig"}``; its
hash covers all but ``hsig``, the sequencing host's signature of ``(seq, hash)``, so two entries
with one ``seq`` and two hashes are proof the host equivocated.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.core.model import canonical_dump, canonical_json
from engine.fairness.backends.base import CryptoBackend, KeyPair

MAX_ENVELOPE = 64 * 1024
MAX_WIRE = 512 * 1024
MESSAGE_TAG = b"magic-table/message/v1\0"
ENTRY_TAG = b"magic-table/entry/v2\0"

Envelope = dict[str, Any]
Entry = dict[str, Any]


def genesis_hash(room: str, game: str) -> str:
    """The ``prev`` of the first log entry."""
    return hashlib.sha256(canonical_json(["genesis", room, game])).hexdigest()


def message_bytes(envelope: Envelope) -> bytes:
    """What the author signs."""
    unsigned = {k: v for k, v in envelope.items() if k != "sig"}
    return MESSAGE_TAG + canonical_json(unsigned)


async def make_envelope(
    backend: CryptoBackend, key: KeyPair, room: str, game: str, author: str, prev: str, body: Any
) -> Envelope:
    """A signed envelope."""
    envelope: Envelope = {"room": room, "game": game, "from": author, "prev": prev, "body": body}
    envelope["sig"] = (await backend.sign(key, message_bytes(envelope))).hex()
    return envelope


def envelope_shape_error(envelope: Any) -> str | None:
    """Why ``envelope`` is malformed, or ``None``."""
    if not isinstance(envelope, dict):
        return "message is not an object"
    if set(envelope) != {"room", "game", "from", "prev", "body", "sig"}:
        return "message has wrong fields"
    for field in ("room", "game", "from", "prev", "sig"):
        if not isinstance(envelope[field], str):
            return f"message field {field!r} is not a string"
    if not isinstance(envelope["body"], dict) or not isinstance(envelope["body"].get("t"), str):
        return "message body has no type"
    if len(envelope["sig"]) != 128:
        return "signature has the wrong length"
    try:
        size = len(canonical_json(envelope))
    except (TypeError, ValueError):
        return "message is not canonical JSON"
    if size > MAX_ENVELOPE:
        return f"message is {size} bytes, over the {MAX_ENVELOPE}-byte limit"
    return None


async def envelope_signature_ok(backend: CryptoBackend, public: bytes, envelope: Envelope) -> bool:
    """True when the author's signature holds. Every caller has checked the envelope's shape
    first (``envelope_shape_error``, whose canonical form refuses floats), so the signed bytes
    are made without a second walk for floats (the same bytes: a value without floats)."""
    try:
        signature = bytes.fromhex(envelope["sig"])
    except ValueError:
        return False
    unsigned = {k: v for k, v in envelope.items() if k != "sig"}
    return await backend.verify(public, MESSAGE_TAG + canonical_dump(unsigned), signature)


def entry_hash(entry: Entry) -> str:
    """Hash of a log entry (everything but the host signature).

    Neither this nor ``message_id`` walks the value for floats: every frame has been parsed with
    floats refused (``wire.parse_frame``), a message of this peer's own was checked when it was
    signed, and a float that came another way still fails the envelope's own check
    (``envelope_shape_error``) before anything is applied. Under Pyodide the walk took about as
    long as the encoding itself, for values hashed several times each."""
    core = {k: entry[k] for k in ("seq", "prev", "msg", "host")}
    return hashlib.sha256(canonical_dump(core)).hexdigest()


def message_id(envelope: Envelope) -> str:
    """Identity of a message for duplicate detection (no float walk: see ``entry_hash``)."""
    return hashlib.sha256(canonical_dump(envelope)).hexdigest()


def safe_message_id(envelope: Any) -> str:
    """``message_id``, or ``""`` for a value that is not a canonical message (checks say why)."""
    try:
        return message_id(envelope) if isinstance(envelope, dict) else ""
    except (TypeError, ValueError):
        return ""


def entry_signed_bytes(room: str, game: str, seq: int, digest: str) -> bytes:
    """What the host signs for a log entry: the room and game it belongs to, its number and its
    hash together, so a signature can never be passed off as another entry's — of this game (a
    checkpoint claims a number and a hash) or of an earlier game at the same table, whose entries
    have other hashes at the same numbers (a replayed one would frame the host)."""
    return ENTRY_TAG + canonical_dump([room, game, seq, digest])


async def sign_entry(
    backend: CryptoBackend, key: KeyPair, room: str, game: str, seq: int, digest: str
) -> str:
    """The host's signature of entry ``seq`` of ``game`` in ``room``, with hash ``digest``."""
    return (await backend.sign(key, entry_signed_bytes(room, game, seq, digest))).hex()


async def entry_signature_ok(
    backend: CryptoBackend,
    public: bytes,
    room: str,
    game: str,
    seq: Any,
    digest: Any,
    signature: Any,
) -> bool:
    """True when ``signature`` is the host's signature of ``(room, game, seq, digest)``."""
    if not (isinstance(seq, int) and isinstance(digest, str) and isinstance(signature, str)):
        return False
    try:
        raw = bytes.fromhex(signature)
    except ValueError:
        return False
    return await backend.verify(public, entry_signed_bytes(room, game, seq, digest), raw)
